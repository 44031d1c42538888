/// One serial port the system knows, with what it says about itself: enough to tell a Nordic DK
/// (J-Link VCOM, VID 0x1366) from a USB-UART dongle, and to pick the right board profile.
///
/// Pseudo-terminals are not listed (libserialport skips devices without a parent in sysfs).
public struct SerialPortInfo: Sendable, Equatable {
    /// Device path, e.g. `/dev/ttyACM0`.
    public var path: String
    /// libserialport's description (for USB: the product string, or the driver name).
    public var description: String
    public var transport: SerialPortTransport
    public var usbVendorID: UInt16?
    public var usbProductID: UInt16?
    public var manufacturer: String?
    public var product: String?
    public var serialNumber: String?

    public init(
        path: String, description: String = "", transport: SerialPortTransport = .native,
        usbVendorID: UInt16? = nil, usbProductID: UInt16? = nil,
        manufacturer: String? = nil, product: String? = nil, serialNumber: String? = nil
    ) {
        self.path = path
        self.description = description
        self.transport = transport
        self.usbVendorID = usbVendorID
        self.usbProductID = usbProductID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
    }

    /// The ports present now, sorted by path (`sp_list_ports`). An empty list is normal (no
    /// board plugged in), not an error.
    public static func list() throws(SerialError) -> [SerialPortInfo] {
        switch LibSerialPortCalls.listPorts() {
        case .success(let ports): return ports.sorted { $0.path < $1.path }
        case .failure(let f): throw SerialError.mapping(f, during: .list, path: "")
        }
    }

    /// "1366:1068" (lowercase hex, as lsusb prints it), or nil for a port without USB IDs.
    public var usbIDs: String? {
        guard let usbVendorID else { return nil }
        return Self.hexID(usbVendorID) + ":" + (usbProductID.map(Self.hexID) ?? "????")
    }

    /// Four lowercase hexadecimal digits.
    public static func hexID(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
