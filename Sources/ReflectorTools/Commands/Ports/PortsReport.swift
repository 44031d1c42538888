import Foundation
import SerialTransport
import ToolFiles
import ToolJSON

/// What `reflector-emu ports` prints, from a list of ports and the board profiles: pure, so the
/// table, the JSON and the board matching are tested with made-up ports.
public struct PortsReport {
    public var ports: [SerialPortInfo]
    public var boards: [BoardProfile]

    public init(ports: [SerialPortInfo], boards: [BoardProfile]) {
        self.ports = ports
        self.boards = boards
    }

    /// The line printed when there is no port: not an error, the usual state with no board.
    public static let noPortsLine = "No serial ports found. Plug in a board, or run a virtual board on a pseudo-terminal (it is not listed here: ptys have no USB IDs)."

    /// Names of the board profiles whose `serial.usb_vid` (and `usb_pid`, if given) match.
    public func boardNames(for port: SerialPortInfo) -> [String] {
        boards.filter { $0.serial?.matches(vendorID: port.usbVendorID, productID: port.usbProductID) ?? false }
            .map(\.name).sorted()
    }

    /// One row per port: path, VID:PID, serial number, matching boards, description.
    public var table: String {
        guard !ports.isEmpty else { return Self.noPortsLine + "\n" }
        let header = ["PORT", "VID:PID", "SERIAL", "BOARD", "DESCRIPTION"]
        let rows = ports.map { p -> [String] in
            let names = boardNames(for: p)
            var description = p.description
            if let manufacturer = p.manufacturer, !description.contains(manufacturer) {
                description = description.isEmpty ? manufacturer : "\(description) (\(manufacturer))"
            }
            return [p.path, p.usbIDs ?? "-", p.serialNumber ?? "-", names.isEmpty ? "-" : names.joined(separator: ", "), description.isEmpty ? "-" : description]
        }
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == cells.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// `{"ports": [{"boards", "description", "manufacturer", "path", "product", "serial_number",
    /// "transport", "usb_pid", "usb_vid"}]}`, keys in alphabetical order (the compact form this
    /// command has always printed); absent values are JSON null.
    public func json(_ j: inout JSONWriter) {
        j.object { j in
            j.field("ports", array: { j in
                for p in ports {
                    j.object { j in
                        j.field("boards", boardNames(for: p))
                        j.field("description", p.description)
                        j.field("manufacturer", p.manufacturer)
                        j.field("path", p.path)
                        j.field("product", p.product)
                        j.field("serial_number", p.serialNumber)
                        j.field("transport", p.transport.rawValue)
                        j.field("usb_pid", p.usbProductID.map(SerialPortInfo.hexID))
                        j.field("usb_vid", p.usbVendorID.map(SerialPortInfo.hexID))
                    }
                }
            })
        }
    }
}
