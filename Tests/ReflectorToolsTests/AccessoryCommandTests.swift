@testable import BLEHost
import Foundation
@testable import ReflectorTools
@testable import ToolFiles
import TestSupport
import Testing

/// `reflector-emu accessory` on board A of a two-board air with a phone that is not ours on
/// board B: Bumble's host pairs (LE Secure Connections, bonding), discovers the Ranging
/// Service, reads RAS Features, subscribes, and runs CS as initiator. Without inline PCT its
/// distances come from the accessory's RAS (real-time, and on demand), with it from its own
/// PCTs; each within 0.3 m of the air's 2.5 m. The accessory reports each procedure its
/// reflector measured and keeps the bond (mode 0600); not pairable, it refuses a new phone.
/// Against this project's `range`: Just Works and Passkey Entry, bonds kept on both sides and a
/// new run encrypting with them, a forgotten bond named.
extension BoardBenchTests {
    @Suite struct AccessoryCommandTests {
        static let address = "C3:00:00:00:00:01"

        /// A bond file with a fixed identity, in a fresh folder.
        static func bondFile(_ dir: TemporaryDirectory, bonds: [Bond] = []) throws -> String {
            let path = dir.file("bonds.json")
            try BondFile(address: 0xC300_0000_0001, irk: Array(0..<16), bonds: bonds).save(path)
            return path
        }

        /// The background accessory's result, written once by its thread before `done` is signalled.
        final class ResultBox: @unchecked Sendable { var result: ToolProcess.Result? }

        /// Serves two boards and runs `reflector-emu accessory --pty A --bonds FILE ARGS` in the
        /// background while `phone` runs against B's link; `stopsBoards`: the boards stop before
        /// the accessory is awaited (a phone that does not disconnect, so the accessory ends on
        /// its port). The phone's value and the accessory's result.
        static func withAccessory<T>(served: [String], accessory arguments: [String], bonds: String, stopsBoards: Bool = false,
                                     phone: (_ link: String) throws -> T) throws -> (T, ToolProcess.Result?) {
            let boards = try ServedBoard(served, boards: 2)
            defer { boards.stop() }
            let box = ResultBox()
            let done = DispatchSemaphore(value: 0)
            let line = boards.links[0]
            DispatchQueue.global().async {
                box.result = try? ToolProcess.run(["accessory", "--pty", line, "--bonds", bonds] + arguments, timeout: 60)
                done.signal()
            }
            let value = try phone(boards.links[1])
            if stopsBoards { boards.stop() }
            _ = done.wait(timeout: .now() + 30)
            return (value, box.result)
        }

        /// The JSON object on a peer's last line of output.
        static func lastJSON(_ stdout: String) -> [String: Any]? {
            try? JSONSerialization.jsonObject(with: Data((stdout.split(separator: "\n").last.map(String.init) ?? "").utf8)) as? [String: Any]
        }

