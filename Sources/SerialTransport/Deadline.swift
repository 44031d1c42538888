/// A moment on the monotonic clock by which a read or write must be done. Pure: the caller
/// passes the clock reading, so loops built on it are tested with a fake clock.
struct Deadline: Equatable {
    /// Monotonic milliseconds at which time is up.
    let end: Int64

    /// `milliseconds` (negative counts as 0) after `now`.
    init(milliseconds: Int, from now: Int64) {
        end = now &+ Int64(max(0, milliseconds))
    }

    /// Milliseconds left at `now`, never negative.
    func remaining(at now: Int64) -> Int {
        Int(clamping: max(0, end - now))
    }
}
