/// A firmware upload to MCUboot's serial recovery as a pure state machine: bytes in, bytes out,
/// time passed in (milliseconds from any monotonic clock). No I/O, no clock, no sleeping, so it
/// runs the same against a simulated bootloader in a test and against a board via `FlashRunner`.
///
/// Sequence: optionally the image list (group 1, command 0, read), then upload requests
/// (group 1, command 1, write; Zephyr `smp_group_1.rst`, MCUboot `boot_serial.c` bs_upload)
/// until the bootloader reports `off` == image size, then optionally reset (group 0, command 5).
///
/// - The first chunk (off 0) also carries "len" (the file size), "sha" (SHA-256 of the whole
///   file) and "image"; later ones carry only "off" and "data".
/// - The next chunk always starts at the `off` the bootloader returns: MCUboot writes whole flash
///   alignment units only and answers an unexpected offset with the offset it expects, so this
///   both handles partial writes and resumes an interrupted upload.
/// - Each request waits `timeoutMilliseconds` (the first chunk `firstChunkTimeoutMilliseconds`,
///   because MCUboot erases the slot before answering it). A timeout, or a garbled answer (bad
///   base64, CRC, length or CBOR), resends the request with a new sequence number, up to
///   `retries` times; answers with another sequence number are stale and ignored.
public struct FlashSession: Sendable {
    public struct Configuration: Sendable {
        /// The bootloader's reassembly buffer for one decoded frame (MCUBOOT_SERIAL_MAX_RECEIVE_SIZE:
        /// 512 in `boot_serial.c`, Zephyr's Kconfig default 1024). Chunks are sized to fit it.
        public var receiveBufferSize = 512
        /// An upper bound on the data octets per request, below what the buffer allows.
        public var maximumChunkSize: Int? = nil
        /// Resends per request after a lost or garbled answer.
        public var retries = 3
        public var timeoutMilliseconds: UInt64 = 3_000
        /// MCUboot erases the whole slot before answering the first chunk (smpclient waits 40 s).
        public var firstChunkTimeoutMilliseconds: UInt64 = 40_000
        public var queryImageList = true
        public var reset = true
        /// Send the whole-file SHA-256 with the first chunk (MCUboot ignores it; the Zephyr
        /// application server uses it to resume and check).
        public var sendSHA = true
        /// The image number for multi-image bootloaders.
        public var imageNumber = 0

        public init() {}
    }

    /// What the session is doing.
    public enum Phase: Equatable, Sendable {
        case notStarted, listing, uploading, resetting, finished
        case failed(FlashError)
    }

    /// Bytes to write to the link and events to show, from one call.
    public struct Output: Equatable, Sendable {
        public var bytes: [UInt8] = []
        public var events: [FlashEvent] = []
    }

    /// Margin under the receive buffer: the mynewt port estimates a line's decoded size from its
    /// base64 length (padding included) and refuses to reach the buffer's end.
    public static let bufferMargin = 4

    public let configuration: Configuration
    public let image: [UInt8]
    private let fileSHA: [UInt8]
    public private(set) var phase = Phase.notStarted
    /// The offset the bootloader expects next.
    public private(set) var offset = 0
    /// Resends so far, over the whole session.
    public private(set) var totalRetries = 0
    /// The image list the bootloader gave, if asked and answered.
    public private(set) var images: [MCUbootSlotInfo]?

    private var decoder: SMPConsoleDecoder
    private var sequence: UInt8 = 0
    private var pending: (packet: SMPPacket, deadline: UInt64)?
    private var attempts = 0
    private var sameOffsetAnswers = 0
    private var uploadStart: UInt64?

    public init(image: [UInt8], configuration: Configuration = Configuration()) {
        self.image = image
        self.configuration = configuration
        fileSHA = configuration.sendSHA ? SHA256.hash(image) : []
        decoder = SMPConsoleDecoder(maximumFrameLength: max(4096, configuration.receiveBufferSize * 4))
    }

