/// How late one anchor's arrival was at a fix, as the rest of the epoch sees it: the evidence
/// for NLOS, per anchor and epoch (a receiver accumulates it over epochs).
///
/// For a used anchor it is the leave-one-out residual of the linearised fit, −ẽ_j / (1 − h_jj)
/// with σ/√(1 − h_jj) (h_jj the hat-matrix diagonal, 1/n_g + (u_j − ū)ᵀ N⁻¹ (u_j − ū)); for a
/// left-out one, the residual of its arrival against the fit, with σ√(1 + h_jj). Positive:
/// later than the geometry explains.
public struct TDoAAnchorDelay: Sendable, Equatable {
    public var anchor: TDoAAnchorID
    /// Metres.
    public var delay: Double
    /// Its standard deviation under the noise model, metres.
    public var sigma: Double
    /// The anchor was used in the fix.
    public var used: Bool
}
