import Foundation
@testable import ReflectorTools
@testable import ToolJSON
import TestSupport
import Testing

/// `serve --faults` on two boards with this project's accessory on A and `range` on B, as real
/// boards on a USB UART misbehave: A's controller resets itself (Hardware Error), an octet to
/// B's host is garbled (its H4 framer loses sync), an octet from A's host is lost (A loses sync,
/// sends Hardware Error and waits for Reset). Each host sets its board up again; the phone finds
/// the accessory again and encrypts with the bond it made (one pairing in the whole run), and
/// ranging resumes within 5 s of each fault (the phone's 2 s supervision timeout is most of it:
/// a board that has reset cannot tell the other side; only the link's silence does).
extension BoardBenchTests {
    @Suite struct FaultRecoveryOverPtyTests {
        @Test func bothHostsRecoverFromEachFaultKind() throws {
            let dir = try TemporaryDirectory("faults")
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let served = ["--distance", "2.5", "--channel", "free", "--faults", "reset:A@3,garble-out:B@9,drop-in:A@15"]
            let (r, accessory) = try AccessoryCommandTests.withAccessory(served: served, accessory: ["--json"], bonds: bonds, stopsBoards: true) { link in
                try ToolProcess.run(["range", "--pty", link, "--procedures", "90", "--json", "--truth", "2.5"], timeout: 90)
            }
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let rows = AccessoryCommandTests.procedures(r.stdout)
            let times = rows.compactMap { $0["time_s"] as? Double }
            #expect(times.count == 90, "\(r.stderr)")
            // Three outages (one per fault), each under 5 s from the last procedure before it to the first after it.
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(gaps.filter { $0 > 1.5 }.count == 3 && gaps.allSatisfy { $0 < 5 }, "\(gaps.filter { $0 > 1 })")
            #expect(rows.compactMap { $0["distance_m"] as? Double }.allSatisfy { abs($0 - 2.5) < 0.1 })
            // The phone: one pairing, then its bond at each reconnection; its own board started over once.
            #expect(r.stderr.components(separatedBy: "range: paired (").count - 1 == 1, "\(r.stderr)")
            #expect(r.stderr.components(separatedBy: "(no new pairing)").count - 1 >= 3, "\(r.stderr)")
            #expect(r.stderr.contains("range: octets were lost or garbled on the line (H4 lost sync): setting the board up again"), "\(r.stderr)")
            // The same, as the record a script counts (scripts/soak).
            #expect(AccessoryCommandTests.records(r.stdout).filter { $0["board_restarted"] != nil }.count == 1, "\(r.stdout)")
            #expect(FaultRecoveryOverPtyTests.unnamedGaps(rows, r.stderr).isEmpty, "\(FaultRecoveryOverPtyTests.unnamedGaps(rows, r.stderr)) \(r.stderr)")
            // The accessory: its controller's reset and its loss of sync, each met by setting the board up again.
            let a = try #require(accessory)
            #expect(a.stderr.contains("accessory: the board reported a hardware error (code 0x5a): setting the board up again (bonds kept)"), "\(a.stderr)")
            #expect(a.stderr.contains("accessory: the board reported a hardware error (code 0x1): setting the board up again (bonds kept)"), "\(a.stderr)")
            #expect(a.stderr.components(separatedBy: "accessory: paired with").count - 1 == 1, "\(a.stderr)")
            #expect(AccessoryCommandTests.records(a.stdout).filter { $0["board_restarted"] != nil }.count >= 2, "\(a.stdout)")
        }

