extension SerialError {
    /// Whether the error says the port itself went away (unplugged, a USB CDC board that reset,
    /// the program serving a pty gone), which it may come back from, rather than a setting or a
    /// timeout.
    public var meansThePortWentAway: Bool {
        switch self {
        case .vanished, .peerClosed, .notFound, .closed: true
        default: false
        }
    }
}
