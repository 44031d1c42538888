import WireFormat

/// Frames SMP packets for a serial console, the transport MCUboot's serial recovery speaks
/// (Zephyr `doc/services/device_mgmt/smp_transport.rst` "SMP over console"; MCUboot
/// `boot_serial.c` boot_serial_output and boot_serial_in_dec).
///
/// The packet becomes `length(BE16) ‖ packet ‖ CRC16/XMODEM(packet)(BE16)` with
/// length = packet + 2 (it counts the CRC, not itself); that buffer is base64-encoded and cut
/// into lines: the first starts with 0x06 0x09, each continuation with 0x04 0x14, each ends with
/// '\n'. A line is at most 127 octets including marker and newline; the base64 text of a line is
/// a multiple of 4 characters because MCUboot decodes every line on its own.
public enum SMPConsoleEncoder {
    /// First-line marker (SHELL_NLIP_PKT_START1/2).
    public static let frameStart: [UInt8] = [0x06, 0x09]
    /// Continuation-line marker (SHELL_NLIP_DATA_START1/2).
    public static let continuation: [UInt8] = [0x04, 0x14]
    /// MCUboot's and mcumgr's line limit, marker and newline included.
    public static let maximumLineLength = 127

    /// The decoded buffer a packet becomes before base64: length, packet, CRC.
    public static func frameBuffer(_ packet: SMPPacket) -> [UInt8] {
        let p = packet.encoded()
        var w = ByteWriter(capacity: p.count + 4)
        w.u16(UInt16(truncatingIfNeeded: p.count + 2), endianness: .big)
        w.octets(p)
        w.u16(CRC16.xmodem(p), endianness: .big)
        return w.bytes
    }

    /// The console bytes for one packet. `lineLength` (at least 7) bounds each line, marker and
    /// newline included.
    public static func encode(_ packet: SMPPacket, lineLength: Int = maximumLineLength) -> [UInt8] {
        let text = Base64.encode(frameBuffer(packet))
        let perLine = max(4, (lineLength - 3) / 4 * 4)
        var out: [UInt8] = []
        var i = 0
        while i < text.count {
            out += i == 0 ? frameStart : continuation
            let end = min(text.count, i + perLine)
            out += text[i..<end]
            out.append(0x0A)
            i = end
        }
        return out
    }
}
