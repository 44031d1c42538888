import HCITransport

/// btsnoop capture files (`BTSnoopReader`), as `reflector-emu estimate` and the tests read them.
///
/// Checks: the records read write back (`BTSnoopWriter`) to exactly the file's octets up to
/// where reading stopped, and to the whole file when there was no error; the error's offset
/// lies inside the file; parsing the valid prefix alone gives the same records and no error.
enum BTSnoopTarget {
    static let target = FuzzTarget("btsnoop", "BTSnoopReader: btsnoop files, re-encoded record by record", seeds: seeds) { bytes in
        let result = BTSnoopReader.parse(bytes)
        if let offset = result.error?.offset { require(offset >= 0 && offset <= bytes.count, "error offset \(offset) outside the file") }
        guard let header = result.header else {
            require(result.records.isEmpty && result.error != nil, "records without a header")
            return
        }
        guard let writer = try? BTSnoopWriter(datalink: header.datalink) else {
            require(false, "a header with a datalink the writer refuses")
            return
        }
        guard let again = try? writer.encodeFile(result.records) else {
            require(false, "records the writer cannot write")
            return
        }
        require(again.count <= bytes.count && Array(bytes.prefix(again.count)) == again, "records do not write back to the file's octets")
        if result.error == nil {
            require(again.count == bytes.count, "a clean read that does not cover the file")
        } else {
            let prefix = BTSnoopReader.parse(Array(bytes.prefix(again.count)))
            require(prefix.error == nil && prefix.records == result.records, "the valid prefix does not read alone")
        }
    }

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for traffic in SeedTraffic.loopbacks.prefix(2) {
            let records = Array(traffic.initiatorCapture.prefix(40))
            if let h4 = try? BTSnoopWriter().encodeFile(records) { out.append(h4) }
            let unencapsulated = records.filter { $0.packet.indicator != .synchronousData && $0.packet.indicator != .isoData }
            if let h1 = try? BTSnoopWriter(datalink: .hciUnencapsulated).encodeFile(unencapsulated) { out.append(h1) }
        }
        return out
    }
}
