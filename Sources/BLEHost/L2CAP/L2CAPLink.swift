import ReflectorFirmware

/// L2CAP on one LE connection, as a host runs it over HCI (Core 6.0 Vol 3 Part A): ACL packets
/// from the controller become frames per fixed channel (`L2CAPReassembler`), frames to send
/// become ACL packets within the controller's buffers (`ACLOutbound`). Pure: ACL packets and
/// Number Of Completed Packets in, frames and ACL packets out.
public struct L2CAPLink: Sendable {
    public private(set) var reassembler: L2CAPReassembler
    public private(set) var outbound: ACLOutbound
    /// What reassembly dropped, for logs (cleared by `takeDrops`).
    public private(set) var drops: [L2CAPReassemblyError] = []

    public init(connectionHandle: UInt16, bufferLength: Int, bufferCount: Int, maximumPayload: Int = 1024) {
        reassembler = L2CAPReassembler(maximumPayload: maximumPayload)
        outbound = ACLOutbound(connectionHandle: connectionHandle, bufferLength: bufferLength, bufferCount: bufferCount)
    }

    /// An ACL packet from the controller: the frames it completes (packets for other
    /// connections are not this link's and are ignored).
    public mutating func receive(_ packet: HCIPacket) -> [L2CAPFrame] {
        guard packet.indicator == .aclData, packet.aclHandle == outbound.connectionHandle, let boundary = packet.aclPacketBoundary else { return [] }
        var frames: [L2CAPFrame] = []
        for outcome in reassembler.add(boundary: boundary, packet.parameters) {
            switch outcome {
            case .frame(let f): frames.append(f)
            case .dropped(let e): drops.append(e)
            case .incomplete: break
            }
        }
        return frames
    }

    /// Queues a frame; `sendable()` gives its fragments as buffers allow.
    public mutating func send(_ frame: L2CAPFrame) { outbound.enqueue(frame) }

    /// The ACL packets that may go to the controller now.
    public mutating func sendable() -> [HCIPacket] { outbound.sendable() }

    /// An event from the controller: Number Of Completed Packets for this connection frees buffers.
    public mutating func handleEvent(_ event: HCIPacket) {
        guard event.eventCode == NumberOfCompletedPackets.eventCode, let e = try? NumberOfCompletedPackets.decode(packet: event) else { return }
        for entry in e.entries where entry.connectionHandle == outbound.connectionHandle { outbound.completed(Int(entry.completedPackets)) }
    }

    public mutating func takeDrops() -> [L2CAPReassemblyError] {
        defer { drops.removeAll() }
        return drops
    }
}
