import EmulatorMath

/// One fuzz target: a decoder of outside bytes, or a state machine fed them, with what must
/// hold for every input beyond "no trap". `run` traps (through `require`) on a finding, which
/// libFuzzer reports as a crash and saves the input.
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and `reflector-fuzz` take, and the corpus folder's.
    public let name: String
    /// What the target feeds, in one line.
    public let summary: String
    /// Runs one input.
    public let run: @Sendable ([UInt8]) -> Void
    /// Seed inputs built from the tests' vectors and from in-process sessions.
    public let seeds: @Sendable () -> [[UInt8]]

    public init(_ name: String, _ summary: String, seeds: @escaping @Sendable () -> [[UInt8]], run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.run = run
        self.seeds = seeds
    }
}

/// Every target, in the order `scripts/fuzz` runs them.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        H4Target.target,
        HCICommandsTarget.target,
        ControllerTarget.target,
        BoardAirTarget.target,
        HCIEventsTarget.target,
        L2CAPTarget.target,
        ATTTarget.target,
        SMPTarget.target,
        AccessoryTarget.target,
        GATTServerTarget.target,
        HostTarget.target,
        LLPDUTarget.target,
        RASTarget.target,
        BTSnoopTarget.target,
        CaptureTarget.target,
        PacketCaptureTargets.pcap,
        PacketCaptureTargets.pcapng,
        PacketCaptureTargets.monitor,
        VendorLogTargets.ncs,
        VendorLogTargets.silabs,
        VendorLogTargets.silabsJSON,
        VendorLogTargets.silabsSerial,
        SMPConsoleTarget.target,
        CBORTarget.target,
        MCUbootImageTarget.target,
        DTFrameTarget.target,
        DLTDoAReaderTarget.target,
        FirmwareHarnessTarget.target,
        HTTPRequestTarget.target,
    ] + JSONFileTargets.all

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// A finding: what a target checks did not hold. Traps with the message, so libFuzzer keeps the input.
@inline(never)
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    fatalError("fuzz finding: \(message())", file: file, line: line)
}

/// Reads structure out of a fuzz input: flag octets, length-prefixed records. Reading past the
/// end gives zeros and empty records, so every input means something.
struct FuzzInput {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    /// The next octet, 0 past the end.
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next `n` octets (fewer at the end).
    mutating func take(_ n: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, n))
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] { take(bytes.count - offset) }

    /// A 16-bit little-endian length, then that many octets (fewer at the end).
    mutating func lengthPrefixed() -> [UInt8] {
        let n = Int(byte()) | Int(byte()) << 8
        return take(n)
    }

    /// Records `tag | length (16-bit LE) | octets` until the end (the last one may be short).
    mutating func records() -> [(tag: UInt8, octets: [UInt8])] {
        var out: [(tag: UInt8, octets: [UInt8])] = []
        while !isAtEnd {
            let tag = byte()
            out.append((tag, lengthPrefixed()))
        }
        return out
    }

    /// Records `length (16-bit LE) | octets` until the end.
    mutating func chunks() -> [[UInt8]] {
        var out: [[UInt8]] = []
        while !isAtEnd { out.append(lengthPrefixed()) }
        return out
    }

    static func lengthPrefixed(_ octets: [UInt8]) -> [UInt8] {
        let n = min(octets.count, 0xFFFF)
        return [UInt8(n & 0xFF), UInt8(n >> 8)] + octets.prefix(n)
    }

    /// The inverse of `records()`, for seeds.
    static func records(_ items: [(tag: UInt8, octets: [UInt8])]) -> [UInt8] {
        items.flatMap { [$0.tag] + lengthPrefixed($0.octets) }
    }

    /// The inverse of `chunks()`, for seeds.
    static func chunks(_ items: [[UInt8]]) -> [UInt8] { items.flatMap(lengthPrefixed) }
}

extension SplitMix64 {
    /// An integer in 0..<n (modulo reduction; the bias does not matter for chunk sizes).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
}

/// Feeds `bytes` to `feed` in chunks of 0…`longest` octets chosen by `seed`.
func inChunks(_ bytes: [UInt8], seed: UInt8, longest: Int, _ feed: (ArraySlice<UInt8>) -> Void) {
    var rng = SplitMix64(seed: UInt64(seed))
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + rng.below(longest + 1))
        feed(bytes[start..<end])
        start = end
    }
}

/// Octets as hex for finding messages (at most 64 shown).
func hex(_ bytes: some Collection<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    let shown = bytes.prefix(64).map { String([digits[Int($0 >> 4)], digits[Int($0 & 0xF)]]) }.joined()
    return bytes.count > 64 ? shown + "…(\(bytes.count))" : shown
}
