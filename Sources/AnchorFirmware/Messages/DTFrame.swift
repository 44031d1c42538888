import WireFormat

/// One downlink TDoA message as it goes on air: an IEEE 802.15.4 multipurpose frame
/// (FiRa v2.0.0 6.3.7.1.7 as quoted by Qorvo `fira_owr_dt_frame.h`), laid out as
///
/// | octets | field |
/// |---|---|
/// | 2 | frame control 0x86AD (LE: AD 86) |
/// | 2 | destination short address (0xFFFF) |
/// | 2 | source short address |
/// | 1 | security control 0x20 |
/// | 2 + 19 | FiRa vendor header IE: OUI FF 18 5A, 8 × 0x08, session ID (4), STS index (4) |
/// | 2 | header termination IE 1 (00 3F) |
/// | 2 | payload IE descriptor: vendor group 0x2, type 1, length |
/// | 3 + 1 + 3 + 1 + 2 | OUI FF 18 5A, UWB message ID, message control, round index, block index |
/// | … | DTM body (Poll, Response, Final) |
/// | 2 | FCS, CRC-16 ITU-T |
///
/// Frame control (802.15.4-2020 §7.3.5.1, multipurpose long form): bits 0–2 frame type 5,
/// bit 3 long frame control 1, bits 4–5 destination mode 2 (short), 6–7 source mode 2 (short),
/// 8 PAN ID present 0, 9 security enabled 1, 10 sequence number suppression 1, 11 frame pending 0,
/// 12–13 version 0, 14 AR 0, 15 IE present 1 = 0x86AD, as Qorvo's
/// `FIRA_OWR_DTM_MAC_FRAME_FC_VALUE` (lfc=1, short/short, panid=0, secen=1, seq=1, ie=1).
/// Security control (802.15.4-2020 §9.4.2): level 0, key identifier mode 0, frame counter
/// suppressed (bit 5) = 0x20, as Qorvo's `fira_frame.c` writes `IEEE802154_SCF_NO_FRAME_COUNTER`;
/// no frame counter or key identifier follows, so the MHR is 7 octets
/// (`FIRA_OWR_DTM_MAC_FRAME_HEADER_LEN`).
/// Header IE descriptor (§7.4.2.1): length bits 0–6, element ID bits 7–14 (vendor 0x00,
/// HT1 0x7E), type 0. Payload IE descriptor (§7.4.3.1): length bits 0–10, group ID bits 11–14
/// (vendor 0x2), type 1.
///
/// Decision [unverified]: DTMs carry the FiRa vendor header IE of FiRa TWR frames (Qorvo
/// `fira_frame.c`: OUI, 8 padding octets 0x08, session ID, STS index), because a tag must match
/// the frames to Apple's `networkIdentifier` (= the session ID) and Qorvo's DTM parser requires
/// a header IE ending in HT1. Decision: no payload termination IE, because the FCS follows the
/// last payload IE directly (802.15.4 makes PT optional then); DTMs go to the broadcast address.
public struct DTFrame: Equatable, Sendable {
    public var destinationAddress: UInt16
    public var sourceAddress: UInt16
    public var sessionID: UInt32
    /// STS index of the frame's slot (0 with the static STS NXP's demo uses).
    public var stsIndex: UInt32
    public var roundIndex: UInt8
    public var blockIndex: UInt16
    /// TX timestamp type: false = the anchor's local time base (what this firmware sends).
    public var commonTimeBase: Bool
    public var message: DTMessage

    public static let frameControl: UInt16 = 0x86AD
    public static let securityControl: UInt8 = 0x20
    public static let broadcastAddress: UInt16 = 0xFFFF
    /// FiRa's OUI, 5A-18-FF, sent least significant octet first.
    public static let firaOUI: UInt32 = 0x5A18FF
    /// Padding octet of the FiRa header IE (Qorvo `FIRA_IE_HEADER_PADDING`).
    static let headerPadding: UInt8 = 0x08
    /// Content length of the FiRa header IE: OUI 3 + padding 8 + session 4 + STS index 4.
    static let firaHeaderIELength = 19
    /// Octets before the payload IE content: MHR 7 + header IE 21 + HT1 2 + payload descriptor 2.
    static let payloadContentOffset = 32

