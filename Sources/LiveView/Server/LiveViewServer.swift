import Foundation

/// The live view: a small HTTP/1.1 server on its own thread that serves one page at `/` and
/// its Server-Sent Events at `/events`, and the publishing side a command calls from the
/// thread that ranges. Publishing never blocks on a client and never grows memory beyond the
/// bounds set here: each client has a queue of `queueCapacity` events and `queueBytes` octets
/// (a slow one loses its oldest, and the page is told how many), at most `maxStreams` clients
/// stream, and the history a late client is given has a size per event name.
public final class LiveViewServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Events queued per client before the oldest is dropped.
        public var queueCapacity = 512
        /// Octets of events queued per client before the oldest are dropped.
        public var queueBytes = 4 << 20
        /// How many of each event name a client that joins late is given.
        public var historySizes: [String: Int] = [:]
        /// Writes are gathered for this long (seconds), so a fast run is not one write per event.
        public var batchInterval = 0.020
        /// A request head must arrive within this (seconds), or the answer is 408.
        public var requestTimeout = 10.0
        /// How long a closed answer waits for the client to close its side (seconds).
        public var lingerTime = 2.0
        /// A comment line to idle streams this often (seconds): finds clients that went away.
        public var heartbeatInterval = 15.0
        public var maxConnections = 128
        public var maxStreams = 32
        public var limits = HTTPRequestParser.Limits()

        public init(historySizes: [String: Int] = [:]) { self.historySizes = historySizes }
    }

    /// Where it listens (with the port the system chose for port 0).
    public let address: ListenAddress
    public let broadcaster: LiveBroadcaster
    private let loop: ServerLoop
    private let finished = DispatchSemaphore(value: 0)
    private let stopLock = NSLock()
    private var stopped = false

    /// Listens on `address` and starts serving `page`; throws when the socket cannot be bound.
    public init(listeningOn address: ListenAddress, page: [UInt8], configuration: Configuration = Configuration()) throws(LiveViewError) {
        let (fd, port) = try SocketCalls.listen(on: address)
        let wakeup: WakeupPipe
        do { wakeup = try WakeupPipe() } catch {
            close(fd)
            throw error
        }
        self.address = ListenAddress(host: address.host, port: port)
        broadcaster = LiveBroadcaster(queueCapacity: configuration.queueCapacity, queueBytes: configuration.queueBytes, historySizes: configuration.historySizes, wakeup: wakeup)
        loop = ServerLoop(listener: fd, wakeup: wakeup, broadcaster: broadcaster, page: page, loopbackOnly: address.isLoopback,
                          configuration: configuration)
        let loop = self.loop, finished = self.finished
        let thread = Thread {
            loop.run()
            finished.signal()
        }
        thread.name = "live view"
        thread.start()
    }

    /// The page's address, `http://127.0.0.1:PORT/`.
    public var url: String { "http://\(address.authority)/" }

    /// Publishes one event to every client (see `LiveBroadcaster.publish`); returns its id.
    @discardableResult
    public func publish(_ name: String, _ data: some Collection<UInt8>) -> UInt64 { broadcaster.publish(name, data) }

    /// Gives the clients what is queued, closes every socket and ends the thread; returns when
    /// it has. Later calls return at once.
    public func stop() {
        stopLock.lock()
        let first = !stopped
        stopped = true
        stopLock.unlock()
        guard first else { return }
        loop.requestStop()
        finished.wait()
    }

    deinit { stop() }
}