        /// The other half of the matrix: the phone's board resets, the accessory's host reads a
        /// garbled octet, and each board's controller reads one (it loses sync, reports Hardware
        /// Error and waits for Reset), then each board goes silent for 2 s. Every fault is met by
        /// the host on that board once, the link found again with the bond. A silent phone board
        /// is a 2 s gap; a silent accessory board none (its controller goes on reflecting).
        @Test func bothHostsRecoverFromTheOtherFaults() throws {
            let dir = try TemporaryDirectory("faults2")
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let served = ["--distance", "2.5", "--channel", "free", "--faults", "reset:B@3,garble-out:A@9,garble-in:A@15,garble-in:B@21,silent+2:B@27,silent+2:A@33"]
            let (r, accessory) = try AccessoryCommandTests.withAccessory(served: served, accessory: [], bonds: bonds, stopsBoards: true) { link in
                try ToolProcess.run(["range", "--pty", link, "--procedures", "170", "--json", "--truth", "2.5"], timeout: 150)
            }
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let rows = AccessoryCommandTests.procedures(r.stdout)
            let times = rows.compactMap { $0["time_s"] as? Double }
            #expect(times.count == 170, "\(r.stderr)")
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(gaps.filter { $0 > 1.5 }.count == 5 && gaps.allSatisfy { $0 < 5 }, "\(gaps.filter { $0 > 1 }) \(r.stderr) \(accessory?.stderr ?? "")")
            #expect(rows.compactMap { $0["distance_m"] as? Double }.allSatisfy { abs($0 - 2.5) < 0.1 })
            #expect(r.stderr.components(separatedBy: "range: paired (").count - 1 == 1, "\(r.stderr)")
            #expect(r.stderr.components(separatedBy: "(no new pairing)").count - 1 >= 4, "\(r.stderr)")
            #expect(FaultRecoveryOverPtyTests.unnamedGaps(rows, r.stderr).isEmpty, "\(FaultRecoveryOverPtyTests.unnamedGaps(rows, r.stderr)) \(r.stderr)")
            // B's own faults: its controller reset (0x5a) and lost sync on a garbled command (0x1).
            #expect(r.stderr.contains("range: the board reported a hardware error (code 0x5a): setting the board up again"), "\(r.stderr)")
            #expect(r.stderr.contains("range: the board reported a hardware error (code 0x1): setting the board up again"), "\(r.stderr)")
            let a = try #require(accessory)
            #expect(a.stderr.components(separatedBy: "accessory: octets were lost or garbled on the line (H4 lost sync): setting the board up again (bonds kept)")
                .count - 1 == 1, "\(a.stderr)")
            #expect(a.stderr.contains("accessory: the board reported a hardware error (code 0x1): setting the board up again (bonds kept)"), "\(a.stderr)")
            #expect(a.stderr.components(separatedBy: "accessory: paired with").count - 1 == 1, "\(a.stderr)")
            // While its board was silent the accessory heard none of the reflector's procedures: named.
            #expect(a.stderr.contains("the board reported nothing (lost on the line, or the board went silent): not reported"), "\(a.stderr)")
        }

        /// Each port goes away for 2 s and comes back at its path, the board behind it started
        /// afresh (a USB CDC board that resets): with --reconnect-port both hosts wait for it,
        /// open it again, set the board up, and range again with the bond.
        @Test func bothHostsWaitForAVanishedPort() throws {
            let dir = try TemporaryDirectory("reopen")
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let served = ["--distance", "2.5", "--channel", "free", "--faults", "reopen+2:A@3,reopen+2:B@13"]
            let (r, accessory) = try AccessoryCommandTests.withAccessory(served: served, accessory: ["--reconnect-port", "10"], bonds: bonds,
                                                                         stopsBoards: true) { link in
                try ToolProcess.run(["range", "--pty", link, "--procedures", "60", "--json", "--reconnect-port", "10"], timeout: 90)
            }
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let times = AccessoryCommandTests.procedures(r.stdout).compactMap { $0["time_s"] as? Double }
            #expect(times.count == 60, "\(r.stderr)")
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            // The port's 2 s away, then the board set up and the link found again: within 5 s of its return.
            #expect(gaps.filter { $0 > 1.5 }.count == 2 && gaps.allSatisfy { $0 < 7 }, "\(gaps.filter { $0 > 1 })")
            #expect(r.stderr.contains("waiting up to 10 s for it to come back") && r.stderr.contains("the port is back"), "\(r.stderr)")
            #expect(r.stderr.contains("range: the port went away and came back: setting the board up again"), "\(r.stderr)")
            #expect(r.stderr.components(separatedBy: "range: paired (").count - 1 == 1, "\(r.stderr)")
            let a = try #require(accessory)
            #expect(a.stderr.contains("accessory: the port went away and came back: setting the board up again (bonds kept)"), "\(a.stderr)")
            #expect(a.stderr.components(separatedBy: "accessory: paired with").count - 1 == 1, "\(a.stderr)")
        }

