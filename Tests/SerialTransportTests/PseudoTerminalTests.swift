import Foundation
import Testing
@testable import SerialTransport
import TestSupport

/// A PseudoTerminal (the virtual board's end) and a TerminalDevice (a client opening the
/// replica path or the symbolic link) pass bytes both ways unchanged, and the far end closing
/// or a silent line end a read promptly.
struct PseudoTerminalTests {
    /// A directory of this test's own for its links and files, removed when the test is done.
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory("serial") }

    @Test func bytesCrossBothWaysThroughTheReplicaPath() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(pty.replicaPath.hasPrefix("/dev/pts/"))
        let client = try TerminalDevice(path: pty.replicaPath)
        defer { client.close() }
        let toBoard: [UInt8] = [0x01, 0x03, 0x0C, 0x00, 0x0A, 0x0D, 0x11, 0x13, 0x03, 0x04, 0xFF]
        try client.write(toBoard)
        #expect(try pty.read(exactly: toBoard.count, timeout: 2000) == toBoard)
        let toHost = toBoard.reversed().map { $0 }
        try pty.write(toHost)
        #expect(try client.read(exactly: toHost.count, timeout: 2000) == toHost)
    }

    /// 64 KiB each way through the symbolic link, the writer and the reader on two threads, so
    /// the pty's buffers fill and drain as on a real line.
    @Test func largeBuffersCrossIntactThroughTheSymbolicLink() throws {
        let link = directory.file("board")
        let pty = try PseudoTerminal(linkPath: link)
        defer { pty.close() }
        #expect(pty.path == link)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == pty.replicaPath)
        let client = try TerminalDevice(path: link)
        defer { client.close() }
        let size = 64 * 1024
        let down = pattern(size, seed: 1)
        let up = pattern(size, seed: 2)

        let reader = Handoff(value: client)
        let job = BackgroundJob { () throws -> [UInt8] in
            let got = try reader.value.read(exactly: size, timeout: 10_000)
            try reader.value.write(up, timeout: 10_000)
            return got
        }
        try pty.write(down, timeout: 10_000)
        let back = try pty.read(exactly: size, timeout: 10_000)
        let result = try #require(job.wait())
        #expect(try result.get() == down)
        #expect(back == up)
    }

    @Test func aSilentLineTimesOutWithinBoundedTime() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let client = try TerminalDevice(path: pty.replicaPath)
        defer { client.close() }
        for link in [pty as any SerialLink, client] {
            let start = SystemCalls.monotonicMilliseconds()
            #expect(throws: SerialError.timeout(milliseconds: 50)) { try link.read(max: 16, timeout: 50) }
            let elapsed = SystemCalls.monotonicMilliseconds() - start
            #expect(elapsed >= 40 && elapsed < 2000, "took \(elapsed) ms")
        }
        #expect(throws: SerialError.timeout(milliseconds: 0)) { try client.read(max: 16, timeout: 0) }
    }

    /// The client closes mid-stream: the master still gets what was written, then
    /// `.peerClosed` (POLLHUP/EIO), at once and not after the timeout.
    @Test func theClientClosingIsReportedNotTimedOut() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let client = try TerminalDevice(path: pty.replicaPath)
        try client.write([0x04, 0x0E, 0x04])
        client.close()
        #expect(try pty.read(exactly: 3, timeout: 2000) == [0x04, 0x0E, 0x04])
        let start = SystemCalls.monotonicMilliseconds()
        #expect(throws: SerialError.peerClosed(path: pty.replicaPath)) { try pty.read(max: 16, timeout: 5000) }
        #expect(SystemCalls.monotonicMilliseconds() - start < 2000)
        #expect(throws: SerialError.closed(path: pty.replicaPath)) { try client.read(max: 1, timeout: 0) }

        // A new client brings the line back.
        let second = try TerminalDevice(path: pty.replicaPath)
        defer { second.close() }
        try second.write([0x01])
        #expect(try pty.read(exactly: 1, timeout: 2000) == [0x01])
    }

    /// The board closing: its client sees `.vanished`, not a hang.
    @Test func theBoardClosingIsReportedToTheClient() throws {
        let pty = try PseudoTerminal()
        let client = try TerminalDevice(path: pty.replicaPath)
        defer { client.close() }
        let path = pty.replicaPath
        pty.close()
        #expect(throws: SerialError.vanished(path: path)) { try client.read(max: 16, timeout: 5000) }
    }

    /// With `keepsReplicaOpen`, clients come and go without a hangup on the master.
    @Test func aHeldReplicaHidesClientsLeaving() throws {
        let pty = try PseudoTerminal(keepsReplicaOpen: true)
        defer { pty.close() }
        let client = try TerminalDevice(path: pty.replicaPath)
        try client.write([0x42])
        client.close()
        #expect(try pty.read(exactly: 1, timeout: 2000) == [0x42])
        #expect(throws: SerialError.timeout(milliseconds: 30)) { try pty.read(max: 1, timeout: 30) }
    }

    @Test func theLinkReplacesAStaleLinkRefusesAFileAndIsRemovedAtClose() throws {
        let fm = FileManager.default
        let link = directory.file("stale")
        try fm.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/nonexistent")
        let pty = try PseudoTerminal(linkPath: link)
        #expect((try? fm.destinationOfSymbolicLink(atPath: link)) == pty.replicaPath)
        pty.close()
        #expect((try? fm.attributesOfItem(atPath: link)) == nil, "link left behind")
        #expect(!(fm.fileExists(atPath: link + ".tmp-\(getpid())")))

        let file = directory.file("file")
        #expect(fm.createFile(atPath: file, contents: Data("keep".utf8)))
        #expect(throws: SerialError.linkPathOccupied(path: file, kind: "a regular file")) { _ = try PseudoTerminal(linkPath: file) }
        #expect(fm.contents(atPath: file) == Data("keep".utf8))
        do {
            _ = try PseudoTerminal(linkPath: file)
        } catch {
            #expect(error.description.contains(file) && error.description.contains("refusing"))
        }
    }

    /// A link another run took over is not removed by an older pty closing.
    @Test func closeLeavesALinkThatPointsElsewhere() throws {
        let fm = FileManager.default
        let link = directory.file("taken")
        let first = try PseudoTerminal(linkPath: link)
        let second = try PseudoTerminal(linkPath: link)
        first.close()
        #expect((try? fm.destinationOfSymbolicLink(atPath: link)) == second.replicaPath)
        second.close()
        #expect((try? fm.attributesOfItem(atPath: link)) == nil)
    }
}
