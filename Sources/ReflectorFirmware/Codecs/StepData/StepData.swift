import WireFormat

/// The Step_Data of one CS step, by mode, exactly as LE CS Subevent Result (Continue) and the
/// RAS ranging data carry it (Core 6.0 Vol 4 Part E §7.7.65.44). Mode 3 is the mode-1 fields
/// followed by the mode-2 fields. Value type with fixed-size storage.
public enum StepData: Sendable, Equatable {
    case mode0(Mode0StepData)
    case mode1(Mode1StepData)
    case mode2(ToneStepData)
    case mode3(Mode1StepData, ToneStepData)

    public var mode: CSMode {
        switch self {
        case .mode0: return .mode0
        case .mode1: return .mode1
        case .mode2: return .mode2
        case .mode3: return .mode3
        }
    }

    public var encodedLength: Int {
        switch self {
        case let .mode0(d): return d.encodedLength
        case let .mode1(d): return d.encodedLength
        case let .mode2(t): return t.encodedLength
        case let .mode3(d, t): return d.encodedLength + t.encodedLength
        }
    }

    public func encode(into w: inout ByteWriter) {
        switch self {
        case let .mode0(d): d.encode(into: &w)
        case let .mode1(d): d.encode(into: &w)
        case let .mode2(t): t.encode(into: &w)
        case let .mode3(d, t):
            d.encode(into: &w)
            t.encode(into: &w)
        }
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: encodedLength)
        encode(into: &w)
        return w.bytes
    }

    /// Reads the step data of a `mode` step from `r`, its length implied by `context`.
    public static func decode(mode: CSMode, context: StepDataContext, from r: inout ByteReader) throws(DecodeError) -> StepData {
        switch mode {
        case .mode0:
            return .mode0(try Mode0StepData.decode(role: context.role, from: &r))
        case .mode1:
            return .mode1(try Mode1StepData.decode(sequencePCT: context.sequencePCT, from: &r))
        case .mode2, .mode3:
            guard (1...4).contains(context.antennaPaths) else {
                throw .invalidValue(field: "Num_Antenna_Paths", value: context.antennaPaths)
            }
            if mode == .mode2 { return .mode2(try ToneStepData.decode(antennaPaths: context.antennaPaths, from: &r)) }
            let rtt = try Mode1StepData.decode(sequencePCT: context.sequencePCT, from: &r)
            return .mode3(rtt, try ToneStepData.decode(antennaPaths: context.antennaPaths, from: &r))
        }
    }

    /// Decodes exactly the octets of one step's data (`.trailingBytes` if any are left).
    public static func decode(mode: CSMode, context: StepDataContext, _ bytes: some Collection<UInt8>) throws(DecodeError) -> StepData {
        var r = ByteReader(bytes)
        let d = try decode(mode: mode, context: context, from: &r)
        try r.expectEnd()
        return d
    }
}
