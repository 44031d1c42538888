import EmulatorMath

/// Checks that an incremental decoder gives the same messages however its input is cut, in the
/// manner of swift-nio's `ByteToMessageDecoderVerifier`, generalised in two ways: the input
/// elements need not be octets (a reassembler of events takes steps), and the decoder's "need
/// more data" state is observed after every chunk, not only its output.
///
/// The verifier is given input/output pairs: the elements of one message (or of one stretch of
/// input, garbage included) and exactly what the decoder must say about them. It feeds them in
/// many ways and throws a `StreamDecoderVerificationError` at the first difference, naming the
/// strategy and the cut points, so a failing test can be replayed by hand.
///
/// **Streams** (`verify(stream:feed:)`: H4, the SMP console, a btsnoop file): the pairs'
/// inputs are joined into one stream and cut anywhere, also across messages:
/// - each pair alone to a fresh decoder, as one chunk (unless the pairs do not stand alone);
/// - the whole stream as one chunk (many messages in one buffer);
/// - one element at a time (the reference: after every element it records how many outputs
///   have come out and the decoder's `state`);
/// - every split point into two chunks;
/// - one chunk per pair (at message boundaries the state must be `idle`);
/// - `randomChunkings` seeded chunkings with empty chunks included;
///
/// and requires in every one: the same outputs in the same order; after each chunk that ends at
/// position p, the outputs so far and the state equal the reference's at p (a decoder may not
/// emit later, or report a different "need more data" state, because of how its input was cut);
/// the state `idle` before any input and at the end; an empty chunk changes nothing. With
/// `partial`, the reference state inside a message must also be exactly `partial(o)` after `o`
/// of its elements (for example the octets an H4 framer holds back).
///
/// **Fragments** (`verify(fragments:feed:)`: Subevent Result / Continue events, RAS segments):
/// each message's elements are cut into fragments that never span two messages, and the
/// adapter turns a fragment into what the decoder takes (a first or a continuation event; a
/// segment with its first/last bits and rolling counter). Fragmentations: the largest fragments
/// (one per message unless `maximumFragmentLength` is smaller), one element per fragment, every
/// split point of every message into two fragments (an empty fragment at either end included),
/// all messages back to back into one decoder, and `randomChunkings` seeded fragmentations of
/// all messages into one decoder. Required: a message's outputs come only with its last
/// fragment and equal its pair's; after every other fragment the state is `partial(o)` (or, if
/// `partial` is nil, anything but `idle`); after the last it is `idle`.
///
/// **The protocols.** A `StreamDecoder` or a `FragmentReassembler` (WireFormat) needs no
/// closures: `StreamDecoderVerifier { H4Framer() }` observes its `progress`, and
/// `verify(stream:)` feeds it with `decode`, `verify(messages:cut:)` with `reassemble`, `cut`
/// being only the sender's rule for one fragment (StreamDecoderVerifier+Protocols.swift).
public struct StreamDecoderVerifier<Decoder, State: Equatable> {
    private let make: () -> Decoder
    private let observe: (Decoder) -> State
    private let idle: State

    /// - Parameters:
    ///   - decoder: makes a fresh decoder.
    ///   - state: what the decoder says about input it holds back (buffered count, "inside a
    ///     frame", the partial message): anything `Equatable`.
    ///   - idle: the state of a fresh decoder, and after a complete message.
    public init(decoder: @escaping () -> Decoder, state: @escaping (Decoder) -> State, idle: State) {
        make = decoder
        observe = state
        self.idle = idle
    }

    // MARK: Streams

