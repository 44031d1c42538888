import Foundation

/// The live view's one page, from this module's resources: `page.html` (the skeleton),
/// `page.css` (the style sheet) and `page.js` (the script that listens to `/events` and draws
/// each panel as SVG), real files that a linter, an editor and a browser can open. The page
/// served is one self-contained document: the HTML's `<link>` to the style sheet and its
/// `<script src>` are replaced by the files themselves, inline, so nothing is fetched but the
/// page's own event stream (which the server's Content-Security-Policy enforces). The script
/// is written to be read: open the page's source.
///
/// The files are read once, when a command starts its view, from the resource bundle SwiftPM
/// builds beside the executable (`reflector-emu_LiveView.resources`, in `.build/debug` or
/// `.build/release`). A binary copied away from that bundle ranges as before, but `--view`
/// refuses to start with an error that says where the page was looked for: never a blank page,
/// and never the page of another build (SwiftPM's own `Bundle.module` would fall back to the
/// build directory the binary was built in, or stop the process when that is gone too).
public enum LiveViewPage {
    /// The resource bundle's name: SwiftPM's `<package>_<target>.resources` (a test checks that
    /// the build puts it beside the test binary under this name).
    public static let bundleName = "reflector-emu_LiveView.resources"
    /// The page's files, as `Package.swift` declares them.
    public static let files = ["page.html", "page.css", "page.js"]
    /// What `page.html` links, and the assembled page holds inline instead.
    static let styleLink = #"<link rel="stylesheet" href="page.css">"#
    static let scriptLink = #"<script src="page.js"></script>"#

    /// Where the page's files are looked for: the bundle beside the running executable.
    public static var resourceDirectory: URL {
        Bundle.main.bundleURL.appendingPathComponent(bundleName, isDirectory: true)
    }

    /// The page as it is served, from `resourceDirectory`.
    public static func load() throws(LiveViewError) -> [UInt8] { try assemble(from: resourceDirectory) }

    /// The page from the three files in `directory`: `page.html` with `page.css` inline in a
    /// `<style>` and `page.js` inline in a `<script>`, each in place of the one tag that links it.
    public static func assemble(from directory: URL) throws(LiveViewError) -> [UInt8] {
        func read(_ name: String) throws(LiveViewError) -> String {
            let url = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw .missingPage("the live view's page is not there: \(url.path) cannot be read (the page is the resource "
                                   + "bundle \(bundleName) that the build puts beside the executable: copy it with the binary)")
            }
            return String(decoding: data, as: UTF8.self)
        }
        func inline(_ text: String, in html: String, replacing link: String, with open: String, _ close: String) throws(LiveViewError) -> String {
            let parts = html.components(separatedBy: link)
            guard parts.count == 2 else {
                throw .missingPage("the live view's page.html in \(directory.path) links \(link) \(parts.count - 1) times, not once")
            }
            // The file's last newline ends the file, not the inline text.
            let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
            return parts[0] + open + "\n" + body + "\n" + close + parts[1]
        }
        let html = try read("page.html")
        let styled = try inline(try read("page.css"), in: html, replacing: styleLink, with: "<style>", "</style>")
        return Array(try inline(try read("page.js"), in: styled, replacing: scriptLink, with: "<script>", "</script>").utf8)
    }
}
