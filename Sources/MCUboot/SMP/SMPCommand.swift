/// The (group, command ID) pairs MCUboot's serial recovery implements (`boot_serial.c`
/// boot_serial_input; group IDs from Zephyr `smp_protocol.rst`, MGMT_GROUP_ID_*).
public struct SMPCommand: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var group: UInt16
    public var id: UInt8

    /// OS group 0, ID 0: echo `{"d":text}` → `{"r":text}`.
    public static let echo = SMPCommand(group: 0, id: 0)
    /// OS group 0, ID 5: reset (answers, then reboots after about 250 ms).
    public static let reset = SMPCommand(group: 0, id: 5)
    /// OS group 0, ID 6: MCUmgr parameters `{"buf_size", "buf_count"}`.
    public static let parameters = SMPCommand(group: 0, id: 6)
    /// Image group 1, ID 0: image state (read: the image list).
    public static let imageState = SMPCommand(group: 1, id: 0)
    /// Image group 1, ID 1: image upload.
    public static let imageUpload = SMPCommand(group: 1, id: 1)

    public var description: String {
        switch self {
        case .echo: return "echo"
        case .reset: return "reset"
        case .parameters: return "parameters"
        case .imageState: return "image list"
        case .imageUpload: return "image upload"
        default: return "group \(group) command \(id)"
        }
    }
}
