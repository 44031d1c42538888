import ReflectorFirmware

/// One procedure's ranging data as a phone's capture of a Ranging Service session holds it
/// (RAS 1.0 §3.2: the reflector's step data, segmented over a ranging-data characteristic),
/// with what happened to its segments.
public struct RASProcedure: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable {
        /// Real-time Ranging Data (0x2C15): segments notified as the procedure runs.
        case realTime = "real-time"
        /// On-demand Ranging Data (0x2C16): segments sent after the client's Get Ranging Data.
        case onDemand = "on-demand"
    }

    public var adapter: UInt16
    public var connection: UInt16
    /// Ranging_Counter: the low 12 bits of the procedure counter.
    public var rangingCounter: UInt16
    public var configID: UInt8
    public var mode: Mode
    /// Whether the characteristics were inferred from the segmentation and ranging headers
    /// (no discovery in the capture) rather than read from the captured discovery.
    public var inferred: Bool
    /// The decoded ranging data; nil when segments were lost or the body did not decode.
    public var data: RangingData?
    /// Segments received (repeats included), positions never received, positions received twice.
    public var segments: Int
    public var missing: [Int]
    public var repeated: Int
    /// The server said the procedure's data was overwritten (Ranging Data Overwritten, 0x2C19).
    public var overwritten: Bool
    /// Why `data` is nil, in words; nil when it is there.
    public var problem: String?
    /// File offset of the packet that completed (or last touched) the procedure's data.
    public var offset: Int

    /// `RAS real-time, 12 segments (1 lost, 2 sent again)` and the like, for reports.
    public var summary: String {
        var s = "RAS \(mode.rawValue)\(inferred ? " (characteristic inferred from the ranging headers: no discovery in the capture)" : ""), \(segments) segment\(segments == 1 ? "" : "s")"
        var notes: [String] = []
        if !missing.isEmpty { notes.append("\(missing.count) lost") }
        if repeated > 0 { notes.append("\(repeated) sent again") }
        if overwritten { notes.append("overwritten") }
        if !notes.isEmpty { s += " (" + notes.joined(separator: ", ") + ")" }
        return s
    }

    /// The reflector's steps in the order they ran (aborted steps as nil), for pairing by position.
    public var steps: [RangingStep] { data?.subevents.flatMap(\.steps) ?? [] }
}
