/// Why `AnchorConfiguration.validated()` refused a configuration: each case names the offending
/// value and what is allowed, so a provisioning tool can show it as is.
public enum AnchorConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 0xFFFF is the broadcast address every DTM is sent to.
    case broadcastAddress
    case slotTooShort(rstu: UInt32, minimum: UInt32)
    case tooFewSlotsPerRound(UInt8, minimum: UInt8)
    case roundTooLongForReplyTime(roundTicks: Int64, maximum: Int64)
    case blockTooLong(milliseconds: UInt32, maximum: UInt32)
    case coordinatesOutOfRange
    case noRounds
    case roundOutOfRange(round: UInt8, roundsPerBlock: Int)
    case duplicateRound(UInt8)
    case invalidPeer(round: UInt8, address: UInt16)
    case responderCount(round: UInt8, count: Int, maximum: Int)
    case slotListLength(round: UInt8, slots: Int, responders: Int)
    case slotInvalid(round: UInt8, slot: UInt8)
    case roundTooShort(round: UInt8, slotsNeeded: Int, slotsPerRound: UInt8)
    /// A bridge's parent round is not one it responds in: it would never hear the parent's Poll.
    case bridgeParentNotResponded(round: UInt8)
    case bridgeWithoutCommonTimeBase

    public var description: String {
        switch self {
        case .broadcastAddress:
            "short address 0xFFFF is the broadcast address; use 0x0000...0xFFFE"
        case let .slotTooShort(rstu, minimum):
            "slot duration \(rstu) RSTU is below the FiRa minimum of \(minimum) RSTU (1 ms)"
        case let .tooFewSlotsPerRound(n, minimum):
            "\(n) slots per round: a round needs at least \(minimum) (Poll and one Response)"
        case let .roundTooLongForReplyTime(ticks, maximum):
            "a round of \(ticks) RCTU does not fit the 4-octet reply time (at most \(maximum) RCTU, about 67 ms)"
        case let .blockTooLong(ms, maximum):
            "block duration \(ms) ms: at most \(maximum) ms"
        case .coordinatesOutOfRange:
            "coordinates out of range: relative x, y within +-134217727 mm and z within +-8388607 mm; latitude -90...90, longitude -180...180, altitude within +-255999 m"
        case .noRounds:
            "the anchor takes part in no round: give at least one initiator or responder round"
        case let .roundOutOfRange(round, perBlock):
            "round index \(round) does not fit: the block holds rounds 0..<\(perBlock) (at most 33)"
        case let .duplicateRound(round):
            "round \(round) is assigned twice: an anchor has one role per round"
        case let .invalidPeer(round, address):
            "round \(round): peer address \(address) is this anchor, the broadcast address or listed twice"
        case let .responderCount(round, count, maximum):
            "round \(round) lists \(count) responders: an initiator needs 1...\(maximum)"
        case let .slotListLength(round, slots, responders):
            "round \(round) lists \(slots) slots for \(responders) responders: give one slot per responder or none"
        case let .slotInvalid(round, slot):
            "round \(round): responder slot \(slot) is slot 0 (the Poll's) or used twice"
        case let .roundTooShort(round, needed, perRound):
            "round \(round) needs \(needed) slots but a round has \(perRound)"
        case let .bridgeParentNotResponded(round):
            "bridge to parent round \(round): the anchor does not respond in round \(round); add it as a responder there"
        case .bridgeWithoutCommonTimeBase:
            "a bridge passes on the common time base: set commonTimeBase"
        }
    }
}
