import ReflectorFirmware
import HCITransport

/// HCI packets over a byte link with the UART transport (H4): the indicator octet, then the
/// packet (Core 6.0 Vol 4 Part A §2). The same channel serves a host talking to a board on
/// /dev/ttyACM0 and a virtual board serving a pty.
///
/// - Receiving cuts the byte stream with a `TimedH4Framer`: garbage octets are skipped and
///   counted, and a partial packet that stalls longer than `stallTimeoutMilliseconds` is dropped
///   and reported (`diagnostics`, `statistics`), so the next packet is read whole.
/// - With a `recorder`, every packet sent and received becomes a btsnoop record, timestamped by
///   the injected clock, with the direction this channel's `side` implies.
///
/// Not thread-safe (like its link).
public final class HCIChannel {
    public let link: any SerialLink
    public let side: HCIChannelSide
    public let clock: HCIChannelClock
    /// Write timeout for each packet.
    public var writeTimeoutMilliseconds: Int
    /// Called with a btsnoop record for every packet sent and received (for example
    /// `{ try? sink.append($0) }` with a `BTSnoopFileSink`).
    public var recorder: ((BTSnoopRecord) -> Void)?
    /// Called for every problem the channel recovered from.
    public var diagnostics: ((HCIChannelDiagnostic) -> Void)?
    public private(set) var statistics = HCIChannelStatistics()

    private var framer: TimedH4Framer
    private var ready: [HCIPacket] = []
    private var readyIndex = 0

    /// - Parameters:
    ///   - stallTimeoutMilliseconds: how long an incomplete packet may wait for its next octet.
    ///     The default, 1000 ms, is ten times what the largest frame (1028 octets) takes at
    ///     115 200 baud, leaving room for USB latency and a busy board.
    ///   - maximumPacketLength: the framer's limit (header + payload); see `H4Framer`.
    public init(
        link: any SerialLink, side: HCIChannelSide, stallTimeoutMilliseconds: Int = 1000,
        maximumPacketLength: Int = H4Framer.defaultMaximumPacketLength,
        writeTimeoutMilliseconds: Int = SerialConfiguration.defaultWriteTimeoutMilliseconds,
        clock: HCIChannelClock = .system
    ) {
        self.link = link
        self.side = side
        self.clock = clock
        self.writeTimeoutMilliseconds = writeTimeoutMilliseconds
        framer = TimedH4Framer(stallTimeoutMilliseconds: stallTimeoutMilliseconds, maximumPacketLength: maximumPacketLength)
    }

    /// Writes one packet in H4 encoding (one write call, so it leaves in one piece) and
    /// records it.
    public func send(_ packet: HCIPacket) throws(SerialError) {
        try link.write(packet.h4Bytes, timeout: writeTimeoutMilliseconds)
        statistics.packetsSent += 1
        record(packet, side.sendDirection)
    }

    /// The next whole packet, waiting at most `milliseconds` for it in total.
    ///
    /// - Throws: `.timeout` if no complete packet arrived in time (a partial one stays buffered
    ///   unless it stalled); the link's errors (`.vanished`, `.peerClosed`, …) as they are.
    public func receive(timeout milliseconds: Int) throws(SerialError) -> HCIPacket {
        let deadline = Deadline(milliseconds: milliseconds, from: clock.monotonicMilliseconds())
        while true {
            if let packet = nextReady() { return packet }
            let bytes: [UInt8]
            do {
                bytes = try link.read(max: 4096, timeout: deadline.remaining(at: clock.monotonicMilliseconds()))
            } catch .timeout {
                if let stalled = framer.checkStall(at: clock.monotonicMilliseconds()) { handle(stalled) }
                throw .timeout(milliseconds: milliseconds)
            }
            for item in framer.feed(bytes, at: clock.monotonicMilliseconds()) { handle(item) }
        }
    }

    /// Starts framing afresh at the next octet that arrives: a host that lost sync and resets
    /// the board drops the partial packet the framer holds (a false start inside the garbled
    /// packet could otherwise swallow the Reset's answer). Returns the octets dropped.
    @discardableResult
    public func resynchronize() -> Int { framer.resynchronize() }

    /// Waits at most `milliseconds` until one of `channels` may have a packet: one is already
    /// framed and waiting, or its link has bytes (or news: a hang-up, an error, which the next
    /// `receive` reports). Returns at once if any has; a closed link counts as ready.
    public static func waitForAny(_ channels: [HCIChannel], timeout milliseconds: Int) {
        if channels.contains(where: { $0.readyIndex < $0.ready.count }) { return }
        var fds: [Int32] = []
        for c in channels {
            guard let fd = c.link.readinessDescriptor else { return }
            fds.append(fd)
        }
        _ = SystemCalls.poll(fds, milliseconds: milliseconds)
    }

    private func nextReady() -> HCIPacket? {
        guard readyIndex < ready.count else { return nil }
        let packet = ready[readyIndex]
        readyIndex += 1
        if readyIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
        }
        return packet
    }

    private func handle(_ item: TimedH4Framer.Output) {
        switch item {
        case .packet(let packet):
            statistics.packetsReceived += 1
            record(packet, side.receiveDirection)
            ready.append(packet)
        case .framingError(let error):
            statistics.framingErrors += 1
            statistics.skippedOctets = framer.skippedByteCount
            diagnostics?(.framingError(error))
        case let .stalledPartialPacket(octets, offset):
            statistics.droppedPartialPackets += 1
            statistics.droppedPartialOctets += octets
            diagnostics?(.stalledPartialPacketDropped(octets: octets, offset: offset))
        }
    }

    private func record(_ packet: HCIPacket, _ direction: BTSnoopDirection) {
        guard let recorder else { return }
        recorder(BTSnoopRecord(packet: packet, direction: direction, timestamp: clock.captureTimestamp()))
    }
}