    public init(image: MCUbootImage, configuration: Configuration = Configuration()) {
        self.init(image: image.bytes, configuration: configuration)
    }

    public var isDone: Bool {
        switch phase {
        case .finished, .failed: return true
        default: return false
        }
    }

    /// When `poll` must be called next if nothing arrives (nil when done).
    public var deadline: UInt64? { isDone ? nil : pending?.deadline }

    /// Octets acknowledged and rate at `now`.
    public func progress(now: UInt64) -> FlashProgress {
        FlashProgress(acknowledged: offset, total: image.count, elapsedMilliseconds: uploadStart.map { now >= $0 ? now - $0 : 0 } ?? 0)
    }

    // MARK: Driving

    /// Sends the first request.
    public mutating func start(now: UInt64) -> Output {
        guard phase == .notStarted else { return Output() }
        var out = Output()
        if configuration.queryImageList {
            phase = .listing
            send(.read, .imageState, body: .map([]), now: now, into: &out)
        } else {
            beginUpload(now: now, into: &out)
        }
        return out
    }

    /// Feeds bytes read from the link.
    public mutating func receive(_ bytes: some Sequence<UInt8>, now: UInt64) -> Output {
        var out = Output()
        for event in decoder.feed(bytes) {
            guard !isDone, let p = pending else { break }
            switch event {
            case .error(let e):
                // Probably our answer, damaged on the way: ask again rather than wait.
                resend(reason: e.description, now: now, into: &out)
            case .packet(let answer):
                guard answer.sequence == p.packet.sequence, answer.command == p.packet.command,
                      answer.op == (p.packet.operation?.response.rawValue ?? 0xFF)
                else { continue }  // stale or unrelated
                let body: CBORValue
                do { body = try answer.body() } catch {
                    resend(reason: "answer is not CBOR (\(error.description))", now: now, into: &out)
                    continue
                }
                handle(body, to: p.packet.command, now: now, into: &out)
            }
        }
        out.events += poll(now: now).events
        return out
    }

    /// Handles the passing of time: resends a request whose answer is overdue.
    public mutating func poll(now: UInt64) -> Output {
        var out = Output()
        if !isDone, let p = pending, now >= p.deadline {
            resend(reason: "no answer within \(timeout(for: p.packet)) ms", now: now, into: &out)
        }
        return out
    }

    // MARK: Requests

    /// The largest data chunk a request at `offset` can carry so that the whole decoded frame
    /// (length 2 + SMP header 8 + CBOR + CRC 2) stays within `receiveBufferSize − bufferMargin`.
    /// With the default 512-octet buffer that is 430 octets for the first chunk of an image
    /// under 64 KiB (it also carries image, len and sha) and 478–482 for the others (the "off"
    /// value takes 1 to 5 octets). Lines stay within 127 octets regardless: the framing splits a
    /// frame into as many lines as it needs (a 508-octet frame is 6 lines).
    public func maximumChunk(at offset: Int) -> Int {
        let budget = configuration.receiveBufferSize - Self.bufferMargin - 2 - SMPPacket.headerSize - 2
        let emptyBody = CBOREncoder.encode(uploadBody(offset: offset, data: []))
        // The empty bstr head is 1 octet; a longer one needs headSize(n) octets.
        var n = max(0, budget - emptyBody.count)
        while n > 0, emptyBody.count - 1 + CBOREncoder.headSize(argument: UInt64(n)) + n > budget { n -= 1 }
        if let cap = configuration.maximumChunkSize { n = min(n, cap) }
        return max(0, min(n, image.count - offset))
    }

    func uploadBody(offset: Int, data: [UInt8]) -> CBORValue {
        var entries: [CBORMapEntry] = []
        if offset == 0 {
            entries.append(CBORMapEntry(key: "image", value: .int(configuration.imageNumber)))
            entries.append(CBORMapEntry(key: "len", value: .int(image.count)))
            if configuration.sendSHA { entries.append(CBORMapEntry(key: "sha", value: .bytes(fileSHA))) }
        }
        entries.append(CBORMapEntry(key: "off", value: .int(offset)))
        entries.append(CBORMapEntry(key: "data", value: .bytes(data)))
        return .map(entries)
    }

