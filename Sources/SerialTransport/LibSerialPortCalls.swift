import CSerialPort

/// Every libserialport call this module makes, each behind one thin function that returns the
/// result or a `LibSerialPortFailure` (the swift-system pattern, as `SystemCalls` for POSIX).
/// No decisions here: fallbacks and error meanings live in `SerialPort` and
/// `SerialError.mapping`.
///
/// `struct sp_port` is opaque, so ports are `OpaquePointer`s; the caller frees what it gets
/// (`freePort`, after `close`).
enum LibSerialPortCalls {
    /// Converts an `sp_return` (a count when ≥ 0) into a result, capturing the OS error at once.
    static func check(_ value: sp_return) -> Result<Int, LibSerialPortFailure> {
        value.rawValue >= 0 ? .success(Int(value.rawValue)) : .failure(failure(code: value.rawValue))
    }

    /// `sp_last_error_code`/`sp_last_error_message` (freed with `sp_free_error_message`) for
    /// `SP_ERR_FAIL`; a fixed text for the other codes.
    static func failure(code: Int32) -> LibSerialPortFailure {
        switch code {
        case SP_ERR_FAIL.rawValue:
            let number = sp_last_error_code()
            var text = "error \(number)"
            if let message = sp_last_error_message() {
                text = String(cString: message)
                sp_free_error_message(message)
            }
            return LibSerialPortFailure(code: code, errno: Errno(rawValue: number), message: text)
        case SP_ERR_ARG.rawValue: return LibSerialPortFailure(code: code, errno: nil, message: "invalid argument (not a port it knows)")
        case SP_ERR_MEM.rawValue: return LibSerialPortFailure(code: code, errno: nil, message: "out of memory")
        case SP_ERR_SUPP.rawValue: return LibSerialPortFailure(code: code, errno: nil, message: "not supported by the device or the OS")
        default: return LibSerialPortFailure(code: code, errno: nil, message: "error code \(code)")
        }
    }

    /// `sp_get_port_by_name`: a port structure for a device path (on Linux it needs a sysfs node
    /// under /sys/class/tty, which ptys lack).
    static func portByName(_ path: String) -> Result<OpaquePointer, LibSerialPortFailure> {
        var port: OpaquePointer?
        switch check(sp_get_port_by_name(path, &port)) {
        case .success:
            guard let port else { return .failure(LibSerialPortFailure(code: SP_ERR_MEM.rawValue, errno: nil, message: "no port returned")) }
            return .success(port)
        case .failure(let f): return .failure(f)
        }
    }

    /// `sp_free_port`.
    static func freePort(_ port: OpaquePointer) { sp_free_port(port) }

    /// `sp_open(port, SP_MODE_READ_WRITE)`: `open(O_NONBLOCK | O_NOCTTY | O_CLOEXEC)`,
    /// `flock(LOCK_EX | LOCK_NB)`, TIOCEXCL, reads the config (TIOCMGET), raw mode.
    static func open(_ port: OpaquePointer) -> Result<Void, LibSerialPortFailure> {
        check(sp_open(port, SP_MODE_READ_WRITE)).map { _ in }
    }

    /// `sp_close`.
    static func close(_ port: OpaquePointer) { _ = sp_close(port) }

    /// `sp_set_baudrate`.
    static func setBaudRate(_ port: OpaquePointer, _ baud: Int) -> Result<Void, LibSerialPortFailure> {
        check(sp_set_baudrate(port, Int32(clamping: baud))).map { _ in }
    }

    /// `sp_set_bits(8)`, `sp_set_parity(SP_PARITY_NONE)`, `sp_set_stopbits(1)`: 8N1.
    static func set8N1(_ port: OpaquePointer) -> Result<Void, LibSerialPortFailure> {
        check(sp_set_bits(port, 8))
            .flatMap { _ in check(sp_set_parity(port, SP_PARITY_NONE)) }
            .flatMap { _ in check(sp_set_stopbits(port, 1)) }
            .map { _ in }
    }

