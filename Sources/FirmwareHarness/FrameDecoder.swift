/// Splits a byte stream into harness frames, one octet at a time (a UART hands them over so).
/// The input is hostile: it never traps, never buffers more than `FrameFormat.maxPayload`
/// octets, and reports what it dropped (octets before a magic, an oversized length, a CRC
/// mismatch) as a `FrameEvent.rejected`, then hunts for the next magic.
public struct FrameDecoder: Sendable {
    private enum State: Sendable { case hunting, type, lengthLow, lengthHigh, payload, crcLow, crcHigh }

    private var state = State.hunting
    private var type: UInt8 = 0
    private var length = 0
    private var payload: [UInt8] = []
    private var crc = CRC16()
    private var receivedCRC: UInt16 = 0
    private var skipped = 0

    public init() { payload.reserveCapacity(FrameFormat.maxPayload) }

    /// Feeds one octet; returns a frame or a rejection when one is complete.
    public mutating func push(_ byte: UInt8) -> FrameEvent? {
        switch state {
        case .hunting:
            guard byte == FrameFormat.magic else {
                skipped += 1
                return nil
            }
            crc = CRC16()
            state = .type
            if skipped > 0 {
                let n = skipped
                skipped = 0
                return .rejected(.garbage, type: 0, detail: UInt16(truncatingIfNeeded: min(n, 0xFFFF)))
            }
        case .type:
            type = byte
            crc.update(byte)
            state = .lengthLow
        case .lengthLow:
            length = Int(byte)
            crc.update(byte)
            state = .lengthHigh
        case .lengthHigh:
            length |= Int(byte) << 8
            crc.update(byte)
            guard length <= FrameFormat.maxPayload else {
                state = .hunting
                return .rejected(.tooLong, type: type, detail: UInt16(truncatingIfNeeded: length))
            }
            payload.removeAll(keepingCapacity: true)
            state = length == 0 ? .crcLow : .payload
        case .payload:
            payload.append(byte)
            crc.update(byte)
            if payload.count == length { state = .crcLow }
        case .crcLow:
            receivedCRC = UInt16(byte)
            state = .crcHigh
        case .crcHigh:
            receivedCRC |= UInt16(byte) << 8
            state = .hunting
            guard receivedCRC == crc.value else { return .rejected(.badCRC, type: type, detail: receivedCRC) }
            return .frame(type: type, payload: payload)
        }
        return nil
    }
}
