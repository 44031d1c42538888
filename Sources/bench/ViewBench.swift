import Foundation
import ReflectorTools
import ToolJSON

/// `loopback` with its live page open against without one (issue 27 asks for at least 90 %):
/// the tool's own command run over the same procedures with no view, with a view nobody
/// watches, and with a page reading the stream (a thread on a socket, as a browser would).
/// Five rounds of the three, each the median of its rounds: a shared machine's speed drifts
/// by more than the view costs, and interleaving spreads the drift over all three.
func benchmarkView(seconds: Double) {
    final class NullSink: ByteSink { func write(_ bytes: UnsafeRawBufferPointer) {} }
    func rate(_ arguments: [String]) -> Double {
        let start = Date()
        guard let options = try? LoopbackOptions(arguments: arguments + ["--json", "--no-progress"]),
              let rows = try? LoopbackCommand.simulate(options, output: CommandOutput(sink: NullSink())) else { return 0 }
        return Double(rows.count) / -start.timeIntervalSinceNow
    }
    let probe = rate(["--procedures", "100"])
    let procedures = max(100, Int(probe * seconds))
    var plains: [Double] = [], unwatcheds: [Double] = [], watcheds: [Double] = []
    var received = 0
    for _ in 0..<5 {
        plains.append(rate(["--procedures", "\(procedures)"]))
        unwatcheds.append(rate(["--procedures", "\(procedures)", "--view", "0"]))
        let port = freePort()
        let page = StreamDrain(port: port)
        watcheds.append(rate(["--procedures", "\(procedures)", "--view", "\(port)"]))
        received = page.finish()
    }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    let plain = median(plains), unwatched = median(unwatcheds), watched = median(watcheds)
    func percent(_ r: Double) -> String { "\(Int((r / plain * 100).rounded())) %" }
    print("view: loopback \(Int(plain)) procedures/s (median of 5 rounds); with --view and no page \(Int(unwatched)) (\(percent(unwatched))); "
        + "with a page reading \(Int(watched)) (\(percent(watched)), \(received / 1024) KiB streamed)")
}

/// A port nothing listens on now.
private func freePort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return UInt16(bigEndian: a.sin_port)
}

/// A page on `/events` of 127.0.0.1:`port` from a thread of its own: connects as soon as the
/// server listens, reads everything until the server closes.
private final class StreamDrain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes = 0

    init(port: UInt16) {
        Thread { [self] in
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            let deadline = Date(timeIntervalSinceNow: 30)
            var fd: Int32 = -1
            while Date() < deadline {
                fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                if withUnsafePointer(to: &a, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 { break }
                close(fd)
                fd = -1
                usleep(1000)
            }
            if fd >= 0 {
                let request = Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
                _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { break }
                    bytes += n
                }
                close(fd)
            }
            done.signal()
        }.start()
    }

    /// Waits for the stream's end; the octets it read.
    func finish() -> Int {
        done.wait()
        return bytes
    }
}