    /// `sp_set_flowcontrol` with `SP_FLOWCONTROL_NONE` or `SP_FLOWCONTROL_RTSCTS`.
    static func setFlowControl(_ port: OpaquePointer, _ flow: SerialFlowControl) -> Result<Void, LibSerialPortFailure> {
        check(sp_set_flowcontrol(port, flow == .rtsCts ? SP_FLOWCONTROL_RTSCTS : SP_FLOWCONTROL_NONE)).map { _ in }
    }

    /// `sp_get_port_handle`: the descriptor behind an open port, for `poll(2)`.
    static func handle(_ port: OpaquePointer) -> Result<Int32, LibSerialPortFailure> {
        var fd: Int32 = -1
        return check(sp_get_port_handle(port, &fd)).map { _ in fd }
    }

    /// `sp_nonblocking_read`: what is buffered now, at most `max` bytes (empty on EAGAIN and
    /// at end of file alike).
    static func nonblockingRead(_ port: OpaquePointer, max: Int) -> Result<[UInt8], LibSerialPortFailure> {
        var buffer = [UInt8](repeating: 0, count: Swift.max(1, max))
        let result = buffer.withUnsafeMutableBytes { check(sp_nonblocking_read(port, $0.baseAddress, $0.count)) }
        return result.map { n in Array(buffer.prefix(n)) }
    }

    /// `sp_nonblocking_write` of `bytes[offset...]`: how many the driver took now.
    static func nonblockingWrite(_ port: OpaquePointer, _ bytes: [UInt8], from offset: Int) -> Result<Int, LibSerialPortFailure> {
        bytes.withUnsafeBytes { check(sp_nonblocking_write(port, $0.baseAddress! + offset, $0.count - offset)) }
    }

    /// `sp_list_ports` → one `SerialPortInfo` per port (`sp_get_port_name`,
    /// `sp_get_port_description`, `sp_get_port_transport`, `sp_get_port_usb_vid_pid`,
    /// `sp_get_port_usb_manufacturer`/`_product`/`_serial`), then `sp_free_port_list`.
    static func listPorts() -> Result<[SerialPortInfo], LibSerialPortFailure> {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        if case .failure(let f) = check(sp_list_ports(&list)) { return .failure(f) }
        guard let list else { return .success([]) }
        defer { sp_free_port_list(list) }
        var infos: [SerialPortInfo] = []
        var i = 0
        while let port = list[i] {
            infos.append(info(port))
            i += 1
        }
        return .success(infos)
    }

    /// The metadata libserialport knows for one port. Strings belong to the port: copied, not
    /// freed. VID/PID exist only for USB ports (`SP_ERR_SUPP` otherwise).
    static func info(_ port: OpaquePointer) -> SerialPortInfo {
        func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            guard let pointer else { return nil }
            let s = String(cString: pointer).trimmingSpaces
            return s.isEmpty ? nil : s
        }
        let transport: SerialPortTransport
        switch sp_get_port_transport(port) {
        case SP_TRANSPORT_USB: transport = .usb
        case SP_TRANSPORT_BLUETOOTH: transport = .bluetooth
        default: transport = .native
        }
        var vid: Int32 = -1
        var pid: Int32 = -1
        var vendor: UInt16?
        var product: UInt16?
        if transport == .usb, sp_get_port_usb_vid_pid(port, &vid, &pid).rawValue == SP_OK.rawValue {
            vendor = UInt16(exactly: vid)
            product = UInt16(exactly: pid)
        }
        return SerialPortInfo(
            path: string(sp_get_port_name(port)) ?? "",
            description: string(sp_get_port_description(port)) ?? "",
            transport: transport,
            usbVendorID: vendor,
            usbProductID: product,
            manufacturer: transport == .usb ? string(sp_get_port_usb_manufacturer(port)) : nil,
            product: transport == .usb ? string(sp_get_port_usb_product(port)) : nil,
            serialNumber: transport == .usb ? string(sp_get_port_usb_serial(port)) : nil)
    }
}

extension String {
    /// Without leading and trailing spaces (USB descriptors are often padded), no Foundation.
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\n" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\n" })
        else { return "" }
        return String(scalars[first...last])
    }
}
