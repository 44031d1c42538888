import Foundation
@testable import LiveView
import TestSupport
import Testing

/// The page from the module's resources (`page.html`, `page.css`, `page.js`): where the build
/// puts them, the one document they are served as, and the error when they are not there.
@Suite struct LiveViewPageTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/LiveView/Page").standardized

    /// The build puts the bundle beside the test binary under the name the loader looks for,
    /// with the very files of the source tree.
    @Test func theBundleIsBesideTheExecutable() throws {
        let directory = LiveViewPage.resourceDirectory
        for name in LiveViewPage.files {
            let built = try #require(FileManager.default.contents(atPath: directory.appendingPathComponent(name).path), "\(name) not in \(directory.path)")
            #expect(built == FileManager.default.contents(atPath: Self.sources.appendingPathComponent(name).path), "\(name) differs from its source")
        }
    }

    @Test func thePageIsSelfContained() throws {
        let html = String(decoding: try LiveViewPage.load(), as: UTF8.self)
        #expect(html.hasPrefix("<!doctype html>") && html.contains("new EventSource(\"/events\")"))
        // Nothing from elsewhere: no URL but the page's own stream, no external script or style.
        #expect(html.components(separatedBy: "http").count == 2 && html.contains("\"http://www.w3.org/2000/svg\""),
                "the one URL is SVG's namespace name")
        #expect(!html.contains("<script src") && !html.contains("<link"))
        #expect(!html.contains("innerHTML"), "records are written as text, never as markup")
        // The style and the script whole, each once, where page.html linked them.
        let css = try String(contentsOf: Self.sources.appendingPathComponent("page.css"), encoding: .utf8)
        let js = try String(contentsOf: Self.sources.appendingPathComponent("page.js"), encoding: .utf8)
        #expect(html.components(separatedBy: "<style>\n" + css + "</style>\n</head>").count == 2)
        #expect(html.components(separatedBy: "<script>\n" + js + "</script>\n</body>").count == 2)
    }

    /// The script parses as JavaScript (`node --check`, where Node.js is installed; the browser
    /// tests, `LiveViewBrowserTests`, run it in Chromium).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/node"), "Node.js is not installed"))
    func theScriptParses() throws {
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/node"), ["--check", Self.sources.appendingPathComponent("page.js").path], timeout: 60)
        #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
    }

    /// A binary copied away from its bundle: `--view` says where the page was looked for.
    @Test func aMissingFileIsNamed() throws {
        try TemporaryDirectory.with("page") { dir in
            let url = URL(fileURLWithPath: dir.path)
            for name in ["page.html", "page.css"] {
                try FileManager.default.copyItem(at: Self.sources.appendingPathComponent(name), to: url.appendingPathComponent(name))
            }
            let error = #expect(throws: LiveViewError.self) { try LiveViewPage.assemble(from: url) }
            #expect(error?.description.contains(url.appendingPathComponent("page.js").path) == true)
            #expect(error?.description.contains(LiveViewPage.bundleName) == true)
            try FileManager.default.copyItem(at: Self.sources.appendingPathComponent("page.js"), to: url.appendingPathComponent("page.js"))
            #expect(try LiveViewPage.assemble(from: url) == LiveViewPage.load())
        }
    }
}
