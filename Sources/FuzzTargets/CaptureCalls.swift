import Captures
import CaptureEstimation
import ReflectorFirmware

/// Every call the capture targets make (`CaptureTarget`, `PacketCaptureTargets`,
/// `VendorLogTargets`), on the modules directly: Captures reads the file by content, and
/// CaptureEstimation gives its distances, as `reflector-emu estimate` does. Each function takes
/// the octets a user's file would hold and returns plain values; a trap is a finding.
enum CaptureCalls {
    struct CaptureReading {
        var procedureOffsets: [Int]
        var problemOffsets: [Int]
        var estimates: Int
    }

    /// Reads a btsnoop file as `reflector-emu estimate` does (CaptureProcedures, then
    /// ProcedureEstimation with one of the four estimators), optionally with a reflector capture.
    static func estimate(capture: [UInt8], reflector: [UInt8]?, estimator: Int, defaultRoleIsReflector: Bool, inlinePCT: Bool?) -> CaptureReading {
        let role: CSRole = defaultRoleIsReflector ? .reflector : .initiator
        let procedures = CaptureProcedures(bytes: capture, defaultRole: role)
        let peer = reflector.map { CaptureProcedures(bytes: $0, defaultRole: .reflector) }
        let choice = EstimatorChoice.allCases[estimator % EstimatorChoice.allCases.count]
        let estimates = ProcedureEstimation.estimates(procedures, reflector: peer, inlinePCT: inlinePCT, estimator: choice)
        return CaptureReading(procedureOffsets: procedures.procedures.map(\.offset), problemOffsets: procedures.problems.map(\.offset),
                              estimates: estimates.count)
    }

    struct AnyCaptureReading {
        var procedureOffsets: [Int]
        var estimates: Int
        /// The file held both sides (only its initiator's procedures are estimated).
        var bothSides: Bool
    }

    /// Reads any capture file as `reflector-emu estimate` does (format by content), then the default estimator.
    static func estimate(anyCapture bytes: [UInt8]) -> AnyCaptureReading {
        let procedures = CaptureReader.read(bytes: bytes, defaultRole: .initiator)
        let estimates = ProcedureEstimation.estimates(procedures, reflector: nil, inlinePCT: nil, estimator: .default)
        let roles = Set(procedures.procedures.map(\.role))
        return AnyCaptureReading(procedureOffsets: procedures.procedures.map(\.offset), estimates: estimates.count, bothSides: roles.count == 2)
    }

    struct VendorLogReading {
        var procedureLines: [Int]
        var problemLines: [Int]
        var initiatorProcedures: Int
        var estimates: Int
    }

    /// Reads a vendor's step-data log (`format` "ncs", "silabs", "silabs-json" or "silabs-serial") as `reflector-emu estimate`
    /// does, then estimates it with one of the estimators (a dump holding both sides pairs with itself).
    static func readVendorLog(_ bytes: [UInt8], format: String, estimator: Int, defaultRoleIsReflector: Bool) -> VendorLogReading {
        let role: CSRole = defaultRoleIsReflector ? .reflector : .initiator
        let procedures = switch format {
        case "ncs": VendorLogReaders.ncs(bytes, defaultRole: role)
        case "silabs-json": VendorLogReaders.siliconLabsJSON(bytes)
        case "silabs-serial": VendorLogReaders.siliconLabsSerial(bytes)
        default: VendorLogReaders.siliconLabs(bytes)
        }
        let choice = EstimatorChoice.allCases[estimator % EstimatorChoice.allCases.count]
        let estimates = ProcedureEstimation.estimates(procedures, reflector: nil, inlinePCT: nil, estimator: choice)
        let initiators = procedures.procedures.filter { $0.role == .initiator }.count
        return VendorLogReading(procedureLines: procedures.procedures.map(\.offset), problemLines: procedures.problems.map(\.offset),
                                initiatorProcedures: initiators == 0 ? procedures.procedures.count : initiators, estimates: estimates.count)
    }

    /// A Silicon Labs dump written as their parser's JSON (for seeds).
    static func siliconLabsJSON(fromDump bytes: [UInt8]) -> [UInt8] {
        Array(VendorLogReaders.siliconLabsJSON(writing: VendorLogReaders.siliconLabs(bytes)).utf8)
    }
}
