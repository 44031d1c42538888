import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// An SVG file parsed with XMLParser: well-formed, an `svg` root in the SVG namespace with a
/// viewBox, and the texts it shows, for the checks of the plots the commands write.
final class SVGProbe: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var rootAttributes: [String: String] = [:]
    var texts: [String] = []
    private var current = ""
    private var inText = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if elements.isEmpty { rootAttributes = attributes }
        elements.append(name)
        if name == "text" { inText = true; current = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { current += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { texts.append(current); inText = false }
    }

    /// Parses `svg`, expecting well-formed XML with the SVG root, namespace, version and viewBox.
    static func parse(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) -> SVGProbe {
        let parser = XMLParser(data: Data(svg.utf8))
        let probe = SVGProbe()
        parser.delegate = probe
        let ok = parser.parse()
        #expect(ok, "XML error: \(String(describing: parser.parserError))", sourceLocation: sourceLocation)
        #expect(probe.elements.first == "svg", sourceLocation: sourceLocation)
        #expect(probe.rootAttributes["xmlns"] == "http://www.w3.org/2000/svg", sourceLocation: sourceLocation)
        #expect(probe.rootAttributes["version"] == "1.1", sourceLocation: sourceLocation)
        #expect(probe.rootAttributes["viewBox"] != nil, sourceLocation: sourceLocation)
        return probe
    }
}
