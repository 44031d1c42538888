/// The fixed series colours: the Okabe–Ito palette, chosen because its colours stay distinct for
/// readers with the common colour-vision deficiencies and on grey-scale print, and because a
/// fixed list keeps the output deterministic (series i always gets the same colour).
public enum ChartPalette {
    /// Blue, vermilion, bluish green, reddish purple, orange, sky blue, yellow-brown, black.
    public static let colors: [String] = [
        "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C6D00", "#000000",
    ]

    /// The colour of the series at `index` (the palette repeats after eight series).
    public static func color(at index: Int) -> String {
        colors[((index % colors.count) + colors.count) % colors.count]
    }

    /// Viridis at nine evenly spaced points, dark blue (low) to yellow (high), for heat maps:
    /// perceptually uniform (equal steps of value look like equal steps of colour), monotone in
    /// lightness so it survives grey-scale print, and readable with colour-vision deficiencies.
    public static let sequential: [String] = [
        "#440154", "#472D7B", "#3B528B", "#2C728E", "#21918C", "#28AE80", "#5EC962", "#ADDC30", "#FDE725",
    ]

    /// The sequential colour at `fraction` (0 low … 1 high, clamped; NaN counts as high), linear
    /// in RGB between the neighbouring stops (close enough to viridis with nine stops).
    public static func sequentialColor(at fraction: Double) -> String {
        let t = fraction.isNaN ? 1 : min(max(fraction, 0), 1)
        let position = t * Double(sequential.count - 1)
        let i = min(Int(position), sequential.count - 2)
        let (a, b) = (rgb(sequential[i]), rgb(sequential[i + 1]))
        let w = position - Double(i)
        var hex = "#"
        for (p, q) in zip(a, b) {
            let v = Int((Double(p) + (Double(q) - Double(p)) * w).rounded())
            hex += String(v / 16, radix: 16, uppercase: true) + String(v % 16, radix: 16, uppercase: true)
        }
        return hex
    }

    private static func rgb(_ hex: String) -> [Int] {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        return [(v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF]
    }

    /// Text, frame and tick marks.
    static let ink = "#222222"
    /// Grid lines: light enough not to compete with the data.
    static let grid = "#E3E3E3"
    /// The plot frame.
    static let frame = "#888888"
}
