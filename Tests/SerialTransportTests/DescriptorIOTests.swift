import Glibc
import Testing
@testable import SerialTransport

/// The wait-then-transfer loops with scripted OS calls and a fake clock: timeouts, end of file,
/// hangups and partial writes decided without any device.
struct DescriptorIOTests {
    /// A scripted OS: each poll/read/write takes the next answer; poll advances the clock by
    /// the time it was allowed to wait when it answers "nothing".
    final class Script {
        var now: Int64 = 0
        var polls: [SystemCalls.PollEvents] = []
        var reads: [Result<[UInt8], Errno>] = []
        var writes: [Result<Int, Errno>] = []
        var pollTimeouts: [Int] = []

        func io(hangup: SerialError = .vanished(path: "/dev/x")) -> DescriptorIO {
            DescriptorIO(
                path: "/dev/x", hangup: hangup,
                primitives: DescriptorIO.Primitives(
                    read: { _ in self.reads.isEmpty ? .failure(.wouldBlock) : self.reads.removeFirst() },
                    write: { _, _ in self.writes.isEmpty ? .failure(.wouldBlock) : self.writes.removeFirst() },
                    poll: { _, ms in
                        self.pollTimeouts.append(ms)
                        let e = self.polls.isEmpty ? SystemCalls.PollEvents(rawValue: 0) : self.polls.removeFirst()
                        if e.none { self.now += Int64(ms) }
                        return .success(e)
                    }),
                now: { self.now })
        }
    }

    static let readable = SystemCalls.PollEvents(rawValue: Int16(POLLIN))
    static let writable = SystemCalls.PollEvents(rawValue: Int16(POLLOUT))
    static let hangup = SystemCalls.PollEvents(rawValue: Int16(POLLHUP))
    static let readableHangup = SystemCalls.PollEvents(rawValue: Int16(POLLIN | POLLHUP))

    @Test func silenceIsATimeoutAfterOnePollOfTheWholeTime() {
        let s = Script()
        #expect(throws: SerialError.timeout(milliseconds: 50)) { try s.io().read(max: 8, timeout: 50) }
        #expect(s.pollTimeouts == [50])
    }

    @Test func spuriousWakeupsUseOnlyTheTimeLeft() {
        let s = Script()
        s.polls = [Self.readable, Self.readable]
        s.reads = [.failure(.wouldBlock), .success([])]
        // Each poll "takes" 10 ms in this script.
        let io = DescriptorIO(
            path: "/dev/x", hangup: .vanished(path: "/dev/x"),
            primitives: DescriptorIO.Primitives(
                read: { _ in s.reads.isEmpty ? .failure(.wouldBlock) : s.reads.removeFirst() },
                write: { _, _ in .success(0) },
                poll: { _, ms in
                    s.pollTimeouts.append(ms)
                    s.now += 10
                    return .success(s.polls.isEmpty ? SystemCalls.PollEvents(rawValue: 0) : s.polls.removeFirst())
                }),
            now: { s.now })
        #expect(throws: SerialError.timeout(milliseconds: 50)) { try io.read(max: 8, timeout: 50) }
        #expect(s.pollTimeouts == [50, 40, 30])
    }

    @Test func dataIsReturnedAsSoonAsAnyArrives() throws {
        let s = Script()
        s.polls = [Self.readable]
        s.reads = [.success([1, 2])]
        #expect(try s.io().read(max: 8, timeout: 1000) == [1, 2])
    }

    @Test func hangupWithoutDataIsTheLinksHangupError() {
        let s = Script()
        s.polls = [Self.hangup]
        #expect(throws: SerialError.peerClosed(path: "/dev/x")) { try s.io(hangup: .peerClosed(path: "/dev/x")).read(max: 8, timeout: 1000) }
        let t = Script()
        t.polls = [Self.readableHangup]
        t.reads = [.success([])]  // end of file
        #expect(throws: SerialError.vanished(path: "/dev/x")) { try t.io().read(max: 8, timeout: 1000) }
    }

    @Test func eioAndEnxioMeanTheDeviceWentAway() {
        for e in [Errno.ioError, .noSuchDeviceOrAddress] {
            let s = Script()
            s.polls = [Self.readable]
            s.reads = [.failure(e)]
            #expect(throws: SerialError.vanished(path: "/dev/x")) { try s.io().read(max: 8, timeout: 1000) }
        }
    }

    @Test func dataBeforeTheHangupIsStillDelivered() throws {
        let s = Script()
        s.polls = [Self.readableHangup]
        s.reads = [.success([9])]
        #expect(try s.io().read(max: 8, timeout: 1000) == [9])
    }

    @Test func aWriteThatStallsReportsHowMuchWasSent() {
        let s = Script()
        s.writes = [.success(3), .failure(.wouldBlock)]
        #expect(throws: SerialError.writeTimeout(path: "/dev/x", milliseconds: 100, sent: 3, total: 10)) {
            try s.io().write(Array(repeating: 0, count: 10), timeout: 100)
        }
    }

    @Test func aWriteResumesWhenThereIsRoom() throws {
        let s = Script()
        s.writes = [.success(4), .failure(.wouldBlock), .success(6)]
        s.polls = [Self.writable]
        try s.io().write(Array(repeating: 0, count: 10), timeout: 100)
        #expect(s.writes.isEmpty)
    }

    @Test func aWriteToAVanishedDeviceIsVanished() {
        let s = Script()
        s.writes = [.failure(.ioError)]
        #expect(throws: SerialError.vanished(path: "/dev/x")) { try s.io().write([1], timeout: 100) }
    }

    @Test func deadlinesNeverGoNegative() {
        let d = Deadline(milliseconds: 30, from: 100)
        #expect(d.remaining(at: 100) == 30)
        #expect(d.remaining(at: 125) == 5)
        #expect(d.remaining(at: 500) == 0)
        #expect(Deadline(milliseconds: -5, from: 0).remaining(at: 0) == 0)
    }
}
