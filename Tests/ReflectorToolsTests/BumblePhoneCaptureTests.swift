import Foundation
@testable import ReflectorTools
import TestSupport
import Testing

/// A capture written by a host nobody here wrote: Bumble's phone (`bumble_phone.py`, its
/// btsnoop writer on) ranges this project's accessory over two served boards without inline
/// PCT, real time and on demand. The phone's capture alone gives exactly the distances it gives
/// with the accessory's own capture (`accessory --btsnoop`), and Wireshark's pcapng of it the same.
extension BoardBenchTests {
    @Suite struct BumblePhoneCaptureTests {
        @Test(arguments: [false, true])
        func bumblesPhoneCaptureAloneGivesTheDistances(onDemand: Bool) throws {
            let dir = try TemporaryDirectory("bumble-capture")
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let phoneCapture = dir.file("phone.btsnoop"), accessoryCapture = dir.file("accessory.btsnoop")
            let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_phone.py").path
            let (r, a) = try AccessoryCommandTests.withAccessory(
                served: ["--distance", "2.5", "--channel", "free", "--caps-layout", "bumble"],
                accessory: ["--once", "--btsnoop", accessoryCapture] + (onDemand ? ["--ras-on-demand"] : []), bonds: bonds) { link in
                try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["BUMBLE_PHONE_SNOOP=\(phoneCapture)", "python3", script, link, AccessoryCommandTests.address, "3", "no-ipt"], timeout: 60)
            }
            let phone = try #require(AccessoryCommandTests.lastJSON(r.stdout), "phone: \(r.stdout) \(r.stderr.suffix(1500))")
            #expect(phone["ras_mode"] as? String == (onDemand ? "on-demand" : "real-time"))
            #expect(a != nil)
            let alone = try EstimateCommand.run([phoneCapture, "--json"])
            let both = try EstimateCommand.run([phoneCapture, "--reflector", accessoryCapture, "--json"])
            let aloneObjects = try EstimateCommandTests.jsonLines(alone.output)
            let bothObjects = try EstimateCommandTests.jsonLines(both.output)
            let distances = aloneObjects.compactMap { $0["distance_m"] as? Double }
            #expect(distances.count >= 3, "\(alone.output) \(alone.message ?? "")")
            #expect(distances == bothObjects.compactMap { $0["distance_m"] as? Double }, "\(alone.output)\n\(both.output)")
            #expect(distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(alone.output)")
            #expect(aloneObjects.allSatisfy { $0["source"] as? String == (onDemand ? "ras-on-demand" : "ras-real-time") }, "\(alone.output)")
            #expect(bothObjects.allSatisfy { $0["source"] as? String == "reflector-capture" })
            // Bumble connected in the capture: each procedure names its peer.
            #expect(aloneObjects.allSatisfy { $0["peer_address"] as? String == "\(AccessoryCommandTests.address) (random)" }, "\(alone.output)")
            // Wireshark's pcapng of Bumble's capture reads the same.
            let pcapng = dir.file("phone.pcapng")
            let e = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/editcap"), ["-F", "pcapng", phoneCapture, pcapng], timeout: 60)
            try #require(e.status == 0, "\(e.stderr)")
            #expect(try EstimateCommand.run([pcapng, "--json"]).output == alone.output)
        }
    }
}
