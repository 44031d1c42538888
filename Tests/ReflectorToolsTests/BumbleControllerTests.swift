@testable import BLEHost
import Foundation
@testable import ReflectorTools
@testable import ToolFiles
import TestSupport
import Testing

/// A controller stack nobody here wrote: Google Bumble's virtual controllers
/// (`bumble.controller.Controller` on one `bumble.link.LocalLink`, `Tests/Peers/bumble_controllers.py`),
/// which have no Channel Sounding and list none of its commands (nor LE Set Host Feature) in
/// Read Local Supported Commands. `reflector-emu accessory --force` on one of them (over a pty, H4) and Bumble's host as
/// the phone on another (in the controllers' process, `--phone`) go through every step a phone
/// takes with an accessory: the advertiser of the Ranging Service found, a connection, RAS
/// Features refused before encryption (Insufficient Encryption or Authentication), LE Secure
/// Connections pairing with bonding (Just Works), GATT discovery (GAP, GATT, Device
/// Information, the Ranging Service's six characteristics), RAS Features read once encrypted, a
/// subscription (CCCD), disconnection, reconnection encrypted with the bond and no second
/// pairing, RAS Features read again and the CCCD the bond kept. The accessory says Channel
/// Sounding is unavailable, keeps serving until it is stopped (SIGTERM, status 0), and keeps
/// the bond.
///
/// `BUMBLE_CONTROLLER_TEST_PENDING=1` skips the strict case (the accessory exited at LE CS Set
/// Default Settings, which Bumble's controller answers Unknown HCI Command, until its host sent
/// only listed commands). The diagnostic case makes the controller accept that command
/// (`--accept-command 0x208D`, not what Bumble does) and checks everything but CS.
extension BoardBenchTests {
    @Suite struct BumbleControllerTests {
        static let accessoryAddress = "C3:00:00:00:00:01"
        static let phoneAddress = "F0:F1:F2:F3:F4:F5"
        static let steps = ["scan", "connect", "mtu", "discover_before", "read_before", "pair", "discover", "read_after",
                            "subscribe", "disconnect", "reconnect", "encrypt_bond", "read_again"]
        static let pending = ProcessInfo.processInfo.environment["BUMBLE_CONTROLLER_TEST_PENDING"] == "1"

        /// What one run gave: the phone's object, the accessory's and the controllers' results.
        struct Run {
            var phone: [String: Any]?
            var accessory: ToolProcess.Result
            /// The accessory was still serving when the phone was done.
            var accessoryServing: Bool
            var controllers: ToolProcess.Result
            var trace: String
        }

