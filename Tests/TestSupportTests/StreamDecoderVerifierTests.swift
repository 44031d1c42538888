import Testing
import TestSupport

/// The verifier must catch the mistakes it exists for: these decoders each have one.
struct StreamDecoderVerifierTests {
    /// Length-prefixed messages: one octet n, then n octets. `mistake` picks a bug to plant.
    struct LengthPrefixed {
        enum Mistake { case none, dropsTheOctetAfterAChunkBoundary, emitsOnlyAtTheEndOfAChunk, forgetsPartialHeaders }
        var mistake: Mistake
        var buffer: [UInt8] = []
        var held: [[UInt8]] = []

        mutating func feed(_ chunk: ArraySlice<UInt8>) -> [[UInt8]] {
            var chunk = chunk
            if mistake == .dropsTheOctetAfterAChunkBoundary, !buffer.isEmpty, !chunk.isEmpty { chunk = chunk.dropFirst() }
            buffer += chunk
            var out: [[UInt8]] = []
            while let n = buffer.first, buffer.count > Int(n) {
                out.append(Array(buffer[1..<1 + Int(n)]))
                buffer.removeFirst(Int(n) + 1)
            }
            if mistake == .forgetsPartialHeaders, buffer.count == 1 { buffer = [] }
            if mistake == .emitsOnlyAtTheEndOfAChunk {
                held += out
                // Holds the messages back until a chunk ends on a boundary.
                if buffer.isEmpty { defer { held = [] }; return held }
                return []
            }
            return out
        }
    }

    static let pairs: [(input: [UInt8], expected: [[UInt8]])] = [([2, 7, 8], [[7, 8]]), ([0], [[]]), ([3, 1, 2, 3], [[1, 2, 3]])]

    static func verify(_ mistake: LengthPrefixed.Mistake) throws(StreamDecoderVerificationError) {
        let verifier = StreamDecoderVerifier(decoder: { LengthPrefixed(mistake: mistake) }, state: \.buffer.count, idle: 0)
        try verifier.verify(stream: pairs, partial: { $0 }) { d, chunk in d.feed(chunk) }
    }

    @Test func aCorrectDecoderPasses() throws {
        try Self.verify(.none)
    }

    @Test func lostOctetsAtChunkBoundariesAreCaught() {
        #expect(throws: StreamDecoderVerificationError.self) { try Self.verify(.dropsTheOctetAfterAChunkBoundary) }
    }

    @Test func lateOutputIsCaughtEvenWhenTheMessagesComeOutRight() {
        // Its outputs over the whole stream are right in every chunking; only the timing is not.
        #expect(throws: StreamDecoderVerificationError.self) { try Self.verify(.emitsOnlyAtTheEndOfAChunk) }
    }

    @Test func aWrongNeedMoreDataStateIsCaught() {
        #expect(throws: StreamDecoderVerificationError.self) { try Self.verify(.forgetsPartialHeaders) }
    }

    /// A reassembler that counts its input but emits at the first fragment marked last, and one
    /// that emits early, against the fragment strategies.
    struct Joiner {
        var early = false
        var parts: [Int] = []
        mutating func feed(_ f: Fragment<Int>) -> [[Int]] {
            if f.isFirst { parts = [] }
            parts += f.elements
            if f.isLast || (early && parts.count >= 2) {
                defer { parts = [] }
                return [parts]
            }
            return []
        }
    }

    @Test func fragmentStrategies() throws {
        let pairs: [(input: [Int], expected: [[Int]])] = [([1, 2, 3, 4], [[1, 2, 3, 4]]), ([], [[]]), ([5], [[5]])]
        let good = StreamDecoderVerifier(decoder: { Joiner() }, state: \.parts.count, idle: 0)
        let run = try good.verify(fragments: pairs, partial: { $0 }, maximumFragmentLength: 3, randomChunkings: 10) { j, f in j.feed(f) }
        // Per message: whole, one element per fragment, every split; then back to back, random.
        let perMessage = (1 + 1 + 5) + (1 + 1 + 1) + (1 + 1 + 2)
        #expect(run.runs == perMessage + 1 + 10)
        let early = StreamDecoderVerifier(decoder: { Joiner(early: true) }, state: \.parts.count, idle: 0)
        #expect(throws: StreamDecoderVerificationError.self) { try early.verify(fragments: pairs) { j, f in j.feed(f) } }
    }

    @Test func theErrorNamesTheStrategyAndTheCuts() {
        do {
            try Self.verify(.dropsTheOctetAfterAChunkBoundary)
            Issue.record("not caught")
        } catch {
            #expect(error.strategy == "one element at a time")
            #expect(error.description.contains("cuts ["))
        }
    }
}
