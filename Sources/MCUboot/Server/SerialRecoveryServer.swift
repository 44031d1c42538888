/// A simulated MCUboot serial recovery server: console bytes in, console bytes out, an image
/// slot in memory. It answers the way `boot_serial.c` does (boot_serial_input, bs_upload,
/// bs_list, bs_echo, bs_reset, bs_mcumgr_params) so flash clients can be tested without a board:
///
/// - upload (1/1 write): off 0 starts over and needs "len" ≤ the slot size; an unexpected off is
///   answered rc 0 with the offset it expects; data past "len", or missing off/data, is rc 3
///   EINVAL; only whole `writeAlignment` units are taken except for the last chunk; answers are
///   `{"rc":0,"off":n}`.
/// - image list (1/0 read): the slot, when it holds a valid image, with version and hash.
/// - echo (0/0), reset (0/5, sets `resetRequested`), parameters (0/6); anything else rc 8 ENOTSUP.
/// - requests are read with MCUboot's limits: a line of at most 127 octets before the newline,
///   a decoded frame of at most `receiveBufferSize` octets; over-long input is dropped silently.
/// - answers are CBOR maps of indefinite length, as zcbor writes them.
public struct SerialRecoveryServer: Sendable {
    public struct Configuration: Sendable {
        public var slotSize = 0x20000
        public var receiveBufferSize = 512
        public var writeAlignment = 1
        public var faults = SerialRecoveryFaults()
        public var indefiniteLengthMaps = true

        public init() {}
    }

    public let configuration: Configuration
    /// The octets received so far, in order.
    public private(set) var slot: [UInt8] = []
    /// The upload's announced total ("len" of the off-0 request).
    public private(set) var expectedLength: Int?
    /// The "sha" of the off-0 request, if any.
    public private(set) var announcedSHA: [UInt8]?
    public private(set) var resetRequested = false
    /// Requests handled and answers produced (including dropped ones).
    public private(set) var requestCount = 0
    /// Upload requests handled.
    public private(set) var uploadRequests = 0
    /// Requests whose frame could not be decoded.
    public private(set) var badFrames = 0

    private var decoder: SMPConsoleDecoder
    private var answers = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        decoder = SMPConsoleDecoder(maximumFrameLength: configuration.receiveBufferSize - 2, maximumLineLength: SMPConsoleEncoder.maximumLineLength - 1)
    }

    /// Whether the slot holds all `expectedLength` octets.
    public var uploadComplete: Bool { expectedLength.map { slot.count == $0 } ?? false }

    /// Feeds console bytes; returns the console bytes to answer with.
    public mutating func receive(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        for event in decoder.feed(bytes) {
            switch event {
            case .error: badFrames += 1
            case .packet(let request):
                guard let answer = handle(request) else { continue }
                answers += 1
                var encoded = SMPConsoleEncoder.encode(answer)
                switch configuration.faults.fate(of: answers) {
                case .drop: continue
                case .garble:
                    // Swap one base64 character for another valid one: only the CRC can tell.
                    let i = 2 + min(10, encoded.count - 4)
                    encoded[i] = encoded[i] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                case .deliver: break
                }
                out += encoded
            }
        }
        return out
    }

    /// The answer to one request, or nil for requests MCUboot ignores (ops other than read/write).
    public mutating func handle(_ request: SMPPacket) -> SMPPacket? {
        guard let op = request.operation, op == .read || op == .write else { return nil }
        requestCount += 1
        let body = try? request.body()
        let answer: CBORValue
        switch request.command {
        case .imageUpload where op == .write: answer = upload(body)
        case .imageState where op == .read: answer = .map(["images": .array(listEntries().map(\.cbor))])
        case .echo where op == .write:
            if let d = body?["d"]?.textValue { answer = .map(["r": .text(d)]) } else { answer = .map(["rc": .int(3)]) }
        case .reset where op == .write:
            resetRequested = true
            answer = .map(["rc": .int(0)])
        case .parameters where op == .read:
            answer = .map(["buf_size": .int(configuration.receiveBufferSize), "buf_count": .int(1)])
        default: answer = .map(["rc": .int(8)])
        }
        var p = SMPPacket(op: op.response, version: request.version, command: request.command, sequence: request.sequence,
                          payload: CBOREncoder.encode(answer, indefiniteLengthMaps: configuration.indefiniteLengthMaps))
        p.flags = 0
        return p
    }

    /// What the image list reports: slot 0 when it holds a complete, valid image.
    public func listEntries() -> [MCUbootSlotInfo] {
        guard uploadComplete, let image = try? MCUbootImage(bytes: slot) else { return [] }
        return [MCUbootSlotInfo(slot: 0, version: image.header.version.description, hash: image.hash, flags: ["bootable"])]
    }

    private mutating func upload(_ body: CBORValue?) -> CBORValue {
        uploadRequests += 1
        let invalid: CBORValue = .map(["rc": .int(3)])
        guard let body, let off = body["off"]?.intValue, let data = body["data"]?.bytesValue, off >= 0 else { return invalid }
        if off == 0 {
            guard let len = body["len"]?.intValue, len > 0, len <= configuration.slotSize else { return invalid }
            if let image = body["image"]?.intValue, image != 0 { return invalid }
            expectedLength = len
            announcedSHA = body["sha"]?.bytesValue
            slot = []
        }
        guard let total = expectedLength else { return invalid }
        if off != slot.count { return .map(["rc": .int(0), "off": .int(slot.count)]) }
        guard off + data.count <= total else { return invalid }
        var take = data.count
        if off + take < total { take -= take % max(1, configuration.writeAlignment) }
        slot += data.prefix(take)
        return .map(["rc": .int(0), "off": .int(slot.count)])
    }
}
