/// A complete SVG 1.1 file around already rendered content: the XML declaration, the root
/// element with its namespace (without `xmlns` browsers show the file as plain XML), a
/// `viewBox` so the picture scales in a page, and a white background so the plot stays
/// readable in dark-mode viewers that would otherwise show black text on black.
public struct SVGDocument: Equatable, Sendable {
    public var width: Double
    public var height: Double
    /// SVG elements, already escaped, in the document's pixel coordinates.
    public var body: String

    /// The file's text (UTF-8, ends with a newline).
    public var text: String {
        let w = SVGNumberFormat.format(width, decimals: 2), h = SVGNumberFormat.format(height, decimals: 2)
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
            <rect x="0" y="0" width="\(w)" height="\(h)" fill="#FFFFFF"/>

            """ + body + "</svg>\n"
    }
}