        /// The phone's board goes silent for 12 s in the middle of ranging, when the host has no
        /// command outstanding to time out: after 10 s without results `range` sets the board
        /// up again (its Reset, still unanswered, is sent again), instead of ending the run as
        /// it did before the 60-minute soak found a board that stopped reporting; ranging
        /// resumes with the bond and every skipped procedure is named.
        @Test func rangeSetsTheBoardUpAgainWhenResultsStop() throws {
            let dir = try TemporaryDirectory("results-stop")
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let served = ["--distance", "2.5", "--channel", "free", "--faults", "silent+12:B@3"]
            let (r, _) = try AccessoryCommandTests.withAccessory(served: served, accessory: [], bonds: bonds, stopsBoards: true) { link in
                try ToolProcess.run(["range", "--pty", link, "--procedures", "40", "--json", "--truth", "2.5"], timeout: 90)
            }
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let rows = AccessoryCommandTests.procedures(r.stdout)
            #expect(rows.compactMap { $0["time_s"] as? Double }.count == 40, "\(r.stderr)")
            #expect(r.stderr.contains("range: procedures were enabled but the board reported no results for 10 s: setting the board up again"),
                    "\(r.stderr)")
            #expect(r.stderr.components(separatedBy: "range: paired (").count - 1 == 1, "\(r.stderr)")
            #expect(FaultRecoveryOverPtyTests.unnamedGaps(rows, r.stderr).isEmpty, "\(FaultRecoveryOverPtyTests.unnamedGaps(rows, r.stderr)) \(r.stderr)")
        }

        /// The procedure counters a link's rows skip that stderr does not name as lost (after a
        /// new link the counter starts again, so only skips within a link count).
        static func unnamedGaps(_ rows: [[String: Any]], _ stderr: String) -> [Int] {
            let counters = rows.compactMap { $0["procedure_counter"] as? Int }
            var named = Set<Int>()
            for line in stderr.split(separator: "\n") {
                let words = line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ":'s")) }
                for (i, w) in words.enumerated() where w == "procedure" || w == "procedures" {
                    guard i + 1 < words.count, let first = Int(words[i + 1]) else { continue }
                    let last = i + 3 < words.count && words[i + 2] == "to" ? Int(words[i + 3]) ?? first : first
                    named.formUnion(first...max(first, last))
                }
            }
            var unnamed: [Int] = []
            for (a, b) in zip(counters, counters.dropFirst()) where b > a + 1 {
                unnamed += (a + 1..<b).filter { !named.contains($0) }
            }
            return unnamed
        }

        @Test func faultSpecsReadAndRefuse() throws {
            #expect(try LineFault.schedule("reopen+2:B@1", boards: 2) == [LineFault(kind: .reopen(seconds: 2), board: 1, at: 1, every: nil)])
            let s = try LineFault.schedule("reset@5,garble-out:B@8/30,silent+2.5@12,drop-in@0", boards: 2)
            #expect(s == [LineFault(kind: .reset, board: 0, at: 5, every: nil), LineFault(kind: .garble(toBoard: false), board: 1, at: 8, every: 30),
                          LineFault(kind: .silent(seconds: 2.5), board: 0, at: 12, every: nil), LineFault(kind: .drop(toBoard: true), board: 0, at: 0, every: nil)])
            #expect(s.map(\.name) == ["reset", "garble-out", "silent+2.5", "drop-in"])
            for bad in ["reset", "reset@-1", "reset@1e3", "boom@1", "reset:C@1", "reset@1/0.05", "silent+0@1", "reset@inf", ""] {
                #expect(throws: ToolError.self) { _ = try LineFault.schedule(bad, boards: 2) }
            }
            #expect(throws: ToolError.self) { _ = try LineFault.schedule("reset:B@1", boards: 1) }
            var clock = LineFaultClock(s)
            #expect(clock.due(at: 1).map(\.name) == ["drop-in"])
            #expect(clock.due(at: 8).map(\.name) == ["reset", "garble-out"])
            #expect(clock.due(at: 30).map(\.name) == ["silent+2.5"])
            #expect(clock.due(at: 38).map(\.name) == ["garble-out"] && clock.due(at: 40).isEmpty)
        }
    }
}
