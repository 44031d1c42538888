import ReflectorFirmware

/// An event that is another event's fields and more, as LE Enhanced Connection Complete is LE
/// Connection Complete with two addresses (Core 6.0 Vol 4 Part E §7.7.65.10): it holds the
/// other (`connection`) and reads its fields through (`e.role`, `e.peerAddress`), so each field
/// is declared once, on the form that introduced it.
@dynamicMemberLookup
public protocol HCIComposedParameters {
    associatedtype Composed
    var connection: Composed { get set }
}

extension HCIComposedParameters {
    public subscript<T>(dynamicMember key: WritableKeyPath<Composed, T>) -> T {
        get { connection[keyPath: key] }
        set { connection[keyPath: key] = newValue }
    }
}
