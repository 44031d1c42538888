@testable import BLEHost
import Foundation
@testable import ToolFiles
import TestSupport
import Testing

/// The accessory's bond file: it reads back what it wrote; it is mode 0600; a write
/// interrupted before its rename (a crash) leaves the previous file as it was; a file that does
/// not read is moved aside, named, never emptied; a bad address or key is named by its key.
@Suite struct BondFileTests {
    static let bond = Bond(peer: PairingAddress(0xF0F1_F2F3_F4F5, random: true), peerIRK: Array(0x40..<0x50), longTermKey: Array(0xA0..<0xB0), authenticated: true,
                           configurations: [0x0015: 1, 0x0019: 2])

    @Test func writesAndReadsBack() throws {
        let dir = try TemporaryDirectory("bonds")
        let path = dir.file("state/reflector-emu/bonds.json")
        let file = BondFile(address: 0xC300_0000_0001, irk: Array(0..<16), bonds: [Self.bond])
        try file.save(path)
        #expect(BondFile.load(path) == .read(file))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // Keys most significant octet first: the LTK A0…AF little-endian reads AFAE…A0.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""ltk": "AFAEADACABAAA9A8A7A6A5A4A3A2A1A0""#) && text.contains(#""address": "C30000000001""#), "\(text)")
        #expect(text.contains(#""client_configuration": [{"handle": 21, "value": 1}, {"handle": 25, "value": 2}]"#), "\(text)")
    }

    /// A phone's file (`range --bonds`): its identity is its board's public address, kept as such;
    /// the accessory's static-random check does not apply to it.
    @Test func aPhonesFileKeepsItsPublicAddress() throws {
        let dir = try TemporaryDirectory("bonds")
        let path = dir.file("phone.json")
        let file = BondFile(address: 0x0000_C0FF_EE00, addressIsRandom: false, irk: Array(0..<16), bonds: [Self.bond])
        try file.save(path)
        #expect(BondFile.load(path) == .read(file))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""address": "0000C0FFEE00", "address_random": false"#), "\(text)")
    }

    @Test func anInterruptedWriteLeavesThePreviousFile() throws {
        let dir = try TemporaryDirectory("bonds")
        let path = dir.file("bonds.json")
        let before = BondFile(address: 0xC300_0000_0001, irk: Array(0..<16))
        try before.save(path)
        var after = before
        after.bonds = [Self.bond]
        try after.save(path, interruptAfter: 40)
        #expect(BondFile.load(path) == .read(before))
    }

    @Test func aCorruptFileIsMovedAsideNotEmptied() throws {
        let dir = try TemporaryDirectory("bonds")
        let path = dir.file("bonds.json")
        let garbage = Data(#"{"format": "reflector-emu bonds 1", "address": "C3000000"#.utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        guard case let .corrupt(aside, why) = BondFile.load(path) else { Issue.record("not reported"); return }
        #expect(aside.hasPrefix(path + ".corrupt-") && why.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == garbage)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [
        (#"{"format": "reflector-emu bonds 1", "address": "030000000001", "irk": "000102030405060708090A0B0C0D0E0F", "bonds": []}"#, "address"),
        (#"{"format": "reflector-emu bonds 1", "address": "C30000000001", "irk": "0001", "bonds": []}"#, "irk"),
        (#"{"format": "reflector-emu bonds 1", "address": "C30000000001", "irk": "000102030405060708090A0B0C0D0E0F", "bonds": [{"peer": "F0F1F2F3F4F5", "peer_random": true, "ltk": "zz"}]}"#, "bonds[0]"),
        (#"{"format": "bonds 2", "address": "C30000000001", "irk": "000102030405060708090A0B0C0D0E0F", "bonds": []}"#, "format"),
    ])
    func badFilesAreNamedByTheirKey(text: String, key: String) throws {
        let dir = try TemporaryDirectory("bonds")
        let path = dir.file("bonds.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        guard case let .corrupt(_, why) = BondFile.load(path) else { Issue.record("accepted: \(text)"); return }
        #expect(why.contains(key), "\(why)")
    }
}
