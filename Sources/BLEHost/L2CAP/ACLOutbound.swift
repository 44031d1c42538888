import ReflectorFirmware

/// The host's side of the controller's ACL buffers (Core 6.0 Vol 4 Part E §4.1.1, §7.7.19):
/// frames go out in fragments of at most the controller's buffer length (the first with
/// Packet_Boundary_Flag 0b00, first non-automatically-flushable, as LE requires; the rest
/// 0b01), each fragment takes one of the controller's buffers, and Number Of Completed Packets
/// gives them back. Fragments wait here while no buffer is free. Pure: frames and completions
/// in, packets to send out.
public struct ACLOutbound: Sendable {
    public let connectionHandle: UInt16
    /// The controller's ACL buffer length and count (LE Read Buffer Size, or Read Buffer Size
    /// when the LE one reports 0).
    public let bufferLength: Int
    public let bufferCount: Int
    public private(set) var inFlight = 0
    private var waiting: [HCIPacket] = []
    private var waitingIndex = 0

    public init(connectionHandle: UInt16, bufferLength: Int, bufferCount: Int) {
        self.connectionHandle = connectionHandle & 0x0FFF
        self.bufferLength = max(1, bufferLength)
        self.bufferCount = max(1, bufferCount)
    }

    /// Fragments waiting for a free buffer.
    public var queued: Int { waiting.count - waitingIndex }

    /// Queues a frame's fragments; returns false (and queues nothing) for a payload too long to frame.
    @discardableResult
    public mutating func enqueue(_ frame: L2CAPFrame) -> Bool {
        guard let bytes = frame.encode() else { return false }
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + bufferLength)
            // A chunk of at most bufferLength (≤ 65,535) octets always fits an ACL packet.
            if let packet = try? HCIPacket.acl(handle: connectionHandle, packetBoundary: offset == 0 ? 0b00 : 0b01, data: Array(bytes[offset..<end])) {
                waiting.append(packet)
            }
            offset = end
        }
        return true
    }

    /// The fragments that may go now, one per free buffer, in order.
    public mutating func sendable() -> [HCIPacket] {
        var out: [HCIPacket] = []
        while inFlight < bufferCount, waitingIndex < waiting.count {
            out.append(waiting[waitingIndex])
            waitingIndex += 1
            inFlight += 1
        }
        if waitingIndex == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingIndex = 0
        }
        return out
    }

    /// Number Of Completed Packets for this connection: `count` buffers are free again (a
    /// controller that reports more than were sent is believed only up to what was sent).
    public mutating func completed(_ count: Int) {
        inFlight = max(0, inFlight - max(0, count))
    }

    /// The link went down: nothing waits, every buffer is the controller's again.
    public mutating func reset() {
        waiting.removeAll()
        waitingIndex = 0
        inFlight = 0
    }
}
