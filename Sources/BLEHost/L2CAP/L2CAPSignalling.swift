/// The LE signalling channel's commands as a host that supports none of them answers them
/// (Core 6.0 Vol 3 Part A §4): each request gets Command Reject with reason Command Not
/// Understood (§4.1); responses, rejects and malformed commands are dropped.
public enum L2CAPSignalling {
    /// Command codes (§4): Command Reject, and the responses a peer may send.
    public static let commandReject: UInt8 = 0x01
    static let responses: Set<UInt8> = [
        commandReject, 0x07 /* Disconnection Response */, 0x13 /* Connection Parameter Update Response */,
        0x15 /* LE Credit Based Connection Response */, 0x16 /* Flow Control Credit Indication */,
        0x18 /* Credit Based Connection Response */, 0x1A /* Credit Based Reconfigure Response */,
    ]
    /// Command Reject's reason: Command Not Understood.
    static let commandNotUnderstood: UInt16 = 0x0000

    /// The Command Reject for one signalling command (Code 1 | Identifier 1 | Length 2 | Reason 2),
    /// or nil when it gets no answer.
    public static func reject(_ command: [UInt8]) -> [UInt8]? {
        guard command.count >= 4 else { return nil }
        let code = command[0], identifier = command[1]
        guard !responses.contains(code), identifier != 0 else { return nil }
        return [commandReject, identifier, 0x02, 0x00, UInt8(commandNotUnderstood & 0xFF), UInt8(commandNotUnderstood >> 8)]
    }
}
