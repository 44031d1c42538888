import WireFormat

/// One step of a subevent result as HCI reports it (Core 6.0 Vol 4 Part E §7.7.65.44):
/// `Step_Mode 1 | Step_Channel 1 | Step_Data_Length 1 | Step_Data`. The decoder requires
/// Step_Data_Length to equal the length the mode and `StepDataContext` imply.
public struct SubeventStep: Sendable, Equatable {
    /// CS channel index 0...78.
    public var channel: UInt8
    public var data: StepData

    public init(channel: UInt8, data: StepData) {
        (self.channel, self.data) = (channel, data)
    }

    public var mode: CSMode { data.mode }

    /// 3 + the step data length.
    public var encodedLength: Int { 3 + data.encodedLength }

    public func encode(into w: inout ByteWriter) {
        w.u8(mode.rawValue)
        w.u8(channel)
        w.u8(UInt8(truncatingIfNeeded: data.encodedLength))
        data.encode(into: &w)
    }

    public static func decode(context: StepDataContext, from r: inout ByteReader) throws(DecodeError) -> SubeventStep {
        let mode = try r.value("Step_Mode", as: CSMode.self)
        let channel = try r.u8("Step_Channel")
        guard channel <= 78 else { throw .invalidValue(field: "Step_Channel", value: Int(channel)) }
        let length = Int(try r.u8("Step_Data_Length"))
        guard let expected = context.stepDataLength(mode) else {
            throw .invalidValue(field: "Num_Antenna_Paths", value: context.antennaPaths)
        }
        guard length == expected else { throw .invalidValue(field: "Step_Data_Length", value: length) }
        var sub = ByteReader(try r.octets(length, "Step_Data"))
        let data = try StepData.decode(mode: mode, context: context, from: &sub)
        return SubeventStep(channel: channel, data: data)
    }
}
