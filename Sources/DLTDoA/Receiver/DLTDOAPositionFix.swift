import EmulatorMath
/// A position an app computes from DL-TDoA measurements: the epoch's least-squares fix and the
/// tracked position, with what went into them.
public struct DLTDOAPositionFix: Sendable {
    /// When the epoch's first Poll reached the app (`DLTDOAMeasurement.hostTime`), seconds.
    public var time: Double
    /// The single-epoch fix (metres, the anchors' frame).
    public var fix: TDoAFix
    /// The tracked position (constant-velocity filter); nil when the tracker rejected the fix.
    public var tracked: Vector3?
    /// Clusters and range differences the epoch used, and the problem solved.
    public var rounds: [TDoARound]
    public var problem: TDoAProblem
}
