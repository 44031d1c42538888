/// Everything a DT-Anchor needs to take part in a DL-TDoA network (the UCI app-config of a
/// DL-TDoA anchor session: SESSION_ID, DEVICE_MAC_ADDRESS, CHANNEL_NUMBER, DL_TDOA_RANGING_METHOD,
/// DL_TDOA_ANCHOR_LOCATION, SLOT_DURATION, RANGING_DURATION and the DT-anchor round config).
/// Defaults follow NXP's `demo_dltdoa_initiator.c`: 1 ms slots (1200 RSTU), 10 slots per round,
/// 200 ms blocks, DS-TWR.
public struct AnchorConfiguration: Equatable, Sendable {
    /// The network identifier: the value an iPhone puts in `NIDLTDOAConfiguration(networkIdentifier:)`.
    public var sessionID: UInt32
    /// This anchor's 16-bit MAC address (the DTM source address).
    public var shortAddress: UInt16
    public var channel: UWBChannel
    public var coordinates: AnchorCoordinates
    public var rangingMethod: RangingMethod
    /// This anchor's role in each round it takes part in.
    public var rounds: [RoundAssignment]
    /// Slot length in RSTU (416 chips = 833.33 ns); FiRa's minimum and default is 1200 = 1 ms
    /// (Qorvo `FIRA_MIN_SLOT_DURATION_RSTU`).
    public var slotDurationRSTU: UInt32
    /// Slots in one ranging round (NXP `SLOTS_PER_RR 10`).
    public var slotsPerRound: UInt8
    /// Length of a ranging block (NXP `RANGING_DURATION 200` ms).
    public var blockDurationMilliseconds: UInt32
    /// TX antenna delay in RCTU: the time from the digital RMARKER to the antenna (Decawave
    /// examples use 16 385–16 436).
    public var txAntennaDelayTicks: UInt32
    /// TX timestamps in the common time base of the round's initiator (message control bit 13):
    /// a responder converts its Response's TX time into the initiator's timeline, so a receiver
    /// gets arrival-time differences from TX and RX timestamps alone, which is all iOS gives an
    /// app. Off: local time bases, and the receiver needs the reply times.
    public var commonTimeBase: Bool
    /// Where block timing comes from across clusters: nil for a standalone cluster (no hop
    /// count in the Poll; the caller starts blocks), else the reference or a bridge.
    public var timeReference: TimeReferenceRole?

    /// RCTU per RSTU: 416 chips · 128.
    public static let ticksPerRSTU: Int64 = 416 * 128
    /// RCTU per millisecond: 63.8976 GHz · 1 ms.
    public static let ticksPerMillisecond: Int64 = 63_897_600
    /// Most responders a Poll can list: the 4-bit management-list length, and Qorvo's
    /// `FIRA_RESPONDERS_MAX 8`.
    public static let maximumResponders = 8
    /// Most active ranging rounds (Qorvo `FIRA_DT_TAG_MAX_ACTIVE_RR 33`, from the BPRF PSDU size).
    public static let maximumActiveRounds = 33

    public init(
        sessionID: UInt32, shortAddress: UInt16, channel: UWBChannel = .channel9,
        coordinates: AnchorCoordinates, rangingMethod: RangingMethod = .doubleSided,
        rounds: [RoundAssignment], slotDurationRSTU: UInt32 = 1200, slotsPerRound: UInt8 = 10,
        blockDurationMilliseconds: UInt32 = 200, txAntennaDelayTicks: UInt32 = 16_400, commonTimeBase: Bool = true,
        timeReference: TimeReferenceRole? = nil
    ) {
        self.sessionID = sessionID
        self.shortAddress = shortAddress
        self.channel = channel
        self.coordinates = coordinates
        self.rangingMethod = rangingMethod
        self.rounds = rounds
        self.slotDurationRSTU = slotDurationRSTU
        self.slotsPerRound = slotsPerRound
        self.blockDurationMilliseconds = blockDurationMilliseconds
        self.txAntennaDelayTicks = txAntennaDelayTicks
        self.commonTimeBase = commonTimeBase
        self.timeReference = timeReference
    }

    /// One slot in RCTU.
    public var slotTicks: Int64 { Int64(slotDurationRSTU) * Self.ticksPerRSTU }
    /// One round in RCTU.
    public var roundTicks: Int64 { slotTicks * Int64(slotsPerRound) }
    /// One block in RCTU.
    public var blockTicks: Int64 { Int64(blockDurationMilliseconds) * Self.ticksPerMillisecond }
    /// Whole rounds that fit in a block, capped at the 33 active rounds FiRa allows.
    public var roundsPerBlock: Int {
        roundTicks == 0 ? 0 : min(Int(blockTicks / roundTicks), Self.maximumActiveRounds)
    }

