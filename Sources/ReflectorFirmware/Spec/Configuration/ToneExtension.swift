/// Which side transmits a tone in a mode-2/3 step's tone-extension slot (Core 6.0 Vol 6 Part H
/// §4.x, drawn with transaction ID 3; the values match the CS Test override encoding).
public enum ToneExtension: UInt8, Sendable, Equatable, CaseIterable {
    case none = 0
    case initiator = 1
    case reflector = 2
    case both = 3

    /// Whether a device in `role` transmits a tone in its extension slot.
    public func transmits(_ role: CSRole) -> Bool {
        role == .initiator ? rawValue & 1 != 0 : rawValue & 2 != 0
    }

    /// Whether a device in `role` expects a tone in the extension slot it receives.
    public func expectsTone(receiving role: CSRole) -> Bool {
        transmits(role == .initiator ? .reflector : .initiator)
    }
}
