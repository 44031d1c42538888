import ReflectorFirmware

/// Reassembles a connection's L2CAP frames from the ACL packets the controller delivers (Core
/// 6.0 Vol 3 Part A §7.2; Vol 4 Part E §5.4.2): a start fragment (Packet_Boundary_Flag 0b10, or
/// 0b00) begins a frame with its basic header, continuation fragments (0b01) add to it, and the
/// frame is whole when Length octets of payload have come. Pure: packets in, frames out.
///
/// What a controller or a peer may get wrong is dropped and reported, never trapped on: a
/// continuation with no frame begun, a start while a frame is incomplete (the incomplete one is
/// dropped), more octets than the header declared, a frame longer than `maximumPayload`; a
/// packet with the reserved boundary flag 0b11 is dropped alone (the frame in progress stays).
public struct L2CAPReassembler: FragmentReassembler, Sendable {
    /// One ACL packet's part that reassembly reads: its Packet_Boundary_Flag and its data.
    public struct Fragment: Equatable, Sendable {
        public var boundary: UInt8
        public var data: [UInt8]

        public init(boundary: UInt8, _ data: some Collection<UInt8>) {
            self.boundary = boundary
            self.data = Array(data)
        }
    }

    public enum Outcome: Equatable, Sendable {
        case frame(L2CAPFrame)
        /// The fragment was taken; the frame needs more.
        case incomplete
        /// The fragment (and any frame in progress) was dropped.
        case dropped(L2CAPReassemblyError)
    }

    /// The largest payload accepted (the receiver's MTU: ATT's 517 plus room, by default).
    public let maximumPayload: Int
    private var buffer: [UInt8] = []
    private var inFrame = false

    public init(maximumPayload: Int = 1024) {
        self.maximumPayload = maximumPayload
    }

    /// Whether a frame has begun and is not whole yet.
    public var isInsideFrame: Bool { inFrame }

    /// The octets of the frame in progress (its basic header included), nil when none has begun.
    public var progress: Int? { inFrame ? buffer.count : nil }

    /// Frames lost because a start fragment came before they were whole (`add` reports each one
    /// as `.dropped(.startInterruptedFrame)`; `reassemble` counts them here).
    public private(set) var interruptedFrames = 0

    /// `add` as a `FragmentReassembler`: the frame this fragment completes, nil when it needs
    /// more, and the error when the fragment (with any frame in progress) is dropped. A frame a
    /// start interrupts is counted in `interruptedFrames`.
    public mutating func reassemble(_ fragment: Fragment) throws(L2CAPReassemblyError) -> L2CAPFrame? {
        for outcome in add(boundary: fragment.boundary, fragment.data) {
            switch outcome {
            case .frame(let frame): return frame
            case .incomplete: return nil
            case .dropped(.startInterruptedFrame): interruptedFrames += 1
            case .dropped(let error): throw error
            }
        }
        return nil
    }

    /// One ACL packet's boundary flag and data: what became of it (a start that interrupts an
    /// incomplete frame reports that frame dropped, then its own outcome).
    public mutating func add(boundary: UInt8, _ data: some Collection<UInt8>) -> [Outcome] {
        switch boundary & 0b11 {
        case 0b01:
            guard inFrame else { return [.dropped(.continuationWithoutStart(octets: data.count))] }
            buffer += data
            return [check()]
        case 0b00, 0b10:
            let interrupted: [Outcome] = inFrame ? [.dropped(.startInterruptedFrame(droppedOctets: buffer.count))] : []
            buffer = Array(data)
            inFrame = true
            return interrupted + [check()]
        default:
            return [.dropped(.invalidBoundary)]
        }
    }

    /// Whether the buffer holds a whole frame, too much, or not yet enough.
    private mutating func check() -> Outcome {
        guard buffer.count >= 2 else { return .incomplete }
        let declared = Int(buffer[0]) | Int(buffer[1]) << 8
        guard declared <= maximumPayload else { return drop(.tooLong(declared: declared, maximum: maximumPayload)) }
        let whole = L2CAPFrame.headerSize + declared
        if buffer.count < whole { return .incomplete }
        guard buffer.count == whole else { return drop(.overrun(declared: declared, received: buffer.count - L2CAPFrame.headerSize)) }
        let frame = L2CAPFrame(channel: UInt16(buffer[2]) | UInt16(buffer[3]) << 8, payload: Array(buffer[L2CAPFrame.headerSize...]))
        buffer.removeAll(keepingCapacity: true)
        inFrame = false
        return .frame(frame)
    }

    private mutating func drop(_ e: L2CAPReassemblyError) -> Outcome {
        buffer.removeAll(keepingCapacity: true)
        inFrame = false
        return .dropped(e)
    }

    /// Forgets a frame in progress (the link went down).
    public mutating func reset() {
        buffer.removeAll()
        inFrame = false
    }
}

/// Why ACL fragments were dropped.
public enum L2CAPReassemblyError: Error, Equatable, Sendable {
    case continuationWithoutStart(octets: Int)
    /// A start fragment came while a frame was incomplete: that frame is lost.
    case startInterruptedFrame(droppedOctets: Int)
    /// The basic header declares more payload than the receiver takes.
    case tooLong(declared: Int, maximum: Int)
    /// More octets arrived than the basic header declared.
    case overrun(declared: Int, received: Int)
    /// Packet_Boundary_Flag 0b11 is reserved.
    case invalidBoundary
}
