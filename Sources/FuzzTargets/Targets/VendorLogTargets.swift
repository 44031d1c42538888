import Foundation

/// The readers of real boards' step-data logs `reflector-emu estimate` takes (Captures'
/// `NCSSampleLog`, `SiliconLabsStepLog`, `SiliconLabsStepJSON` and `SiliconLabsSerialLog`,
/// chosen by content), through `CaptureCalls` only, then every estimator on what they read (a
/// Silicon Labs file holds both sides and pairs with itself).
///
/// Input: one flag octet (bits 0–2: the estimator; bit 3: the default role is the reflector),
/// then the log's text.
///
/// Checks: at most one problem (reading stops there), on a line of the file; the procedures
/// end on lines of the file, in file order, before the problem; one estimate per initiator
/// procedure.
enum VendorLogTargets {
    static let ncs = FuzzTarget("ncs-log", "nRF Connect SDK sample logs of LE CS Subevent Results to procedures and distances", seeds: ncsSeeds) { bytes in
        check(bytes, format: "ncs")
    }

    static let silabs = FuzzTarget("silabs-log", "Silicon Labs step-data dumps to procedures and distances", seeds: silabsSeeds) { bytes in
        check(bytes, format: "silabs")
    }

    static let silabsJSON = FuzzTarget("silabs-json", "Silicon Labs cs_step_data_parser JSON to procedures and distances", seeds: silabsJSONSeeds) { bytes in
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let read = CaptureCalls.readVendorLog(input.rest(), format: "silabs-json", estimator: Int(flags & 7), defaultRoleIsReflector: false)
        require(read.problemLines.count <= 1, "more than one problem")
        require(read.problemLines.allSatisfy { $0 >= 0 }, "a negative problem offset")
        require(read.procedureLines == read.procedureLines.sorted(), "procedures out of order")
        require(read.estimates == read.initiatorProcedures, "not one estimate per initiator procedure")
    }

    static let silabsSerial = FuzzTarget("silabs-serial-log", "Silicon Labs serial logs (RTL library JSON in log lines, events) to procedures and distances",
                                         seeds: silabsSerialSeeds) { bytes in
        check(bytes, format: "silabs-serial")
    }

    static func check(_ bytes: [UInt8], format: String) {
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let text = input.rest()
        let read = CaptureCalls.readVendorLog(text, format: format, estimator: Int(flags & 7), defaultRoleIsReflector: flags & 8 != 0)
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false).count
        require(read.problemLines.count <= 1, "more than one problem")
        require(read.problemLines.allSatisfy { $0 >= 1 && $0 <= lines }, "a problem outside the file's lines")
        require(read.procedureLines.allSatisfy { $0 >= 1 && $0 <= lines }, "a procedure outside the file's lines")
        require(read.procedureLines == read.procedureLines.sorted(), "procedures out of file order")
        if let p = read.problemLines.first { require(read.procedureLines.allSatisfy { $0 <= p }, "a procedure after the problem") }
        require(read.estimates == read.initiatorProcedures, "not one estimate per initiator procedure")
    }

    /// The field recordings (`data/field`): the nRF54L15 logs' first procedures.
    static func ncsSeeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for name in ["ini", "ref"] {
            for file in SeedFiles.file("data/field/nrf54l15-waves/\(name).txt") {
                let lines = file.split(separator: 0x0A, omittingEmptySubsequences: false)
                out.append([0] + Array(lines.prefix(140).joined(separator: [0x0A])))
                out.append([0x0B] + Array(lines.prefix(60).joined(separator: [0x0A])))
            }
        }
        return out
    }

    static func silabsJSONSeeds() -> [[UInt8]] {
        silabsSeeds().prefix(1).map { dump in
            [0] + CaptureCalls.siliconLabsJSON(fromDump: Array(dump.dropFirst()))
        }
    }

    /// Pieces of the RTT recording's serial log (`data/field/silabs-rtt`), by line: its header,
    /// rtl_config, procedure 0's first bt_evt_cs_result and JSON text, and the app's lines after
    /// it; that piece cut inside the JSON text; procedure 0 whole as logged (events, RAS, JSON).
    static func silabsSerialSeeds() -> [[UInt8]] {
        SeedFiles.file("data/field/silabs-rtt/example_rtt_log_first10.txt").flatMap { file -> [[UInt8]] in
            let lines = file.split(separator: 0x0A, omittingEmptySubsequences: false)
            guard lines.count > 262 else { return [] }
            func piece(_ ranges: [ClosedRange<Int>]) -> [UInt8] {
                Array(ranges.flatMap { lines[($0.lowerBound - 1)...($0.upperBound - 1)] }.joined(separator: [0x0A])) + [0x0A]
            }
            let short = piece([1...20, 146...160, 204...204, 242...262])
            return [[0] + short, [0x01] + piece([1...20, 146...160, 204...204, 242...246]), [0x02] + piece([196...262])]
        }
    }

    static func silabsSeeds() -> [[UInt8]] {
        SeedFiles.file("data/field/silabs-one-procedure/example_log_pbr.txt").flatMap { [[0] + $0, [0x04] + $0] }
    }
}