    /// Verifies a stream decoder; `feed` gives the decoder one chunk and returns its outputs.
    ///
    /// - Parameters:
    ///   - partial: the exact state after `o` elements of a message (0 < o < its length), when
    ///     the decoder reports it exactly.
    ///   - boundariesAreIdle: whether the state must be `idle` after each pair (false when a
    ///     pair ends in input that the decoder keeps, such as console text without a newline).
    ///   - pairsStandAlone: whether each pair, fed alone to a fresh decoder, gives its outputs
    ///     (false when a message needs what came before it: a btsnoop record its file header).
    @discardableResult
    public func verify<Element, Output: Equatable>(
        stream pairs: [(input: [Element], expected: [Output])], partial: ((Int) -> State)? = nil, boundariesAreIdle: Bool = true, pairsStandAlone: Bool = true,
        randomChunkings: Int = 100, seed: UInt64 = 1,
        feed: (inout Decoder, ArraySlice<Element>) -> [Output]
    ) throws(StreamDecoderVerificationError) -> StreamDecoderVerification {
        let stream = pairs.flatMap(\.input)
        let expected = pairs.flatMap(\.expected)
        var summary = StreamDecoderVerification()

        // The reference: one element at a time, observing after each.
        var reference = make()
        var counts = [0]
        var states = [observe(reference)]
        var dripped: [Output] = []
        counts.reserveCapacity(stream.count + 1)
        states.reserveCapacity(stream.count + 1)
        for k in stream.indices {
            dripped += feed(&reference, stream[k...k])
            counts.append(dripped.count)
            states.append(observe(reference))
        }
        summary.count(stream.count)
        let drip = "one element at a time"
        try check(states[0] == idle, drip, [], "a fresh decoder's state is \(states[0]), not idle \(idle)")
        try compare(dripped, expected, drip, Array(1..<max(1, stream.count)))
        try check(states[stream.count] == idle, drip, [], "state at the end is \(states[stream.count]), not idle \(idle)")

        // Where each pair starts and ends in the stream; inside-message states when they are exact.
        var starts: [Int] = []
        var position = 0
        for pair in pairs {
            starts.append(position)
            if let partial {
                for o in 1..<max(1, pair.input.count) {
                    let actual = states[position + o]
                    try check(actual == partial(o), drip, [], "state after \(o) of \(pair.input.count) elements of pair \(starts.count - 1) is \(actual), not \(partial(o))")
                }
            }
            position += pair.input.count
            if boundariesAreIdle {
                try check(states[position] == idle, drip, [], "state after pair \(starts.count - 1) (position \(position)) is \(states[position]), not idle")
            }
        }

        // Runs `cuts` (increasing positions, repeats meaning empty chunks) and compares every
        // chunk's end with the reference.
        func run(_ strategy: String, _ cuts: [Int]) throws(StreamDecoderVerificationError) {
            var decoder = make()
            var outputs: [Output] = []
            var start = 0
            for end in cuts + [stream.count] {
                let before = observe(decoder)
                outputs += feed(&decoder, stream[start..<end])
                let state = observe(decoder)
                if start == end {
                    try check(state == before && outputs.count == counts[end], strategy, cuts, "an empty chunk at \(end) changed the decoder")
                }
                try check(outputs.count == counts[end], strategy, cuts,
                          "after a chunk ending at \(end): \(outputs.count) outputs, \(counts[end]) when fed one element at a time")
                try check(state == states[end], strategy, cuts, "after a chunk ending at \(end): state \(state), \(states[end]) when fed one element at a time")
                start = end
            }
            try compare(outputs, expected, strategy, cuts)
            summary.count(stream.count)
        }

        for (k, pair) in pairs.enumerated() where pairsStandAlone {
            var decoder = make()
            let outputs = feed(&decoder, pair.input[...])
            try compare(outputs, pair.expected, "pair \(k) alone", [])
            if boundariesAreIdle {
                try check(observe(decoder) == idle, "pair \(k) alone", [], "state \(observe(decoder)) after it, not idle")
            }
            summary.count(pair.input.count)
        }
        try run("all at once", [])
        for cut in 0...stream.count { try run("split at \(cut)", [cut]) }
        try run("one chunk per pair", Array(starts.dropFirst()))
        var rng = SplitMix64(seed: seed)
        for k in 0..<randomChunkings {
            try run("random chunking \(k) (seed \(seed))", Self.randomCuts(count: stream.count, using: &rng))
        }
        return summary
    }

    // MARK: Fragments

