/// A service's own behaviour behind the ATT server (as sdk-nrf's `ras_rrsp.c` hangs its rules
/// on its CCC and Control Point write callbacks, and Bumble's attributes raise `ATT_Error` from
/// `write_value`): the server checks the attribute's permissions, then asks the service whether
/// it takes a write, stores it, and tells the service; confirmations of indications go to it
/// too. Time comes with each call, so a service's timers run on the host's one clock.
public protocol GATTService {
    /// The ATT error a write gets before it is stored (nil: the service takes it). A Write
    /// Command that is refused is dropped, as commands get no response.
    func authorizeWrite(handle: UInt16, value: [UInt8], in server: ATTServer) -> ATTErrorCode?
    /// The server stored a client's write: what the service sends because of it.
    mutating func didWrite(handle: UInt16, value: [UInt8], in server: inout ATTServer, now: Double) -> [ATTPDU]
    /// The client confirmed an indication: what the service sends next.
    mutating func didConfirm(in server: ATTServer, now: Double) -> [ATTPDU]
    /// Time passes: what the service sends because of it.
    mutating func tick(now: Double, in server: inout ATTServer) -> [ATTPDU]
}

/// A database whose services need no behaviour of their own.
public struct NoGATTService: GATTService {
    public init() {}
    public func authorizeWrite(handle: UInt16, value: [UInt8], in server: ATTServer) -> ATTErrorCode? { nil }
    public mutating func didWrite(handle: UInt16, value: [UInt8], in server: inout ATTServer, now: Double) -> [ATTPDU] { [] }
    public mutating func didConfirm(in server: ATTServer, now: Double) -> [ATTPDU] { [] }
    public mutating func tick(now: Double, in server: inout ATTServer) -> [ATTPDU] { [] }
}

/// How a link is secured, which an attribute's permissions are checked against (Core 6.0
/// Vol 3 Part C §10.3): not at all, encrypted with an unauthenticated key (Just Works), or with
/// an authenticated one (Passkey Entry, Numeric Comparison).
public enum LinkSecurity: Int, Sendable, Comparable {
    case none, encrypted, authenticated
    public static func < (a: LinkSecurity, b: LinkSecurity) -> Bool { a.rawValue < b.rawValue }
}
