import Foundation
import HCITransport
import ReflectorFirmware
import ToolJSON

/// Reads any file `reflector-emu estimate` takes, its format chosen by content, never by name
/// (`CaptureFormat`): btsnoop streamed record by record (`CaptureFile`), the others read whole
/// (up to `maximumSize`). A file of no known format is read as btsnoop, whose error then names
/// offset 0.
public enum CaptureReader {
    /// The largest file read whole: 256 MiB.
    public static let maximumSize = 256 << 20

    public static func read(path: String, defaultRole: CSRole) throws(ToolError) -> CaptureProcedures {
        guard let file = CaptureFile.Reader(path: path) else { throw .badFile("\(path): cannot read the file") }
        let head: [UInt8]
        do throws(CaptureFile.Reader.Failure) { head = try file.read(1 << 16) } catch { throw .badFile("\(path): cannot read the file") }
        let format = CaptureFormat(head)
        switch format {
        case .btsnoop, .unknown:
            file.giveBack(head)
            return try CaptureFile.read(file, path: path, defaultRole: defaultRole)
        default:
            var bytes = head
            do throws(CaptureFile.Reader.Failure) {
                while bytes.count <= maximumSize {
                    let more = try file.read(1 << 20)
                    if more.isEmpty { break }
                    bytes += more
                }
            } catch {
                throw .badFile("\(path): cannot read the file")
            }
            guard bytes.count <= maximumSize else {
                throw .badFile("\(path): too large for a \(format.name); allowed: at most \(maximumSize) bytes (256 MiB)")
            }
            return read(bytes: bytes, format: format, defaultRole: defaultRole)
        }
    }

    /// The procedures of a whole file held in memory, its format chosen by content.
    public static func read(bytes: [UInt8], defaultRole: CSRole) -> CaptureProcedures {
        read(bytes: bytes, format: CaptureFormat(bytes), defaultRole: defaultRole)
    }

    static func read(bytes: [UInt8], format: CaptureFormat, defaultRole: CSRole) -> CaptureProcedures {
        switch format {
        case .btsnoop, .unknown: CaptureProcedures(bytes: bytes, defaultRole: defaultRole)
        case .btsnoopMonitor: packets(MonitorBTSnoopReader.parse(bytes), defaultRole: defaultRole)
        case .pcap: packets(PcapReader.parse(bytes), defaultRole: defaultRole)
        case .pcapng: packets(PcapngReader.parse(bytes), defaultRole: defaultRole)
        case .ncsLog: NCSSampleLog.read(bytes, defaultRole: defaultRole)
        case .siliconLabsLog: SiliconLabsStepLog.read(bytes)
        case .siliconLabsJSON: SiliconLabsStepJSON.read(bytes)
        case .siliconLabsSerialLog: SiliconLabsSerialLog.read(bytes)
        }
    }

    /// The packets of a whole pcap, pcapng or btsnoop-2001 file; nil for another format.
    public static func packetCapture(_ bytes: [UInt8]) -> PacketCapture? {
        switch CaptureFormat(bytes) {
        case .btsnoopMonitor: MonitorBTSnoopReader.parse(bytes)
        case .pcap: PcapReader.parse(bytes)
        case .pcapng: PcapngReader.parse(bytes)
        default: nil
        }
    }

    static func packets(_ capture: PacketCapture, defaultRole: CSRole) -> CaptureProcedures {
        var out = CaptureProcedures(defaultRole: defaultRole)
        for p in capture.packets { out.add(p) }
        out.end(capture.error)
        return out
    }
}