    /// The slot responder number `k` (0-based, its place in the management list) answers in:
    /// its explicit slot if the assignment lists slots, else k + 1 (slot 0 is the Poll).
    static func responderSlot(_ k: Int, slots: [UInt8]) -> Int { slots.isEmpty ? k + 1 : Int(slots[k]) }

    /// The slot of the Final: after the last responder slot.
    static func finalSlot(responderCount: Int, slots: [UInt8]) -> Int {
        slots.isEmpty ? responderCount + 1 : Int(slots.max() ?? 0) + 1
    }

    /// This configuration if a cluster can run it, else the first problem found.
    ///
    /// Decision: an anchor may initiate several rounds (NXP's demo anchor initiates rounds 0 and 2);
    /// the rule "one initiator and multiple responders" holds per round, which one anchor's
    /// configuration can check only as one role per round. Rounds must fit the block and the 33
    /// active rounds; an initiator round needs the Poll, one slot per responder and, with DS-TWR,
    /// the Final within `slotsPerRound`. A bridge must respond in its parent round and send
    /// common-time-base timestamps (its Polls carry the chained time base).
    public func validated() throws(AnchorConfigurationError) -> AnchorConfiguration {
        if shortAddress == 0xFFFF { throw .broadcastAddress }
        if slotDurationRSTU < 1200 { throw .slotTooShort(rstu: slotDurationRSTU, minimum: 1200) }
        if slotsPerRound < 2 { throw .tooFewSlotsPerRound(slotsPerRound, minimum: 2) }
        // The 4-octet reply times must hold a whole round.
        if roundTicks > Int64(UInt32.max) {
            throw .roundTooLongForReplyTime(roundTicks: roundTicks, maximum: Int64(UInt32.max))
        }
        if blockDurationMilliseconds > UInt32(UInt16.max) {
            throw .blockTooLong(milliseconds: blockDurationMilliseconds, maximum: UInt32(UInt16.max))
        }
        switch coordinates {
        case let .relative(x, y, z):
            let xy = AnchorCoordinates.relativeXYLimit, zl = AnchorCoordinates.relativeZLimit
            if x < -xy || x > xy || y < -xy || y > xy || z < -zl || z > zl { throw .coordinatesOutOfRange }
        case let .wgs84(lat, lon, alt):
            if !(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)
                || !(abs(alt) <= AnchorCoordinates.altitudeLimitMetres) { throw .coordinatesOutOfRange }
        }
        if rounds.isEmpty { throw .noRounds }
        var seen: UInt64 = 0
        for assignment in rounds {
            let round = assignment.round
            if Int(round) >= roundsPerBlock { throw .roundOutOfRange(round: round, roundsPerBlock: roundsPerBlock) }
            if seen >> UInt64(round) & 1 == 1 { throw .duplicateRound(round) }
            seen |= 1 << UInt64(round)
            switch assignment {
            case let .responder(_, initiator):
                if initiator == shortAddress || initiator == 0xFFFF { throw .invalidPeer(round: round, address: initiator) }
            case let .initiator(_, responders, slots):
                if responders.isEmpty || responders.count > Self.maximumResponders {
                    throw .responderCount(round: round, count: responders.count, maximum: Self.maximumResponders)
                }
                for (i, r) in responders.enumerated() {
                    if r == shortAddress || r == 0xFFFF || responders[..<i].contains(r) {
                        throw .invalidPeer(round: round, address: r)
                    }
                }
                if !slots.isEmpty {
                    if slots.count != responders.count {
                        throw .slotListLength(round: round, slots: slots.count, responders: responders.count)
                    }
                    for (i, s) in slots.enumerated() where s == 0 || slots[..<i].contains(s) {
                        throw .slotInvalid(round: round, slot: s)
                    }
                }
                let needed = rangingMethod == .doubleSided
                    ? Self.finalSlot(responderCount: responders.count, slots: slots) + 1
                    : (slots.isEmpty ? responders.count + 1 : Int(slots.max() ?? 0) + 1)
                if needed > Int(slotsPerRound) {
                    throw .roundTooShort(round: round, slotsNeeded: needed, slotsPerRound: slotsPerRound)
                }
            }
        }
        if case let .bridge(parent)? = timeReference {
            guard rounds.contains(where: { if case .responder(parent, _) = $0 { true } else { false } }) else {
                throw .bridgeParentNotResponded(round: parent)
            }
            if !commonTimeBase { throw .bridgeWithoutCommonTimeBase }
        }
        return self
    }
}
