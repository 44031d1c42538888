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

    /// Text, frame and tick marks.
    static let ink = "#222222"
    /// Grid lines: light enough not to compete with the data.
    static let grid = "#E3E3E3"
    /// The plot frame.
    static let frame = "#888888"
}
