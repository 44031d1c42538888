/// Drives a `FlashSession` over a `ByteLink`: the only place where the upload meets real time.
/// Every read has a timeout (the session's next deadline, at most `pollMilliseconds`).
public enum FlashRunner {
    /// Runs `session` to its end. Events go to `onEvent` as they happen; the session's final
    /// phase tells the outcome. Throws `FlashError` when the session failed or the link broke.
    public static func run(_ session: inout FlashSession, over link: some ByteLink, clock: () -> UInt64,
                           pollMilliseconds: UInt64 = 200, onEvent: (FlashEvent) -> Void = { _ in }) throws(FlashError) {
        func apply(_ out: FlashSession.Output) throws(FlashError) {
            for e in out.events { onEvent(e) }
            if !out.bytes.isEmpty {
                do { try link.write(out.bytes) } catch { throw .link("serial write failed: \(error)") }
            }
        }
        try apply(session.start(now: clock()))
        while !session.isDone {
            let now = clock()
            let deadline = session.deadline ?? now
            let wait = deadline > now ? min(deadline - now, pollMilliseconds) : 0
            let bytes: [UInt8]
            do { bytes = try link.read(max: 4096, timeoutMilliseconds: Int(wait)) } catch { throw .link("serial read failed: \(error)") }
            try apply(bytes.isEmpty ? session.poll(now: clock()) : session.receive(bytes, now: clock()))
        }
        if case .failed(let e) = session.phase { throw e }
    }
}
