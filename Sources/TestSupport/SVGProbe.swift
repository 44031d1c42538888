import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// An SVG file parsed with XMLParser: well-formed, an `svg` root in the SVG namespace with a
/// viewBox, and the texts it shows, for the checks of the charts and of the plots the commands
/// write.
public final class SVGProbe: NSObject, XMLParserDelegate {
    /// Every element's name, in document order (the root first).
    public private(set) var elements: [String] = []
    public private(set) var rootAttributes: [String: String] = [:]
    /// The content of every `text` element.
    public private(set) var texts: [String] = []
    private var current = ""
    private var inText = false

    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if elements.isEmpty { rootAttributes = attributes }
        elements.append(name)
        if name == "text" { inText = true; current = "" }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { current += string }
    }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { texts.append(current); inText = false }
    }

    /// Parses `svg`, expecting well-formed XML with the SVG root, namespace, version and viewBox.
    @discardableResult
    public static func parse(_ svg: String, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> SVGProbe {
        let parser = XMLParser(data: Data(svg.utf8))
        let probe = SVGProbe()
        parser.delegate = probe
        let ok = parser.parse()
        #expect(ok, "XML error: \(String(describing: parser.parserError)) \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        #expect(probe.elements.first == "svg", sourceLocation: sourceLocation)
        #expect(probe.rootAttributes["xmlns"] == "http://www.w3.org/2000/svg", sourceLocation: sourceLocation)
        #expect(probe.rootAttributes["version"] == "1.1", sourceLocation: sourceLocation)
        #expect(probe.rootAttributes["viewBox"] != nil, sourceLocation: sourceLocation)
        return probe
    }
}
