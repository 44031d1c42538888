/// What an Attribute Protocol opcode is (Core 6.0 Vol 3 Part F §3.3, §3.4.8), as Zephyr's
/// `att_op_get_type` classifies it: a server answers requests (with an Error Response when it
/// cannot serve them), and never answers commands, responses, notifications, indications or
/// confirmations. An opcode this table does not name is a command when its Command Flag (bit
/// 6) is set, else a request.
public enum ATTOpcodeKind: Sendable, Equatable {
    case request, command, response, notification, indication, confirmation

    public init(opcode: UInt8) {
        switch opcode {
        // Error, Exchange MTU, Find Information, Find By Type Value, Read By Type, Read, Read
        // Blob, Read Multiple, Read By Group Type, Write, Prepare Write, Execute Write and Read
        // Multiple Variable Responses.
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21: self = .response
        case 0x1B, 0x23: self = .notification  // Handle Value Notification, Multiple Handle Value Notification
        case 0x1D: self = .indication
        case 0x1E: self = .confirmation
        default: self = opcode & 0x40 != 0 ? .command : .request
        }
    }
}

extension ATTPDU {
    public var kind: ATTOpcodeKind { ATTOpcodeKind(opcode: opcode) }
}
