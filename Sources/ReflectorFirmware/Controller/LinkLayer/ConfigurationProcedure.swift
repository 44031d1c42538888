/// The Channel Sounding configuration procedure (Core 6.0 Vol 6 Part B §5.1.26): LE CS Create
/// Config (with the remote context) sends LL_CS_CONFIG_REQ with Action = create, LE CS Remove
/// Config one with Action = remove; the peer applies it and answers LL_CS_CONFIG_RSP, or
/// refuses with LL_REJECT_EXT_IND. Only then does the requesting side apply it and tell its host
/// (LE CS Config Complete), so both sides always agree on which configurations exist. Two
/// configuration procedures cannot cross (§5.3): see `CSProcedureKind`.
struct ConfigurationProcedure: Sendable {
    /// What this side asked the peer for.
    enum Request: Sendable, Equatable {
        case create(CSConfiguration)
        case remove(configID: UInt8)

        var configID: UInt8 {
            switch self {
            case .create(let c): return c.configID
            case .remove(let id): return id
            }
        }
    }

    private(set) var state = LLProcedureState.idle
    /// The request awaiting LL_CS_CONFIG_RSP.
    private(set) var request: Request?

    var isBusy: Bool { request != nil }

    /// LL_CS_CONFIG_REQ for `request` went out at `now`.
    mutating func start(_ request: Request, at now: UInt64) {
        self.request = request
        state = .awaitingResponse(since: now)
    }

    /// LL_CS_CONFIG_RSP for `configID`: the request it accepts, or nil when none of ours matches.
    mutating func complete(configID: UInt8) -> Request? {
        guard let r = request, r.configID == configID else { return nil }
        return end()
    }

    /// Refused by the peer or abandoned: the request that was waiting, if any.
    @discardableResult
    mutating func end() -> Request? {
        defer {
            request = nil
            state = .idle
        }
        return request
    }
}
