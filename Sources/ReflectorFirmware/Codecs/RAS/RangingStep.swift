import WireFormat

/// One step in RAS ranging data (RAS 1.0 §3.2.1.2): `Step_Mode 1` (bits 0–1 mode, bit 7 set =
/// aborted) then the sender's HCI Step_Data, with no channel and no length octet; the receiver
/// takes the length from the mode and the sender's role and N_AP.
///
/// An aborted step carries no Step_Data here (this project's reading; the public sources do
/// not say, [U]). Bits 2–6 of Step_Mode are RFU: written 0, rejected if set on a non-aborted step.
public struct RangingStep: Sendable, Equatable {
    public var mode: CSMode
    /// `nil` for an aborted step.
    public var data: StepData?

    /// A measured step.
    public init(_ data: StepData) {
        mode = data.mode
        self.data = data
    }

    /// An aborted step of `mode`.
    public init(aborted mode: CSMode) {
        self.mode = mode
        data = nil
    }

    public var isAborted: Bool { data == nil }

    public var encodedLength: Int { 1 + (data?.encodedLength ?? 0) }

    public func encode(into w: inout ByteWriter) {
        w.u8(mode.rawValue | (data == nil ? 0x80 : 0))
        data?.encode(into: &w)
    }

    public static func decode(context: StepDataContext, from r: inout ByteReader) throws(DecodeError) -> RangingStep {
        let raw = try r.u8("Step_Mode")
        if raw & 0x80 != 0 {
            // Bits 0–6 are invalid in an aborted step; keep the mode bits as a hint.
            return RangingStep(aborted: CSMode(rawValue: raw & 0x03) ?? .mode0)
        }
        let mode = try CSMode(decoding: raw, "Step_Mode")
        return RangingStep(try StepData.decode(mode: mode, context: context, from: &r))
    }
}
