/// A reassembler of messages that a sender cut into fragments, each fragment arriving whole (ACL
/// packets into an L2CAP frame, Subevent Result and Continue events into a subevent, RAS
/// segments into a ranging-data body): a fragment in, the message it completes or nothing out,
/// and a typed error for a fragment that cannot belong where it came.
///
/// Generic use only (no `any FragmentReassembler`), so it costs nothing under Embedded Swift.
/// `TestSupport`'s `StreamDecoderVerifier` checks every conforming type the same way: whole
/// messages, one element per fragment, every split point of every message, messages back to
/// back and random fragmentations.
public protocol FragmentReassembler {
    associatedtype Fragment
    associatedtype Message
    associatedtype Failure: Error
    /// What the reassembler holds of a message in progress (its elements so far); a fresh
    /// reassembler's value means "no message begun".
    associatedtype Progress: Equatable

    var progress: Progress { get }

    /// Takes one fragment: the message it completes, or nil when the message needs more.
    mutating func reassemble(_ fragment: Fragment) throws(Failure) -> Message?
}
