/// What `FrameDecoder` makes of the octets so far.
public enum FrameEvent: Sendable, Equatable {
    case frame(type: UInt8, payload: [UInt8])
    case rejected(HarnessError, type: UInt8, detail: UInt16)
}
