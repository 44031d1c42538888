/// The device's role in a CS configuration (Create Config `Role`: 0 initiator, 1 reflector).
public enum CSRole: UInt8, Sendable, Equatable, CaseIterable {
    case initiator = 0
    case reflector = 1
}