        /// Runs the accessory on A (`--once`) and Bumble's phone on B; both results.
        static func run(accessory arguments: [String], phone: [String], bonds: String) throws -> (phone: [String: Any]?, accessory: ToolProcess.Result?, phoneResult: ToolProcess.Result) {
            let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_phone.py").path
            let (r, a) = try withAccessory(served: ["--distance", "2.5", "--channel", "free", "--caps-layout", "bumble"], accessory: ["--once"] + arguments,
                                           bonds: bonds) { link in
                try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, link, Self.address] + phone, timeout: 60)
            }
            return (Self.lastJSON(r.stdout), a, r)
        }

        /// The procedure objects of a run's JSON Lines (not its summary, nor its loss records).
        static func procedures(_ stdout: String) -> [[String: Any]] {
            records(stdout).filter { $0["procedure_counter"] != nil }
        }

        /// Every object of a run's JSON Lines.
        static func records(_ stdout: String) -> [[String: Any]] {
            stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        @Test(arguments: [("no-ipt", false), ("no-ipt", true), ("ipt", false)])
        func bumblesPhoneRangesTheAccessory(ipt: String, onDemand: Bool) throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let (phone, accessory, r) = try Self.run(accessory: ["--json"] + (onDemand ? ["--ras-on-demand"] : []), phone: ["3", ipt], bonds: bonds)
            let p = try #require(phone, "phone: \(r.stdout) \(r.stderr.suffix(1500))")
            #expect(p["encrypted"] as? Bool == true)
            #expect(p["ras_mode"] as? String == (onDemand ? "on-demand" : "real-time"))
            #expect(p["features"] as? Int == (onDemand ? 0 : 1))
            #expect((p["services"] as? [String]) == ["UUID-16:1800", "UUID-16:1801", "UUID-16:180A", "UUID-16:185B"], "\(p)")
            let distances = (p["procedures"] as? [[String: Any]] ?? []).compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(p)")
            // The accessory: its reflector's measurements, and the bond kept.
            let a = try #require(accessory)
            #expect(a.status == 1 && a.stderr.contains("paired with F0:F1:F2:F3:F4:F5 (Just Works, bonded)"), "\(a.stderr)")
            let measured = Self.procedures(a.stdout)
            #expect(measured.count >= 3 && measured.allSatisfy { ($0["steps_by_mode"] as? [Int])?[2] ?? 0 > 0 }, "\(a.stdout)")
            var info = stat()
            #expect(stat(bonds, &info) == 0 && info.st_mode & 0o777 == 0o600)
            guard case .read(let file) = BondFile.load(bonds) else { Issue.record("the bond file does not read"); return }
            #expect(file.bonds.count == 1 && file.bonds[0].peer == PairingAddress(0xF0F1_F2F3_F4F5, random: true))
            // The same key on both sides (HCI order).
            #expect(file.bonds[0].longTermKey.map { String(format: "%02x", $0) }.joined() == p["ltk"] as? String)
        }

        /// Runs the accessory on A (`--once`) and `range` on B; both results.
        static func againstRange(accessory: [String], range: [String], bonds: String) throws -> (accessory: ToolProcess.Result?, range: ToolProcess.Result) {
            let (r, a) = try withAccessory(served: ["--distance", "2.5", "--channel", "free"], accessory: ["--once"] + accessory, bonds: bonds) { link in
                try ToolProcess.run(["range", "--pty", link, "--procedures", "3"] + range, timeout: 60)
            }
            return (a, r)
        }

        /// This project's phone side against its accessory, both over boards: `range` pairs
        /// (Just Works, no bond key given), then ranges with inline PCT, or (--ras) from the
        /// accessory's Ranging Service in real time and on demand; within 0.3 m of 2.5 m.
        @Test(arguments: [([String](), [String]()), ([], ["--ras"]), (["--ras-on-demand"], ["--ras"])])
        func rangePairsAndRangesTheAccessory(accessory: [String], range: [String]) throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let (a, r) = try Self.againstRange(accessory: accessory, range: range + ["--json"], bonds: bonds)
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let distances = Self.procedures(r.stdout).compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(r.stdout)")
            #expect(r.stderr.contains("range: paired (Just Works, bonded for this run)"), "\(r.stderr)")
            if range.contains("--ras") {
                #expect(r.stderr.contains(accessory.isEmpty ? "over RAS (real-time)" : "over RAS (on demand)"), "\(r.stderr)")
            }
            #expect(a?.stderr.contains("paired with C0:FF:EE:00:00:B0 (Just Works, bonded)") == true, "\(a?.stderr ?? "")")
        }

        /// The accessory shows a passkey (--passkey); `range` typing another one fails the
        /// pairing: Confirm Value Failed (0x04) on both sides, exit 2, no bond kept. (The
        /// accessory's passkey is random: 000000 is wrong but for a one-in-a-million draw.)
        @Test func aWrongPasskeyFailsThePairing() throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let (a, r) = try Self.againstRange(accessory: ["--passkey"], range: ["--passkey", "000000"], bonds: bonds)
            #expect(r.status == 2 && r.stderr.contains("pairing failed: Confirm Value Failed (0x04), said the reflector"), "\(r.stderr)")
            #expect(a?.stderr.contains(": type it on the phone") == true && a?.stderr.contains("pairing failed: Confirm Value Failed (0x04)") == true,
                    "\(a?.stderr ?? "")")
            guard case .read(let file) = BondFile.load(bonds) else { Issue.record("the bond file does not read"); return }
            #expect(file.bonds.isEmpty)
        }

        /// The accessory shows its label's passkey (--fixed-passkey) and `range` types it: Passkey
        /// Entry's twenty rounds pass, both sides hold an authenticated bond, and the run ranges.
        @Test func rangeTypesThePasskeyTheAccessoryShows() throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let (a, r) = try Self.againstRange(accessory: ["--fixed-passkey", "031415"], range: ["--passkey", "031415", "--json"], bonds: bonds)
            #expect(r.status == 0 && r.stderr.contains("range: paired (Passkey Entry, bonded for this run)"), "\(r.stderr)")
            let distances = Self.procedures(r.stdout).compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(r.stdout)")
            #expect(a?.stderr.contains("passkey 031415: type it on the phone") == true
                    && a?.stderr.contains("paired with C0:FF:EE:00:00:B0 (Passkey Entry, bonded)") == true, "\(a?.stderr ?? "")")
            guard case .read(let file) = BondFile.load(bonds) else { Issue.record("the bond file does not read"); return }
            #expect(file.bonds.count == 1 && file.bonds[0].authenticated)
        }

        /// Bonds kept on both sides (`range --bonds`): a second run reconnects and encrypts with
        /// the bond, no new pairing (the accessory, holding a bond, is no longer pairable), and
        /// ranges, with inline PCT or over RAS. The phone's file holds the accessory's identity
        /// and the phone's board address.
        @Test(arguments: [[String](), ["--ras"]])
        func rangeReconnectsWithItsBondInANewRun(range: [String]) throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let phoneBonds = dir.file("phone/bonds.json")
            let first = try Self.againstRange(accessory: [], range: range + ["--bonds", phoneBonds], bonds: bonds)
            #expect(first.range.status == 0 && first.range.stderr.contains("range: paired (Just Works, bonded, kept in \(phoneBonds))"), "\(first.range.stderr)")
            guard case .read(let phone) = BondFile.load(phoneBonds) else { Issue.record("the phone's bond file does not read"); return }
            #expect(!phone.addressIsRandom && phone.address == 0xC0FF_EE00_00B0)
            #expect(phone.bonds.count == 1 && phone.bonds[0].peer == PairingAddress(0xC300_0000_0001, random: true) && phone.bonds[0].peerIRK == Array(0..<16))
            var info = stat()
            #expect(stat(phoneBonds, &info) == 0 && info.st_mode & 0o777 == 0o600)

            let (a, r) = try Self.againstRange(accessory: [], range: range + ["--bonds", phoneBonds, "--json"], bonds: bonds)
            #expect(r.status == 0 && r.stderr.contains("range: encrypting with the bond kept in \(phoneBonds) (no new pairing)") && !r.stderr.contains("paired ("),
                    "\(r.stderr)")
            let distances = Self.procedures(r.stdout).compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(r.stdout)")
            let accessory = a?.stderr ?? ""
            #expect(accessory.contains("not pairable: 1 bond kept") && accessory.contains("encrypted with the bond of C0:FF:EE:00:00:B0")
                    && !accessory.contains("paired with"), "\(accessory)")
        }

        /// The accessory forgot the pairing (its file rewritten without the bond): the phone's
        /// bond key is refused (PIN or Key Missing) and `range` says so and how to pair again.
        @Test func aBondTheAccessoryForgotIsNamed() throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let phoneBonds = dir.file("phone.json")
            let first = try Self.againstRange(accessory: [], range: ["--bonds", phoneBonds], bonds: bonds)
            #expect(first.range.status == 0, "\(first.range.stderr)")
            _ = try Self.bondFile(dir)
            let (_, r) = try Self.againstRange(accessory: [], range: ["--bonds", phoneBonds], bonds: bonds)
            #expect(r.status == 2 && r.stderr.contains("the reflector refused this phone's bond (PIN or Key Missing, 0x06)")
                    && r.stderr.contains("remove its entry from \(phoneBonds)"), "\(r.stderr)")
        }

        /// Each side refuses the other's bond file before it opens a port, naming it.
        @Test func eachSideRefusesTheOthersBondFile() throws {
            let dir = try TemporaryDirectory("accessory")
            let accessoryFile = try Self.bondFile(dir)
            let phoneFile = dir.file("phone.json")
            try BondFile(address: 0xC0FF_EE00_00B0, addressIsRandom: false, irk: Array(0..<16)).save(phoneFile)
            let a = try ToolProcess.run(["accessory", "--pty", dir.file("no-such-pty"), "--bonds", phoneFile], timeout: 30)
            #expect(a.status == 2 && a.stderr.contains("\(phoneFile): this is a phone's bond file"), "\(a.stderr)")
            let r = try ToolProcess.run(["range", "--pty", dir.file("no-such-pty"), "--bonds", accessoryFile], timeout: 30)
            #expect(r.status == 2 && r.stderr.contains("\(accessoryFile): this is an accessory's bond file"), "\(r.stderr)")
        }

        /// One served board with its emulated phone (`serve --pair`): the phone pairs with the
        /// accessory and ranges it; the accessory reports what its reflector measured.
        @Test func theEmulatedPhoneOfServePairsWithTheAccessory() throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let board = try ServedBoard(["--pair", "--distance", "2.5"])
            defer { board.stop() }
            let r = try ToolProcess.run(["accessory", "--pty", board.link, "--bonds", bonds, "--procedures", "3", "--json"], timeout: 60)
            #expect(r.status == 0 && r.stderr.contains("paired with C0:FF:EE:00:00:B1 (Just Works, bonded)"), "\(r.stderr)")
            #expect(Self.procedures(r.stdout).count == 3, "\(r.stdout)")
        }

        /// Runs the accessory on A (in the background, until the boards stop) and Bumble's
        /// Security Manager as central on B (`bumble_smp.py central ... smp`); its summary, and
        /// the accessory's result.
        static func againstBumbleSMP(accessory: [String], smp: [String], bonds: String) throws -> (summary: [String: Any], accessory: ToolProcess.Result?) {
            let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_smp.py").path
            let (r, a) = try withAccessory(served: ["--distance", "2.5"], accessory: accessory, bonds: bonds, stopsBoards: true) { link in
                try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "central", link, Self.address + "/random"] + smp, timeout: 90)
            }
            let summary = try #require(Self.lastJSON(r.stdout), "\(r.stdout) \(r.stderr.suffix(800))")
            return (summary, a)
        }

        /// A central without LE Secure Connections (Bumble's with SC off): refused by default
        /// (Authentication Requirements, 0x03, as Secure Connections Only mode answers); with
        /// --allow-legacy it pairs with LE legacy pairing (Just Works: STK, then the accessory's
        /// distributed LTK with its EDIV and Rand, which both sides then hold).
        @Test(arguments: [false, true])
        func legacyPairingIsRefusedUnlessAllowed(allowed: Bool) throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let (summary, accessory) = try Self.againstBumbleSMP(accessory: ["--once"] + (allowed ? ["--allow-legacy"] : []), smp: ["none", "None", "legacy"], bonds: bonds)
            guard allowed else {
                #expect(summary["failure"] as? Int == 0x03, "\(summary)")
                return
            }
            #expect(summary["failure"] == nil, "\(summary)")
            guard case .read(let file) = BondFile.load(bonds), let bond = file.bonds.first else { Issue.record("no bond kept"); return }
            #expect(bond.longTermKey.map { String(format: "%02x", $0) }.joined() == summary["ltk"] as? String, "\(summary)")
            #expect(summary["ediv"] as? Int == Int(bond.ediv) && bond.ediv != 0 || bond.rand != 0)
            #expect(accessory?.stderr.contains("(Just Works, LE legacy pairing, bonded)") == true, "\(accessory?.stderr ?? "")")
        }

        /// LE legacy Passkey Entry (the accessory's --fixed-passkey typed on Bumble's keyboard:
        /// TK is the passkey), then Bumble leaves, comes back and encrypts with the distributed
        /// LTK, which it names by EDIV and Rand: the accessory finds the bond by them, without
        /// a new pairing.
        @Test func legacyPasskeyBondsAndReconnectsByEDIVAndRand() throws {
            let dir = try TemporaryDirectory("accessory")
            let bonds = try Self.bondFile(dir)
            let (summary, accessory) = try Self.againstBumbleSMP(accessory: ["--allow-legacy", "--fixed-passkey", "031415"],
                                                                 smp: ["keyboard", "31415", "legacy", "reconnect"], bonds: bonds)
            #expect(summary["failure"] == nil && summary["authenticated"] as? Bool == true && summary["typed"] as? Int == 31415, "\(summary)")
            #expect(summary["reencrypted"] as? Bool == true, "\(summary)")
            let stderr = accessory?.stderr ?? ""
            #expect(stderr.contains("(Passkey Entry, LE legacy pairing, bonded)") && stderr.contains("encrypted with the bond of "), "\(stderr)")
            #expect(stderr.components(separatedBy: "paired with").count == 2, "one pairing only: \(stderr)")
            guard case .read(let file) = BondFile.load(bonds), let bond = file.bonds.first else { Issue.record("no bond kept"); return }
            #expect(bond.authenticated && (bond.ediv != 0 || bond.rand != 0))
        }

        /// With a bond kept and no --pairable, a new phone's pairing is refused: Pairing Not Supported (0x05).
        @Test func aBondedAccessoryRefusesANewPhone() throws {
            let dir = try TemporaryDirectory("accessory")
            let other = Bond(peer: PairingAddress(0xC0FF_EE00_0099, random: false), peerIRK: nil, longTermKey: Array(0..<16), authenticated: false)
            let bonds = try Self.bondFile(dir, bonds: [other])
            let (phone, accessory, r) = try Self.run(accessory: [], phone: ["1", "ipt"], bonds: bonds)
            #expect(phone?["pairing_failure"] as? Int == 0x05, "\(r.stdout) \(r.stderr.suffix(800))")
            #expect(accessory?.stderr.contains("not pairable: 1 bond kept") == true, "\(accessory?.stderr ?? "")")
            guard case .read(let file) = BondFile.load(bonds) else { Issue.record("the bond file does not read"); return }
            #expect(file.bonds == [other])
        }
    }
}
