import WireFormat

/// Encodes a btsnoop capture: the file header, then one record per packet (Frontline "BTSnoop
/// File Format"). Pure: it returns octets; `BTSnoopFileSink` puts them in a file.
///
/// Writes datalink 1002 (HCI UART, H4) by default, which keeps the packet indicator and so can
/// hold every packet type; 1001 is available for tools that want un-encapsulated HCI.
public struct BTSnoopWriter: Sendable {
    public let datalink: BTSnoopDatalink

    /// A writer for datalink 1002 (H4).
    public init() { datalink = .hciUART }

    /// A writer for `datalink`, which must be 1001 or 1002.
    public init(datalink: BTSnoopDatalink) throws(BTSnoopError) {
        guard datalink.isSupported else { throw .unsupportedDatalink(datalink.rawValue) }
        self.datalink = datalink
    }

    /// The 16-octet file header for this writer's datalink.
    public var header: [UInt8] { BTSnoopFileHeader(datalink: datalink).bytes }

    /// The octets of one record: the 24-octet header and the packet.
    public func encode(_ record: BTSnoopRecord) throws(BTSnoopError) -> [UInt8] {
        var out: [UInt8] = []
        try append(record, to: &out)
        return out
    }

    /// Appends the octets of one record to `buffer`.
    public func append(_ record: BTSnoopRecord, to buffer: inout [UInt8]) throws(BTSnoopError) {
        if datalink == .hciUnencapsulated {
            let expected: Bool? = switch record.packet.indicator {
            case .command: record.flags.isCommandOrEvent && record.direction == .hostToController ? true : nil
            case .event: record.flags.isCommandOrEvent && record.direction == .controllerToHost ? true : nil
            case .aclData: record.flags.isCommandOrEvent ? nil : true
            case .synchronousData, .isoData: nil
            }
            guard expected != nil else {
                throw .notRepresentable(indicator: record.packet.indicator, flags: record.flags, datalink: datalink)
            }
        }
        let included = UInt32(clamping: record.includedLength(in: datalink))
        let (original, overflow) = included.addingReportingOverflow(record.truncatedOctetCount)
        buffer.reserveCapacity(buffer.count + 24 + Int(included))
        ByteWriter.append(to: &buffer) { w in
            w.u32(overflow ? UInt32.max : original, endianness: .big)
            w.u32(included, endianness: .big)
            w.u32(record.flags.rawValue, endianness: .big)
            w.u32(record.cumulativeDrops, endianness: .big)
            w.writeInteger(record.timestamp.microsecondsSinceYearZero, endianness: .big)
            if datalink == .hciUART { w.u8(record.packet.indicator.rawValue) }
            w.octets(record.packet.bytes)
        }
    }

    /// A whole file: header and records.
    public func encodeFile<Records: Sequence<BTSnoopRecord>>(_ records: Records) throws(BTSnoopError) -> [UInt8] {
        var out = header
        for record in records { try append(record, to: &out) }
        return out
    }
}