    /// Verifies a reassembler; `feed` gives it one fragment of one message and returns its outputs.
    ///
    /// - Parameters:
    ///   - partial: the exact state after `o` of a message's elements have been fed in
    ///     fragments that did not finish it (`o` may be 0 after an empty first fragment).
    ///   - maximumFragmentLength: the most elements one fragment may carry (the steps that fit
    ///     one HCI event, say); longer fragments are cut into pieces of at most that many.
    ///   - endsAtLastElement: whether a message is whole with its last element, whatever
    ///     fragments follow (an L2CAP frame, whose header says its length, not its last
    ///     fragment): its outputs then come with the fragment that carries the last element,
    ///     and the empty fragments after it must leave the decoder idle and say nothing.
    @discardableResult
    public func verify<Element, Output: Equatable>(
        fragments pairs: [(input: [Element], expected: [Output])], partial: ((Int) -> State)? = nil, maximumFragmentLength: Int? = nil,
        endsAtLastElement: Bool = false, randomChunkings: Int = 100, seed: UInt64 = 1,
        feed: (inout Decoder, Fragment<Element>) -> [Output]
    ) throws(StreamDecoderVerificationError) -> StreamDecoderVerification {
        precondition(maximumFragmentLength.map { $0 > 0 } ?? true, "maximumFragmentLength must be positive")
        var summary = StreamDecoderVerification()

        /// Feeds messages `indices`, message k cut into fragments of `lengths[k]` elements.
        func run(_ strategy: String, _ messages: [Int], _ lengths: [[Int]]) throws(StreamDecoderVerificationError) {
            var decoder = make()
            var fed = 0
            try check(observe(decoder) == idle, strategy, [], "a fresh decoder's state is \(observe(decoder)), not idle")
            for (m, sizes) in zip(messages, lengths) {
                let input = pairs[m].input
                let pieces = Self.limited(sizes, to: maximumFragmentLength)
                var start = 0
                var outputs: [Output] = []
                let completing = endsAtLastElement ? (pieces.lastIndex { $0 > 0 } ?? pieces.count - 1) : pieces.count - 1
                for (index, size) in pieces.enumerated() {
                    let end = start + size
                    let fragment = Fragment(elements: input[start..<end], index: index, isFirst: index == 0,
                                            isLast: index == pieces.count - 1, message: m)
                    let out = feed(&decoder, fragment)
                    let state = observe(decoder)
                    let cuts = Self.offsets(pieces)
                    if index == completing {
                        outputs += out
                        try check(state == idle, strategy, cuts, "message \(m): state \(state) after its last fragment, not idle")
                    } else if index > completing {
                        try check(out.isEmpty && state == idle, strategy, cuts,
                                  "message \(m): the empty fragment \(index) after its last element gave \(Self.describe(out)) and state \(state)")
                    } else {
                        try check(out.isEmpty, strategy, cuts, "message \(m): fragment \(index) (elements \(start)..<\(end)) gave outputs before the last: \(Self.describe(out))")
                        if let partial {
                            try check(state == partial(end), strategy, cuts, "message \(m): state after \(end) elements is \(state), not \(partial(end))")
                        } else {
                            try check(state != idle, strategy, cuts, "message \(m): state after \(end) of \(input.count) elements is idle")
                        }
                    }
                    start = end
                }
                try compare(outputs, pairs[m].expected, "\(strategy), message \(m)", Self.offsets(pieces))
                fed += input.count
            }
            summary.count(fed)
        }

        let all = Array(pairs.indices)
        for m in all {
            let n = pairs[m].input.count
            try run("whole message \(m)", [m], [[n]])
            try run("message \(m) one element per fragment", [m], [n == 0 ? [0] : Array(repeating: 1, count: n)])
            for cut in 0...n { try run("message \(m) split at \(cut)", [m], [[cut, n - cut]]) }
        }
        try run("all messages back to back", all, all.map { [pairs[$0].input.count] })
        var rng = SplitMix64(seed: seed)
        for k in 0..<randomChunkings {
            let lengths = all.map { m in Self.randomLengths(count: pairs[m].input.count, using: &rng) }
            try run("random fragmentation \(k) (seed \(seed))", all, lengths)
        }
        return summary
    }

    // MARK: Helpers

