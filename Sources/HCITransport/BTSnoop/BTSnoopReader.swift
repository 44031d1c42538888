import ReflectorFirmware
import WireFormat

/// Parses a btsnoop capture held in memory (Frontline "BTSnoop File Format"; datalinks 1001 and
/// 1002). Pure and total: any octets give a result, never a trap; the first malformed spot ends
/// the parse with a typed error that carries its offset, and the records before it are kept.
///
/// - 1002 (H4): the first data octet is the packet indicator.
/// - 1001 (un-encapsulated): the flags give the type, as Wireshark reads them: bit 1 set means
///   a command when sent (bit 0 clear) and an event when received; bit 1 clear means ACL data
///   (SCO and ISO cannot be told apart from ACL in this datalink).
public enum BTSnoopReader {
    /// Record header octets: original length, included length, flags, drops (4 each), timestamp (8).
    public static let recordHeaderLength = 24

    public static func parse(_ bytes: [UInt8]) -> BTSnoopParseResult {
        let headerLength = BTSnoopFileHeader.length
        guard bytes.count >= headerLength else {
            return BTSnoopParseResult(header: nil, records: [], error: .truncatedFileHeader(available: bytes.count))
        }
        guard bytes[0..<8].elementsEqual(BTSnoopFileHeader.identification) else {
            return BTSnoopParseResult(header: nil, records: [], error: .badIdentification)
        }
        // The length is checked: these reads cannot run short.
        var fields = ByteReader(bytes[8..<headerLength])
        let version = (try? fields.u32("Version_Number", endianness: .big)) ?? 0
        guard version == BTSnoopFileHeader.currentVersion else {
            return BTSnoopParseResult(header: nil, records: [], error: .unsupportedVersion(version))
        }
        let datalink = BTSnoopDatalink(rawValue: (try? fields.u32("Datalink_Type", endianness: .big)) ?? 0)
        guard datalink.isSupported else {
            return BTSnoopParseResult(header: nil, records: [], error: .unsupportedDatalink(datalink.rawValue))
        }
        let header = BTSnoopFileHeader(version: version, datalink: datalink)

        var records: [BTSnoopRecord] = []
        var offset = headerLength
        while offset < bytes.count {
            switch record(in: bytes, at: offset, datalink: datalink) {
            case .success(let (record, next)):
                records.append(record)
                offset = next
            case .failure(let error):
                return BTSnoopParseResult(header: header, records: records, error: error)
            }
        }
        return BTSnoopParseResult(header: header, records: records, error: nil)
    }

    /// Decodes the record starting at `offset` and returns it with the offset of the next one.
    private static func record(
        in bytes: [UInt8], at offset: Int, datalink: BTSnoopDatalink
    ) -> Result<(BTSnoopRecord, Int), BTSnoopError> {
        let available = bytes.count - offset
        guard available >= recordHeaderLength else {
            return .failure(.truncatedRecordHeader(offset: offset, available: available))
        }
        let header: (original: UInt32, included: UInt32, flags: UInt32, drops: UInt32, timestamp: Int64)
        var fields = ByteReader(bytes[offset..<(offset + recordHeaderLength)])
        do throws(DecodeError) {
            header = (try fields.u32("Original_Length", endianness: .big), try fields.u32("Included_Length", endianness: .big),
                      try fields.u32("Packet_Flags", endianness: .big), try fields.u32("Cumulative_Drops", endianness: .big),
                      try fields.readInteger("Timestamp", endianness: .big))
        } catch {
            return .failure(.truncatedRecordHeader(offset: offset, available: available))  // not reached: the length is checked
        }
        let (original, included, drops) = (header.original, header.included, header.drops)
        let flags = BTSnoopPacketFlags(rawValue: header.flags)
        let timestamp = BTSnoopTimestamp(microsecondsSinceYearZero: header.timestamp)
        guard included <= original else {
            return .failure(.includedLengthExceedsOriginal(offset: offset, included: included, original: original))
        }
        let dataStart = offset + recordHeaderLength
        let dataAvailable = bytes.count - dataStart
        // Compare in UInt64 so a huge included length cannot overflow Int arithmetic on 32-bit targets.
        guard UInt64(included) <= UInt64(dataAvailable) else {
            return .failure(.truncatedRecordData(offset: offset, includedLength: included, available: dataAvailable))
        }
        let dataEnd = dataStart + Int(included)
        let packet: HCIPacket
        if datalink == .hciUART {
            guard included > 0 else { return .failure(.emptyRecord(offset: offset)) }
            guard let indicator = HCIPacketIndicator(rawValue: bytes[dataStart]) else {
                return .failure(.unknownIndicator(bytes[dataStart], offset: dataStart))
            }
            packet = HCIPacket(indicator: indicator, bytes: Array(bytes[(dataStart + 1)..<dataEnd]))
        } else {
            let indicator: HCIPacketIndicator =
                flags.isCommandOrEvent ? (flags.direction == .hostToController ? .command : .event) : .aclData
            packet = HCIPacket(indicator: indicator, bytes: Array(bytes[dataStart..<dataEnd]))
        }
        let record = BTSnoopRecord(
            packet: packet, flags: flags, timestamp: timestamp,
            cumulativeDrops: drops, truncatedOctetCount: original - included)
        return .success((record, dataEnd))
    }
}