        /// Starts the controllers (one on a pty, the phone on another), the accessory on the pty
        /// until the phone is done, then stops the accessory (SIGTERM) and the controllers (end of stdin).
        /// `phoneOnPty`: the phone is `bumble_controller_phone.py` on a second pty (its own
        /// process, through Bumble's serial transport) instead of in the controllers' process.
        static func run(bonds: String, in dir: TemporaryDirectory, controllers extra: [String] = [], phoneOnPty: Bool = false) throws -> Run {
            let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_controllers.py").path
            let link = dir.file("controller-A"), phoneLink = dir.file("controller-B"), trace = dir.file("trace.jsonl")
            let controllers = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                                    ["python3", script, "--ptys", "1", "--link", link, "--timeout", "15", "--trace", trace, "--lifetime", "300"]
                                                        + (phoneOnPty ? ["--link", phoneLink] : ["--phone"]) + extra)
            defer { controllers.stop() }
            guard controllers.line(timeout: 30, where: { $0.contains("\"ptys\"") }) != nil else {
                let r = controllers.stop()
                throw NSError(domain: "BumbleControllerTests", code: 1,
                              userInfo: [NSLocalizedDescriptionKey: "the controllers did not come up: \(r.stdout) \(r.stderr.suffix(2000))"])
            }
            let accessory = try BackgroundProcess(ToolProcess.executable, ["accessory", "--pty", link, "--force", "--bonds", bonds, "--json"])
            defer { accessory.stop() }
            // The phone's steps each have 15 s (its scan 60 s); it prints its object when done.
            var phone: [String: Any]?
            if phoneOnPty {
                let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_controller_phone.py").path
                let p = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, phoneLink, "--timeout", "15"])
                defer { p.stop() }
                let line = p.line(timeout: 240) { $0.hasPrefix("{") }
                phone = line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            } else {
                let line = controllers.line(timeout: 240) { $0.hasPrefix("{\"phone\"") }
                phone = line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["phone"] as? [String: Any]
            }
            let serving = accessory.isRunning
            let a = accessory.stop(signal: SIGTERM, grace: 10)
            let c = controllers.stop(signal: nil, grace: 10)
            return Run(phone: phone, accessory: a, accessoryServing: serving, controllers: c, trace: (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")
        }

        /// The accessory's bond file with a fixed identity, in `dir`.
        static func bondFile(_ dir: TemporaryDirectory) throws -> String {
            let path = dir.file("bonds.json")
            try BondFile(address: 0xC300_0000_0001, irk: Array(0..<16), bonds: []).save(path)
            return path
        }

        /// The opcodes of the commands the accessory sent (to controller 0), from the controllers' trace.
        static func commandsSent(_ trace: String) -> [UInt16] {
            trace.split(separator: "\n").compactMap { line -> UInt16? in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["dir"] as? String == "host>ctrl",
                      o["controller"] as? Int == 0,
                      let hex = o["hex"] as? String, hex.hasPrefix("01"), hex.count >= 6, let op = UInt16(hex.dropFirst(2).prefix(4), radix: 16)
                else { return nil }
                return op.byteSwapped
            }
        }

        static func step(_ phone: [String: Any]?, _ name: String) -> [String: Any] {
            (phone?["steps"] as? [String: Any])?[name] as? [String: Any] ?? [:]
        }

        /// Every step the phone takes, as a phone needs it: one issue naming the steps that
        /// failed (the first with what happened), then each step's details where it passed.
        static func expectEveryStep(_ r: Run) {
            let p = r.phone
            let failed = steps.filter { step(p, $0)["ok"] as? Bool != true }
            let first = failed.first.map { "\($0): \(step(p, $0)["error"] ?? "no outcome")" } ?? ""
            #expect(p != nil && failed.isEmpty, """
                steps not ok: \(failed) (first: \(first)); accessory (status \(r.accessory.status)): \(r.accessory.stderr.suffix(1500)) \
                phone: \(p.map { "\($0)" } ?? r.controllers.stdout) controllers: \(r.controllers.stderr.suffix(800))
                """)
            func passed(_ name: String) -> [String: Any]? { failed.contains(name) ? nil : step(p, name) }
            if let s = passed("scan") {
                #expect(s["address"] as? String == accessoryAddress && s["name"] as? String == "reflector-emu", "\(s)")
                #expect((s["services"] as? [String])?.contains("185B") == true, "\(s)")
            }
            if let s = passed("mtu") { #expect(s["mtu"] as? Int == 247, "\(s)") }
            if let s = passed("read_before") { #expect([0x0F, 0x05].contains(s["att_error"] as? Int ?? -1), "\(s)") }
            if let s = passed("pair") {
                #expect(s["secure_connections"] as? Bool == true && s["bonded"] as? Bool == true, "\(s)")
                #expect(s["encrypted"] as? Bool == true && s["peer_irk"] as? Bool == true && s["bond_kept_under"] as? String == accessoryAddress, "\(s)")
            }
            if let s = passed("discover") {
                #expect((s["services"] as? [String]) == ["1800", "1801", "180A", "185B"], "\(s)")
                let ras = (s["characteristics"] as? [String: Any])?["185B"] as? [String]
                #expect(ras == ["2C14", "2C15", "2C16", "2C17", "2C18", "2C19"], "\(s)")
            }
            if let s = passed("read_after") { #expect(s["value"] as? String == "01000000", "\(s)") }
            if let s = passed("subscribe") { #expect(s["characteristic"] as? String == "2C15" && s["cccd"] as? Int == 1, "\(s)") }
            if let s = passed("disconnect") { #expect(s["reason"] as? Int == 0x13, "\(s)") }
            if let s = passed("encrypt_bond") {
                #expect(s["encrypted"] as? Bool == true && s["same_ltk"] as? Bool == true, "\(s)")
                // One pairing only: the reconnection encrypted with the bond.
                #expect(p?["pairings"] as? Int == 1 && p?["pairing_starts"] as? Int == 1, "\(String(describing: p))")
            }
            if let s = passed("read_again") { #expect(s["value"] as? String == "01000000" && s["cccd_kept"] as? Int == 1, "\(s)") }
        }

        /// The accessory's side: it served until stopped, paired once, encrypted the second
        /// connection with the bond, kept the bond (the phone's key), and its summary says so.
        static func expectTheAccessoryServed(_ r: Run, bonds: String) {
            let a = r.accessory
            #expect(r.controllers.status == 0, "controllers: \(r.controllers.stderr.suffix(1500))")
            guard r.accessoryServing else {
                Issue.record("the accessory ended before the phone was done (status \(a.status)): \(a.stderr.suffix(1500))")
                return
            }
            #expect(a.status == 0 && !a.stderr.contains("refused command"), "status \(a.status): \(a.stderr)")
            #expect(a.stderr.contains("paired with \(phoneAddress) (Just Works, bonded)"), "\(a.stderr)")
            #expect(a.stderr.contains("encrypted with the bond of \(phoneAddress)"), "\(a.stderr)")
            #expect(a.stderr.components(separatedBy: "paired with").count == 2, "one pairing only: \(a.stderr)")
            let summary = a.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .compactMap { $0["summary"] as? [String: Any] }.last
            #expect(summary?["connections"] as? Int == 2 && summary?["pairings"] as? Int == 1 && summary?["bonds"] as? Int == 1, "\(a.stdout)")
            guard case .read(let file) = BondFile.load(bonds) else { Issue.record("the bond file does not read"); return }
            #expect(file.bonds.count == 1 && file.bonds.first?.peer == PairingAddress(0xF0F1_F2F3_F4F5, random: true))
            #expect(file.bonds.first?.longTermKey.map { String(format: "%02x", $0) }.joined() == step(r.phone, "pair")["ltk"] as? String)
        }

        /// The accessory on Bumble's controller as it is: it sends only what the controller
        /// lists in Read Local Supported Commands (no LE CS command, no LE Set Host Feature:
        /// Bumble lists neither), says Channel Sounding is unavailable, and serves every step.
        @Test(.disabled(if: pending, "BUMBLE_CONTROLLER_TEST_PENDING=1: the accessory exits at LE CS Set Default Settings (issue 23)"))
        func theAccessoryServesAPhoneOnBumblesControllers() throws {
            let dir = try TemporaryDirectory("bumble-controllers")
            let bonds = try Self.bondFile(dir)
            let r = try Self.run(bonds: bonds, in: dir)
            Self.expectEveryStep(r)
            Self.expectTheAccessoryServed(r, bonds: bonds)
            // It says CS is unavailable (and why), and goes on.
            let unavailable = r.accessory.stderr.split(separator: "\n").contains { line in
                let l = line.lowercased()
                return (l.contains("channel sounding") || l.contains("cs ")) && l.contains("unavailable")
            }
            #expect(unavailable, "no line saying Channel Sounding is unavailable: \(r.accessory.stderr)")
            // Whatever the controller does not list, the accessory does not send.
            let listed = Self.listedCommands(r.trace)
            let unlisted = Set(Self.commandsSent(r.trace).filter { $0 != 0x1002 && !Self.isListed($0, listed) })
            #expect(unlisted.isEmpty, "sent but not listed: \(unlisted.sorted().map { String(format: "0x%04X", $0) })")
        }

        /// The diagnostic: the controller accepts LE CS Set Default Settings (as Bumble does
        /// not): everything else the accessory does on Bumble's controller (advertising, SMP,
        /// bonds, GATT, RAS's permissions, CCCDs kept) passes every step.
        /// The phone in the controllers' process, and in its own on a second pty.
        @Test(arguments: [false, true])
        func pastCSDefaultSettingsEveryStepPassesOnBumblesControllers(phoneOnPty: Bool) throws {
            let dir = try TemporaryDirectory("bumble-controllers")
            let bonds = try Self.bondFile(dir)
            let r = try Self.run(bonds: bonds, in: dir, controllers: ["--accept-command", "0x208D"], phoneOnPty: phoneOnPty)
            Self.expectEveryStep(r)
            Self.expectTheAccessoryServed(r, bonds: bonds)
        }

        /// The Supported_Commands octets the controller answered Read Local Supported Commands with.
        static func listedCommands(_ trace: String) -> [UInt8]? {
            for line in trace.split(separator: "\n") {
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["dir"] as? String == "ctrl>host",
                      o["controller"] as? Int == 0, let hex = o["hex"] as? String, hex.hasPrefix("040e44"), hex.dropFirst(8).hasPrefix("0210")
                else { continue }
                let bytes = Array(hex.utf8)
                let octets = stride(from: 14, to: min(bytes.count, 14 + 128), by: 2).compactMap { UInt8(String(decoding: bytes[$0..<$0 + 2], as: UTF8.self), radix: 16) }
                return octets.count == 64 ? octets : nil
            }
            return nil
        }

        /// Whether `opcode` is listed in `octets` (Core 6.0 Vol 4 Part E §6.27), for the commands the accessory sends.
        static func isListed(_ opcode: UInt16, _ octets: [UInt8]?) -> Bool {
            // Octet and bit of each command (as Bumble's HCI_SUPPORTED_COMMANDS_MASKS has them); a command not here counts as unlisted.
            let bits: [UInt16: (Int, Int)] = [
                0x0406: (0, 5), 0x0C01: (5, 6), 0x0C03: (5, 7), 0x0C63: (22, 2), 0x1001: (14, 3), 0x1003: (14, 5), 0x1005: (14, 7),
                0x1009: (15, 1), 0x2001: (25, 0), 0x2002: (25, 1), 0x2003: (25, 2), 0x2005: (25, 4), 0x2006: (25, 5), 0x2008: (25, 7),
                0x2009: (26, 0), 0x200A: (26, 1), 0x200B: (26, 2), 0x200C: (26, 3), 0x200D: (26, 4), 0x2013: (27, 2), 0x2016: (27, 5),
                0x2019: (28, 0), 0x201A: (28, 1), 0x201B: (28, 2), 0x2022: (33, 6), 0x2023: (33, 7), 0x2024: (34, 0), 0x202F: (35, 3),
                0x2031: (35, 5), 0x2060: (41, 5), 0x2074: (44, 1), 0x2089: (20, 5), 0x208A: (20, 6), 0x208B: (20, 7), 0x208C: (24, 1),
                0x208D: (24, 7), 0x208E: (12, 2), 0x208F: (12, 3), 0x2090: (16, 6), 0x2091: (16, 7), 0x2092: (29, 0), 0x2093: (29, 1),
                0x2094: (29, 2), 0x20A5: (49, 2), 0x2036: (36, 2), 0x2037: (36, 3), 0x2038: (36, 4), 0x2039: (36, 5), 0x203B: (36, 7),
                0x2041: (37, 5), 0x2042: (37, 6), 0x2043: (37, 7),
            ]
            guard let octets, let (octet, bit) = bits[opcode], octet < octets.count else { return false }
            return octets[octet] & (1 << UInt8(bit)) != 0
        }
    }
}