    /// Increasing cut positions in 0...count, empty chunks (repeated positions) included.
    public static func randomCuts(count: Int, using rng: inout SplitMix64) -> [Int] {
        var cuts: [Int] = []
        var at = 0
        let longest = max(1, count / 4)
        while true {
            at += rng.below(longest + 1)
            if at >= count { return cuts }
            cuts.append(at)
        }
    }

    /// Fragment lengths that add up to `count`, with empty fragments now and then.
    static func randomLengths(count: Int, using rng: inout SplitMix64) -> [Int] {
        var lengths: [Int] = []
        var left = count
        repeat {
            let n = rng.below(4) == 0 ? 0 : min(left, 1 + rng.below(max(1, count / 2)))
            lengths.append(n)
            left -= n
        } while left > 0
        return lengths
    }

    /// Cuts every length above `maximum` into pieces of at most `maximum` (keeping empty ones).
    static func limited(_ lengths: [Int], to maximum: Int?) -> [Int] {
        guard let maximum else { return lengths }
        var out: [Int] = []
        for n in lengths {
            if n <= maximum { out.append(n); continue }
            var left = n
            while left > 0 {
                out.append(min(left, maximum))
                left -= maximum
            }
        }
        return out
    }

    static func offsets(_ lengths: [Int]) -> [Int] {
        var out: [Int] = []
        var at = 0
        for n in lengths.dropLast() {
            at += n
            out.append(at)
        }
        return out
    }

    private func check(_ condition: Bool, _ strategy: String, _ cuts: [Int], _ message: @autoclosure () -> String) throws(StreamDecoderVerificationError) {
        guard !condition else { return }
        throw StreamDecoderVerificationError(strategy: strategy, cuts: cuts, message: message())
    }

    private func compare<Output: Equatable>(_ actual: [Output], _ expected: [Output], _ strategy: String, _ cuts: [Int]) throws(StreamDecoderVerificationError) {
        guard actual != expected else { return }
        let k = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
        let got = k < actual.count ? "\(actual[k])" : "nothing"
        let wanted = k < expected.count ? "\(expected[k])" : "nothing"
        throw StreamDecoderVerificationError(
            strategy: strategy, cuts: cuts,
            message: "\(actual.count) outputs where \(expected.count) were expected; first difference at output \(k): got \(Self.clip(got)), expected \(Self.clip(wanted))")
    }

    static func describe<Output>(_ outputs: [Output]) -> String { clip(outputs.map { "\($0)" }.joined(separator: ", ")) }

    static func clip(_ text: String) -> String { text.count <= 300 ? text : String(text.prefix(300)) + "…" }
}

/// One fragment of one message, as `StreamDecoderVerifier.verify(fragments:feed:)` hands it to
/// the adapter that turns it into the reassembler's input.
public struct Fragment<Element> {
    /// The message's elements this fragment carries (indices are the message's own).
    public var elements: ArraySlice<Element>
    /// The fragment's place in its message: 0 for the first.
    public var index: Int
    public var isFirst: Bool
    public var isLast: Bool
    /// Which pair the message is.
    public var message: Int
}

/// How much a verification did, for tests that want to see that it ran.
public struct StreamDecoderVerification: Sendable, Equatable {
    /// Decoder runs (fresh decoders fed the whole input of their strategy).
    public var runs = 0
    /// Elements fed over all runs.
    public var elementsFed = 0

    mutating func count(_ elements: Int) {
        runs += 1
        elementsFed += elements
    }
}

/// Where a decoder gave different outputs or states for differently cut input.
public struct StreamDecoderVerificationError: Error, CustomStringConvertible {
    /// How the input was fed ("split at 17", "random chunking 3 (seed 1)", …).
    public var strategy: String
    /// The chunk boundaries (stream positions, or fragment offsets within the message).
    public var cuts: [Int]
    public var message: String

    public var description: String {
        let shown = cuts.count <= 40 ? "\(cuts)" : "\(Array(cuts.prefix(40))) and \(cuts.count - 40) more"
        return "\(strategy) (cuts \(shown)): \(message)"
    }
}
