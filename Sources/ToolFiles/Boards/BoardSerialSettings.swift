import SerialTransport
import ToolJSON

/// The `serial` object of a board profile: how to recognise the board's HCI port and how to
/// set the line up. `usb_vid` (and `usb_pid`, when several products share a vendor) let
/// `reflector-emu ports` name the board behind a port; `baud` and `flow_control` are what its
/// firmware's UART expects.
public struct BoardSerialSettings: Equatable, Sendable {
    public var usbVendorID: UInt16?
    public var usbProductID: UInt16?
    public var baudRate: Int?
    public var flowControl: SerialFlowControl?

    public init(usbVendorID: UInt16? = nil, usbProductID: UInt16? = nil, baudRate: Int? = nil, flowControl: SerialFlowControl? = nil) {
        self.usbVendorID = usbVendorID
        self.usbProductID = usbProductID
        self.baudRate = baudRate
        self.flowControl = flowControl
    }

    /// Reads `{"usb_vid": "1366", "usb_pid": "1068", "baud": 1000000, "flow_control": "rts_cts"}`
    /// (every key optional; IDs are 4 hexadecimal digits as lsusb prints them).
    public init(json: JSONValue) throws(ToolError) {
        let r = try JSONObjectReader(json)
        func id(_ key: String) throws(ToolError) -> UInt16? {
            guard r.optional(key) != nil else { return nil }
            let text = try r.hex(key, digits: 4)
            return UInt16(text, radix: 16)
        }
        do {
            usbVendorID = try id("usb_vid")
            usbProductID = try id("usb_pid")
            baudRate = r.optional("baud") == nil ? nil : try r.integer("baud", in: 1200...20_000_000)
            flowControl = r.optional("flow_control") == nil
                ? nil : SerialFlowControl(rawValue: try r.choice("flow_control", oneOf: SerialFlowControl.allCases.map(\.rawValue)))
        } catch {
            if case let .badKey(key, problem) = error { throw .badKey(key: "serial.\(key)", problem: problem) }
            throw error
        }
    }

    /// Whether a port with these USB IDs is this board: the vendor must match, and the product
    /// too if the profile names one. A profile without `usb_vid` matches nothing.
    public func matches(vendorID: UInt16?, productID: UInt16?) -> Bool {
        guard let usbVendorID, let vendorID, usbVendorID == vendorID else { return false }
        guard let usbProductID else { return true }
        return productID == usbProductID
    }
}
