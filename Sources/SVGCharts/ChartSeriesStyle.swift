/// How a series is drawn: measurements as markers (each one a sample, nothing in between),
/// models and smoothed values as lines, a reference (the truth) as a dashed line.
public enum ChartSeriesStyle: Equatable, Sendable {
    /// A polyline through the points, broken at non-finite points.
    case line
    /// As `line`, dashed.
    case dashedLine
    /// A filled circle at each point.
    case markers
    /// A line with a marker at each point.
    case lineAndMarkers

    var drawsLine: Bool { self != .markers }
    var drawsMarkers: Bool { self == .markers || self == .lineAndMarkers }
    var isDashed: Bool { self == .dashedLine }
}
