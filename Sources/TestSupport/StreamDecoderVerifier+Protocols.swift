import WireFormat

/// The verifier over the two decoder protocols: a `StreamDecoder` is fed with its own `decode`,
/// a `FragmentReassembler` with its own `reassemble`, and their `progress` is the state observed,
/// so a test gives only the decoder and the messages.
extension StreamDecoderVerifier where Decoder: StreamDecoder, State == Decoder.Progress {
    /// A verifier of fresh decoders made by `decoder`; idle is a fresh decoder's progress.
    public init(_ decoder: @escaping () -> Decoder) {
        self.init(decoder: decoder, state: \.progress, idle: decoder().progress)
    }

    /// `verify(stream:feed:)` with the decoder's `decode`.
    @discardableResult
    public func verify(
        stream pairs: [(input: [Decoder.Element], expected: [Decoder.Message])], partial: ((Int) -> State)? = nil, boundariesAreIdle: Bool = true,
        pairsStandAlone: Bool = true, randomChunkings: Int = 100, seed: UInt64 = 1
    ) throws(StreamDecoderVerificationError) -> StreamDecoderVerification where Decoder.Message: Equatable {
        try verify(stream: pairs, partial: partial, boundariesAreIdle: boundariesAreIdle, pairsStandAlone: pairsStandAlone,
                   randomChunkings: randomChunkings, seed: seed) { decoder, chunk in decoder.decode(chunk) }
    }
}

extension StreamDecoderVerifier where Decoder: FragmentReassembler, State == Decoder.Progress {
    /// A verifier of fresh reassemblers made by `decoder`; idle is a fresh one's progress.
    public init(_ decoder: @escaping () -> Decoder) {
        self.init(decoder: decoder, state: \.progress, idle: decoder().progress)
    }

    /// `verify(fragments:feed:)` with the reassembler's `reassemble`: every message must come out
    /// whole at its last fragment, and nothing may be refused (an error thrown fails the check,
    /// naming it).
    ///
    /// - Parameters:
    ///   - endsAtLastElement: see `verify(fragments:feed:)`.
    ///   - messages: each message's elements (what fragments carry) and the message itself.
    ///   - cut: the sender's rule for one fragment: the reassembler's input or inputs that
    ///     carry `fragment.elements` of message `fragment.message` (an ACL packet with its
    ///     boundary flag, a segment with its header, a Result or Continue event).
    @discardableResult
    public func verify<Element>(
        messages: [(elements: [Element], message: Decoder.Message)], partial: ((Int) -> State)? = nil, maximumFragmentLength: Int? = nil,
        endsAtLastElement: Bool = false, randomChunkings: Int = 100, seed: UInt64 = 1, cut: (Fragment<Element>) -> [Decoder.Fragment]
    ) throws(StreamDecoderVerificationError) -> StreamDecoderVerification where Decoder.Message: Equatable {
        let pairs = messages.map { (input: $0.elements, expected: [Reassembled<Decoder.Message>.message($0.message)]) }
        return try verify(fragments: pairs, partial: partial, maximumFragmentLength: maximumFragmentLength,
                          endsAtLastElement: endsAtLastElement, randomChunkings: randomChunkings, seed: seed) { decoder, fragment in
            var out: [Reassembled<Decoder.Message>] = []
            for input in cut(fragment) {
                do {
                    if let message = try decoder.reassemble(input) { out.append(.message(message)) }
                } catch {
                    out.append(.refused("\(error)"))
                }
            }
            return out
        }
    }
}

/// What a reassembler gave for one fragment under the verifier: a message, or the error it threw.
public enum Reassembled<Message: Equatable>: Equatable {
    case message(Message)
    case refused(String)
}
