#if !FIRMWARE_IMAGE
import ReflectorFirmware
#endif
import WireFormat

/// What the reflector's radio hears in a test vector: a pool of tone receptions (I/Q over T_PM
/// and an SNR) and of CS_SYNC receptions, handed out in order, one per tone slot or packet the
/// step engine listens for, from the start again when a pool runs out. A vector so need not
/// know the plan in advance, and both builds hear the same thing at the same slot.
///
/// Receptions payload: `tone count 1 (1...64) | tones (I f32, Q f32, SNR dB i8; LE) |
/// sync count 1 (1...16) | syncs (detected 1, AA bit errors 1, RSSI i8, arrival offset i32 in
/// 0.5 ns; LE)`. Non-finite I/Q is refused: NaN payloads are not the same on every FPU.
public struct ReceptionPool: Sendable {
    public private(set) var tones: [ToneReception]
    public private(set) var syncs: [SyncReception]

    public static let maxTones = 64
    public static let maxSyncs = 16

    public init(tones: [ToneReception], syncs: [SyncReception]) {
        self.tones = tones
        self.syncs = syncs
    }

    public init(payload: [UInt8]) throws(PayloadError) {
        var r = ByteReader(payload)
        guard let toneCount = try? r.u8("tone count"), (1...UInt8(Self.maxTones)).contains(toneCount) else {
            throw PayloadError(offset: 0)
        }
        tones = []
        tones.reserveCapacity(Int(toneCount))
        for _ in 0..<toneCount {
            let at = r.offset
            guard let iBits = try? r.u32("I"), let qBits = try? r.u32("Q"), let snr = try? r.i8("SNR") else {
                throw PayloadError(offset: at)
            }
            let i = Float(bitPattern: iBits), q = Float(bitPattern: qBits)
            guard i.isFinite, q.isFinite else { throw PayloadError(offset: at) }
            tones.append(ToneReception(iq: IQSample(i: i, q: q), snrDB: Float(Int(snr))))
        }
        let countAt = r.offset
        guard let syncCount = try? r.u8("sync count"), (1...UInt8(Self.maxSyncs)).contains(syncCount) else {
            throw PayloadError(offset: countAt)
        }
        syncs = []
        syncs.reserveCapacity(Int(syncCount))
        for _ in 0..<syncCount {
            let at = r.offset
            guard let detected = try? r.u8("detected"), detected <= 1, let errors = try? r.u8("AA bit errors"),
                let rssi = try? r.i8("RSSI"), let arrival = try? r.u32("arrival")
            else { throw PayloadError(offset: at) }
            syncs.append(SyncReception(detected: detected == 1, accessAddressBitErrors: errors, rssi: rssi,
                                       arrivalOffsetHalfNanoseconds: Int32(bitPattern: arrival)))
        }
        guard r.isAtEnd else { throw PayloadError(offset: r.offset) }
    }

    public var payload: [UInt8] {
        var w = ByteWriter(capacity: 2 + tones.count * 9 + syncs.count * 7)
        w.u8(UInt8(truncatingIfNeeded: tones.count))
        for t in tones {
            w.u32(t.iq.i.bitPattern)
            w.u32(t.iq.q.bitPattern)
            w.i8(Int8(clamping: Int(t.snrDB)))
        }
        w.u8(UInt8(truncatingIfNeeded: syncs.count))
        for s in syncs {
            w.u8(s.detected ? 1 : 0)
            w.u8(s.accessAddressBitErrors)
            w.i8(s.rssi)
            w.u32(UInt32(bitPattern: s.arrivalOffsetHalfNanoseconds))
        }
        return w.bytes
    }
}
