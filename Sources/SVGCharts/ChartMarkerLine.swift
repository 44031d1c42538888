/// A labelled vertical line across a chart at one x value, for a value the reader must find
/// against the data: the chosen first path, the true distance. Its label sits above the plot
/// frame, so it never hides data.
public struct ChartMarkerLine: Equatable, Sendable {
    public var x: Double
    /// For example "first path 3.02 m".
    public var label: String
    /// A CSS colour; the default is the text colour.
    public var color: String
    public var dashed: Bool

    public init(x: Double, label: String, color: String = "#222222", dashed: Bool = true) {
        self.x = x
        self.label = label
        self.color = color
        self.dashed = dashed
    }
}
