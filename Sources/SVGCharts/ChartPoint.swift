/// One data point of a chart series, in data units. A point with a NaN or infinite coordinate
/// is not drawn, and it breaks a line: that is how a series shows a gap (a missing estimate).
public struct ChartPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether the point can be drawn (both coordinates finite).
    public var isFinite: Bool { x.isFinite && y.isFinite }
}
