/// The status line for procedures a board reported nothing of (`range` and `accessory` say the
/// same): "procedure 20: …" or "procedures 20 to 28: …", counters as the board numbers them.
enum MissedProcedures {
    static func line(first: UInt16, count: Int, _ consequence: String) -> String {
        let which = count == 1 ? "procedure \(first)" : "procedures \(first) to \(first &+ UInt16(truncatingIfNeeded: count - 1))"
        return "\(which): the board reported nothing (lost on the line, or the board went silent): \(consequence)"
    }
}
