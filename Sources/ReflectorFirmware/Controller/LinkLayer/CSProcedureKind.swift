/// The CS link-layer procedures that cannot overlap on a connection, and what a collision
/// between them is called (Core 6.0 Vol 6 Part B §5.3, procedure collisions).
///
/// LL control PDUs are not handled in real time, so both sides may start procedures that cannot
/// run together before either hears of the other's. Two procedures of the same kind collide
/// (two configuration procedures, two CS start procedures, two repeat terminations): the error
/// code is LL Procedure Collision (0x23). A configuration procedure and a start procedure also
/// collide, as a different transaction (0x2A): the start names a configuration the other may
/// be creating or removing. The central rejects the peripheral's procedure with
/// LL_REJECT_EXT_IND and that code and continues its own; the peripheral gives way, answers
/// the central's, and reports its own failure with the code when the reject arrives. (The
/// capabilities, FAE table, version and security procedures collide with nothing here: they
/// need no instant and change no shared CS state.)
enum CSProcedureKind: Sendable, Equatable {
    case configuration
    case start
    case terminate

    /// The code the central rejects the peer's `remote` procedure with while its own procedure
    /// of this kind waits for the peer; nil when the two can run together.
    func collisionCode(with remote: CSProcedureKind) -> HCIStatus? {
        if self == remote { return .llProcedureCollision }
        switch (self, remote) {
        case (.configuration, .start), (.start, .configuration): return .differentTransactionCollision
        default: return nil
        }
    }
}
