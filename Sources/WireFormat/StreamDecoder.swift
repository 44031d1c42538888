/// An incremental decoder of a stream that may be cut anywhere (H4 octets from a serial port,
/// SMP console text): elements in, in whatever chunks they arrive, messages out, with what it
/// holds back of an unfinished message buffered inside it. Like swift-nio's
/// `ByteToMessageDecoder`, a decoder says "need more data" by returning no message; errors are
/// messages too (a framing error is reported in stream order and decoding goes on).
///
/// Generic use only (no `any StreamDecoder`), so it costs nothing under Embedded Swift.
/// `TestSupport`'s `StreamDecoderVerifier` checks every conforming type the same way: whole,
/// one element at a time, every split point and random chunkings.
public protocol StreamDecoder {
    associatedtype Element
    associatedtype Message
    /// What the decoder holds back towards a message that is not whole yet (octets buffered,
    /// "inside a frame"); a fresh decoder's value means "nothing held".
    associatedtype Progress: Equatable

    var progress: Progress { get }

    /// Takes the next chunk of the stream and returns the messages (and errors) it completes,
    /// in stream order.
    mutating func decode(_ chunk: ArraySlice<Element>) -> [Message]
}
