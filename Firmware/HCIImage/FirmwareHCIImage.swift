/// The reflector's controller served over H4 on the emulated board's UART2: HCI commands in,
/// events out, as an HCI UART controller build of a board does. `reflector-emu check --pty`
/// asks it whether an iPhone will range with it (scripts/firmware-test does, on QEMU's pty).
/// Commands only: the image has no link layer peer, so ACL and other packets are dropped.
@_extern(c, "fw_hci_read") func fw_hci_read() -> Int32
@_extern(c, "fw_hci_write") func fw_hci_write(_ byte: UInt8)

@main
struct FirmwareHCIImage {
    static func main() {
        var controller = CSController(capabilities: .projectReflector(antennas: 1), address: 0xC0FF_EE00_0002,
                                      connection: LinkConnection(handle: 0x0040, isCentral: false), seed: 1)
        var reader = H4CommandReader()
        while true {
            guard let command = reader.push(UInt8(truncatingIfNeeded: fw_hci_read())) else { continue }
            controller.handleCommand(command)
            for event in controller.takeEvents() {
                fw_hci_write(HCIPacketIndicator.event.rawValue)
                for b in event { fw_hci_write(b) }
            }
        }
    }
}

/// Collects one H4 command packet (`0x01 | opcode 2 | length 1 | parameters`) at a time from a
/// UART; octets outside a command packet are dropped.
struct H4CommandReader {
    private var packet: [UInt8] = []
    private var inCommand = false

    mutating func push(_ byte: UInt8) -> [UInt8]? {
        guard inCommand else {
            if byte == HCIPacketIndicator.command.rawValue {
                inCommand = true
                packet.removeAll(keepingCapacity: true)
            }
            return nil
        }
        packet.append(byte)
        guard packet.count >= 3, packet.count == 3 + Int(packet[2]) else { return nil }
        inCommand = false
        return packet
    }
}