    public init(sourceAddress: UInt16, destinationAddress: UInt16 = DTFrame.broadcastAddress, sessionID: UInt32,
                stsIndex: UInt32 = 0, roundIndex: UInt8, blockIndex: UInt16, commonTimeBase: Bool = false,
                message: DTMessage) {
        self.destinationAddress = destinationAddress
        self.sourceAddress = sourceAddress
        self.sessionID = sessionID
        self.stsIndex = stsIndex
        self.roundIndex = roundIndex
        self.blockIndex = blockIndex
        self.commonTimeBase = commonTimeBase
        self.message = message
    }

    /// The message control this frame's body implies.
    public var messageControl: DTMessageControl {
        var c = DTMessageControl()
        c.commonTimeBase = commonTimeBase
        switch message {
        case let .poll(p):
            c.managementListLength = UInt8(min(p.responders.count, 15))
            c.slotIndexPresent = p.responders.contains { $0.slotIndex != nil }
            c.finalPresent = p.finalFollows
            c.hopCountPresent = p.hopCount != nil
            c.locationPresent = p.location != nil
            c.activeRoundsPresent = p.activeRounds != nil
        case let .response(r):
            c.finalPresent = r.finalFollows
            c.cfoPresent = r.cfoQ610 != nil
            c.tofPresent = r.timeOfFlightTicks != nil
            c.locationPresent = r.location != nil
            c.activeRoundsPresent = r.activeRounds != nil
        case let .final(f):
            c.finalPresent = true
            c.replyTimeListLength = UInt8(min(f.replyTimes.count, 15))
        }
        return c
    }

    /// The frame's octets, FCS included.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 96)
        w.u16(Self.frameControl)
        w.u16(destinationAddress)
        w.u16(sourceAddress)
        w.u8(Self.securityControl)
        w.u16(UInt16(Self.firaHeaderIELength))  // element ID 0x00
        w.u24(Self.firaOUI)
        for _ in 0..<8 { w.u8(Self.headerPadding) }
        w.u32(sessionID)
        w.u32(stsIndex)
        w.u16(0x7E << 7)  // HT1
        let descriptorAt = w.count
        w.u16(0)  // the payload IE descriptor, set once its length is known
        w.u24(Self.firaOUI)
        w.u8(message.type.messageIDOctet)
        let control = messageControl
        w.u24(control.rawValue)
        w.u8(roundIndex)
        w.u16(blockIndex)
        switch message {
        case let .poll(p):
            w.uint(p.txTimestamp.ticks, 5)
            for entry in p.responders {
                if control.slotIndexPresent { w.u8(entry.slotIndex ?? 0) }
                if !p.finalFollows { w.i16(entry.timeOfFlightTicks ?? 0) }
                w.u16(entry.address)
            }
            if let hop = p.hopCount { w.u8(hop) }
            Self.appendOptionals(location: p.location, activeRounds: p.activeRounds, to: &w)
        case let .response(r):
            w.uint(r.txTimestamp.ticks, 5)
            if let cfo = r.cfoQ610 { w.i16(cfo) }
            w.u32(r.replyTimeTicks)
            if let tof = r.timeOfFlightTicks { w.i16(tof) }
            Self.appendOptionals(location: r.location, activeRounds: r.activeRounds, to: &w)
        case let .final(f):
            w.uint(f.txTimestamp.ticks, 5)
            for entry in f.replyTimes {
                w.u16(entry.address)
                w.u32(entry.replyTimeTicks)
            }
        }
        let length = w.count - descriptorAt - 2
        w.setInteger(UInt16(length & 0x7FF) | 0x2 << 11 | 1 << 15, at: descriptorAt)
        w.u16(FrameCheckSequence.crc16(w.bytes))
        return w.bytes
    }

    static func appendOptionals(location: AnchorCoordinates?, activeRounds: [UInt8]?, to w: inout ByteWriter) {
        if let location {
            w.u8(location.type.rawValue)
            w.octets(location.firaOctets)
        }
        if let rounds = activeRounds {
            w.u8(UInt8(rounds.count))
            w.octets(rounds)
        }
    }
}