    private func timeout(for packet: SMPPacket) -> UInt64 {
        packet.command == .imageUpload && phase == .uploading && offset == 0 ? configuration.firstChunkTimeoutMilliseconds : configuration.timeoutMilliseconds
    }

    private mutating func send(_ op: SMPOperation, _ command: SMPCommand, body: CBORValue, now: UInt64, into out: inout Output) {
        let packet = SMPPacket(op: op, command: command, sequence: sequence, body: body)
        sequence &+= 1
        attempts = 1
        pending = (packet, 0)
        pending!.deadline = now + timeout(for: packet)
        out.bytes += SMPConsoleEncoder.encode(packet)
    }

    private mutating func sendChunk(now: UInt64, into out: inout Output) {
        let n = maximumChunk(at: offset)
        let body = uploadBody(offset: offset, data: Array(image[offset..<(offset + n)]))
        send(.write, .imageUpload, body: body, now: now, into: &out)
    }

    private mutating func resend(reason: String, now: UInt64, into out: inout Output) {
        guard let p = pending else { return }
        guard attempts <= configuration.retries else {
            return fail(.noResponse(command: p.packet.command.description, attempts: attempts), into: &out)
        }
        attempts += 1
        totalRetries += 1
        var packet = p.packet
        packet.sequence = sequence
        sequence &+= 1
        pending = (packet, now + timeout(for: packet))
        out.bytes += SMPConsoleEncoder.encode(packet)
        out.events.append(.retry(command: packet.command.description, attempt: attempts, reason: reason))
    }

    private mutating func fail(_ e: FlashError, into out: inout Output) {
        phase = .failed(e)
        pending = nil
        out.events.append(.failed(e))
    }

    private mutating func beginUpload(now: UInt64, into out: inout Output) {
        phase = .uploading
        uploadStart = now
        offset = 0
        sendChunk(now: now, into: &out)
    }

    // MARK: Answers

    private mutating func handle(_ body: CBORValue, to command: SMPCommand, now: UInt64, into out: inout Output) {
        let rc = body["rc"]?.intValue ?? 0  // an absent rc means success
        switch phase {
        case .listing:
            if rc == 0, let list = MCUbootSlotInfo.list(from: body) {
                images = list
                out.events.append(.imageList(list))
            } else {
                out.events.append(.imageListUnavailable(rc: rc))
            }
            beginUpload(now: now, into: &out)
        case .uploading:
            guard rc == 0 else { return fail(.refused(command: "image upload at offset \(offset)", rc: rc), into: &out) }
            guard let off = body["off"]?.intValue, off >= 0 else {
                return fail(.badResponse(command: "image upload", reason: "no \"off\" in the answer"), into: &out)
            }
            guard off <= image.count else { return fail(.offsetOutOfRange(offset: off, size: image.count), into: &out) }
            if off == offset {
                sameOffsetAnswers += 1
                guard sameOffsetAnswers <= configuration.retries else {
                    return fail(.stalled(offset: off, attempts: sameOffsetAnswers), into: &out)
                }
            } else {
                sameOffsetAnswers = 0
            }
            offset = off
            if off == image.count {
                out.events.append(.uploadComplete(response: body, progress: progress(now: now)))
                if configuration.reset {
                    phase = .resetting
                    send(.write, .reset, body: .map([]), now: now, into: &out)
                } else {
                    finish(into: &out)
                }
            } else {
                out.events.append(.progress(progress(now: now)))
                sendChunk(now: now, into: &out)
            }
        case .resetting:
            out.events.append(.resetAnswered(rc: rc))
            guard rc == 0 else { return fail(.refused(command: "reset", rc: rc), into: &out) }
            finish(into: &out)
        default:
            break
        }
    }

    private mutating func finish(into out: inout Output) {
        phase = .finished
        pending = nil
        out.events.append(.finished)
    }
}
