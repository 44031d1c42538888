/// An estimate of how wide a text renders, so the layout can leave room for tick labels and
/// keep labels from overlapping without a font engine. The widths are DejaVu Sans' (the usual
/// `sans-serif` on Linux, and among the widest), so other fonts take no more room than planned.
enum SVGTextMetrics {
    /// The advance width of `text` at `fontSize` pixels, in pixels.
    static func width(_ text: String, fontSize: Double) -> Double {
        var em = 0.0
        for c in text {
            switch c {
            case "0"..."9": em += 0.64
            case ".", ",", ":", ";", "i", "j", "l", "|", "!", "'": em += 0.3
            case " ", "(", ")", "[", "]", "f", "t", "r": em += 0.38
            case "-", "−": em += 0.42
            case "m", "w", "M", "W", "—": em += 0.95
            case "A"..."Z": em += 0.72
            case "a"..."z": em += 0.6
            default: em += 0.7
            }
        }
        return em * fontSize
    }
}
