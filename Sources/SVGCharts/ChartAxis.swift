/// One axis of an `SVGChart`: what it measures, in which unit, and how its range is chosen.
/// The unit is kept apart from the label so every chart prints it the same way, "Distance (m)".
public struct ChartAxis: Equatable, Sendable {
    /// How the axis range is chosen.
    public enum Range: Equatable, Sendable {
        /// From the data (and marker lines), widened to whole tick steps.
        case automatic
        /// As `automatic`, but always including zero (magnitudes, counts).
        case automaticIncludingZero
        /// Exactly `lower...upper` (put in order; padded when empty; automatic when not finite).
        /// Data outside is clipped at the plot frame.
        case fixed(lower: Double, upper: Double)
    }

    public var label: String
    public var unit: String
    public var range: Range

    public init(label: String, unit: String = "", range: Range = .automatic) {
        self.label = label
        self.unit = unit
        self.range = range
    }

    /// The axis title as printed: `label (unit)`, or the label alone without a unit.
    public var title: String {
        unit.isEmpty ? label : label.isEmpty ? unit : "\(label) (\(unit))"
    }
}
