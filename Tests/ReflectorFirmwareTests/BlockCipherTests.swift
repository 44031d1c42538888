import Testing
@testable import ReflectorFirmware
import TestSupport

/// The `BlockCipher` seam: a board's cipher, here a stand-in for an AES ECB peripheral that
/// takes its octets little-endian (as nRF's does) and counts the blocks it was asked for, runs
/// the same CS DRBG, random bits and controller as the table `AES128`, and so reproduces the
/// spec's sample data.
struct BlockCipherTests {
    /// An "ECB peripheral": key and data go in least significant octet first, the result comes
    /// back the same way, and the driver reverses them around it.
    struct LittleEndianECB: BlockCipher {
        let keyLE: [UInt8]

        init(key: Block128) { keyLE = key.octets.reversed() }

        func encrypt(_ block: Block128) -> Block128 {
            let key = Block128(octets: keyLE.reversed())
            let clearLE: [UInt8] = block.octets.reversed()
            let cipherLE: [UInt8] = AES128.encrypt(key: key, Block128(octets: clearLE.reversed())).octets.reversed()
            return Block128(octets: cipherLE.reversed())
        }
    }

    @Test func theDRBGSampleDataComesOutOfAnyCipher() {
        var d = CSDRBG(iv: CryptoTests.iv, instantiationNonce: CryptoTests.inNonce, personalization: CryptoTests.pv,
                       cipher: LittleEndianECB.self)
        #expect(d.key == Hex.block("EEE04D7C76113A5CEC992AE320C24D27"))
        #expect(d.generate(step: 0, transactionID: 0, transactionCounter: 0) == Hex.block("79741FD18F577B45D09A665A7F1F2858"))
        #expect(d.generate(step: 10, transactionID: 4, transactionCounter: 0) == Hex.block("FFF874384E1CB9D3E69F1F2C2A22CF63"))
    }

    @Test func plannersOnEitherCipherPlanTheSameSteps() {
        let config = CSConfiguration(mainMode: .mode2, mode0Steps: 3, channelMap: .allowed)
        let schedule = ProcedureSchedule(subeventLength: 10_000, maxProcedureLength: 10_000_000)
        var software = ProcedurePlanner(configuration: config, schedule: schedule, antennaPaths: 4, drbg: ProcedurePlannerTests.sampleDRBG())
        var board = ProcedurePlanner(configuration: config, schedule: schedule, antennaPaths: 4,
                                     drbg: CSDRBG(iv: CryptoTests.iv, instantiationNonce: CryptoTests.inNonce, personalization: CryptoTests.pv,
                                                  cipher: LittleEndianECB.self))
        for _ in 0..<3 { #expect(software.planNextProcedure() == board.planNextProcedure()) }
    }

    @Test func aControllerRunsOnABoardCipher() {
        let c = CSController(capabilities: .projectReflector(), address: 1, connection: LinkConnection(handle: 0x40, isCentral: true),
                             seed: 1, cipher: LittleEndianECB.self)
        #expect(c.drbg == nil)
        #expect(type(of: c) == CSController<LittleEndianECB>.self)
    }
}
