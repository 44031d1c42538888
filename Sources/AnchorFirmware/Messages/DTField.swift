/// The fields of a DTM frame, so a decode error can say which one is wrong.
public enum DTField: UInt8, Equatable, Sendable {
    case frameControl, destinationAddress, sourceAddress, securityControl
    case headerIE, firaHeaderIE, headerTermination
    case payloadIE, oui, messageID, messageControl, roundIndex, blockIndex
    case txTimestamp, managementList, hopCount, locationType, location, activeRounds
    case cfo, replyTime, timeOfFlight, replyTimeList, frameCheckSequence

    public var name: StaticString {
        switch self {
        case .frameControl: "frame control"
        case .destinationAddress: "destination address"
        case .sourceAddress: "source address"
        case .securityControl: "security control"
        case .headerIE: "header IE"
        case .firaHeaderIE: "FiRa vendor header IE"
        case .headerTermination: "header termination IE"
        case .payloadIE: "payload IE"
        case .oui: "OUI"
        case .messageID: "UWB message ID"
        case .messageControl: "message control"
        case .roundIndex: "round index"
        case .blockIndex: "block index"
        case .txTimestamp: "TX timestamp"
        case .managementList: "management list"
        case .hopCount: "hop count"
        case .locationType: "location type"
        case .location: "anchor location"
        case .activeRounds: "active ranging rounds"
        case .cfo: "CFO"
        case .replyTime: "reply time"
        case .timeOfFlight: "time of flight"
        case .replyTimeList: "reply time list"
        case .frameCheckSequence: "FCS"
        }
    }
}
