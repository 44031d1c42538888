/// The body of a DTM, one per message type.
public enum DTMessage: Equatable, Sendable {
    case poll(DTPoll)
    case response(DTResponse)
    case final(DTFinal)

    public var type: DTMessageType {
        switch self {
        case .poll: .poll
        case .response: .response
        case .final: .final
        }
    }

    public var txTimestamp: UWBTimestamp {
        switch self {
        case let .poll(p): p.txTimestamp
        case let .response(r): r.txTimestamp
        case let .final(f): f.txTimestamp
        }
    }
}
