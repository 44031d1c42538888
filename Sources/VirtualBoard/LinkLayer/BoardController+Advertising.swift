import BLEHost
import ReflectorFirmware

/// One advertising set: the legacy one the legacy commands drive (§7.8.5–§7.8.9) or an
/// extended one (§7.8.52–§7.8.60), with what it sends and when.
struct AdvertisingSet: Sendable, Equatable {
    /// The handle the legacy commands' set is kept under (extended handles are 0x00–0xEF).
    static let legacyHandle: UInt8 = 0xFF
    var extended: Bool
    var connectable = true
    var scannable = true
    /// Interval in µs (legacy default 1.28 s, §7.8.5).
    var interval: UInt64 = 1_280_000
    var ownAddressType: OwnAddressType = .public
    var randomAddress: UInt64?
    var sid: UInt8 = 0
    var txPower: Int8 = 0
    var data: [UInt8] = []
    var scanResponse: [UInt8] = []
    var enabled = false
    var nextEvent: UInt64 = 0
}

/// Scanning while it is enabled: active or passive, which report event the host wants, and
/// the advertisers already reported when the host asked to filter duplicates.
struct ScanState: Sendable, Equatable {
    var active: Bool
    var extended: Bool
    var filterDuplicates: Bool
    var seen: Set<DeviceAddress> = []
}

/// What LE Set (Extended) Scan Parameters set for the next LE Set (Extended) Scan Enable.
struct ScanParameters: Sendable, Equatable {
    var active = false
}

/// Advertising and scanning (Core 6.0 Vol 4 Part E §7.8.5–§7.8.11, §7.8.52–§7.8.60,
/// §7.8.64–§7.8.65; Vol 6 Part B §4.4.2–§4.4.3).
extension BoardController {
    // MARK: Legacy advertising

    /// LE Set Advertising Parameters (§7.8.5): type, interval, own address type. Refused while
    /// advertising (Command Disallowed).
    mutating func setAdvertisingParameters(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetAdvertisingParameters.decode(p), c.intervalMin <= c.intervalMax else {
            return complete(op, status: .invalidHCICommandParameters)
        }
        var set = advertisingSets[AdvertisingSet.legacyHandle] ?? AdvertisingSet(extended: false)
        guard !set.enabled else { return complete(op, status: .commandDisallowed) }
        set.connectable = c.advertisingType.isConnectable
        set.scannable = c.advertisingType.isScannable
        set.interval = UInt64(c.intervalMin) * 625
        set.ownAddressType = c.ownAddressType
        advertisingSets[AdvertisingSet.legacyHandle] = set
        complete(op, status: .success)
    }

    /// LE Set Advertising Data (§7.8.7) and LE Set Scan Response Data (§7.8.8).
    mutating func setLegacyData(_ op: UInt16, _ p: [UInt8], scanResponse: Bool) {
        let data: [UInt8]?
        if scanResponse { data = (try? LESetScanResponseData.decode(p))?.data } else { data = (try? LESetAdvertisingData.decode(p))?.data }
        guard let data else { return complete(op, status: .invalidHCICommandParameters) }
        var set = advertisingSets[AdvertisingSet.legacyHandle] ?? AdvertisingSet(extended: false)
        if scanResponse { set.scanResponse = data } else { set.data = data }
        advertisingSets[AdvertisingSet.legacyHandle] = set
        complete(op, status: .success)
    }

    /// LE Set Advertising Enable (§7.8.9): the first advertising event goes out at once.
    mutating func setAdvertisingEnable(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetAdvertisingEnable.decode(p) else { return complete(op, status: .invalidHCICommandParameters) }
        var set = advertisingSets[AdvertisingSet.legacyHandle] ?? AdvertisingSet(extended: false)
        if c.enable && set.connectable && connected { return complete(op, status: .commandDisallowed) }
        if c.enable && set.ownAddressType.needsRandomAddress && randomAddress == nil { return complete(op, status: .invalidHCICommandParameters) }
        set.enabled = c.enable
        set.nextEvent = now
        advertisingSets[AdvertisingSet.legacyHandle] = set
        complete(op, status: .success)
        advertise()
    }

    // MARK: Extended advertising

    /// LE Set Extended Advertising Parameters (§7.8.53): Status, Selected_Tx_Power.
    mutating func setExtendedAdvertisingParameters(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetExtendedAdvertisingParameters.decode(p), c.intervalMin <= c.intervalMax else {
            return complete(op, [HCIStatus.invalidHCICommandParameters.rawValue, 0])
        }
        var set = advertisingSets[c.advertisingHandle] ?? AdvertisingSet(extended: true)
        guard !set.enabled else { return complete(op, [HCIStatus.commandDisallowed.rawValue, 0]) }
        let properties = c.eventProperties
        set.connectable = properties & 0x01 != 0
        set.scannable = properties & 0x02 != 0
        // Bit 4: legacy PDUs from the extended commands.
        set.extended = properties & 0x10 == 0
        set.interval = UInt64(c.intervalMin) * 625
        set.ownAddressType = c.ownAddressType
        set.sid = c.sid
        set.txPower = c.txPower == 127 ? 0 : max(-20, min(20, c.txPower))
        advertisingSets[c.advertisingHandle] = set
        complete(op, [HCIStatus.success.rawValue, UInt8(bitPattern: set.txPower)])
    }

    /// LE Set Extended Advertising Data (§7.8.54) and Scan Response Data (§7.8.55): fragments
    /// (first, intermediate, last, complete) build up the set's data; 4 (unchanged) keeps it.
    mutating func setExtendedData(_ op: UInt16, _ p: [UInt8], scanResponse: Bool) {
        let fragment: (handle: UInt8, operation: UInt8, data: [UInt8])?
        if scanResponse {
            fragment = (try? LESetExtendedScanResponseData.decode(p)).map { ($0.advertisingHandle, $0.operation, $0.data) }
        } else {
            fragment = (try? LESetExtendedAdvertisingData.decode(p)).map { ($0.advertisingHandle, $0.operation, $0.data) }
        }
        guard let fragment else { return complete(op, status: .invalidHCICommandParameters) }
        guard var set = advertisingSets[fragment.handle], set.extended || fragment.operation == 3 else {
            return complete(op, status: .unknownAdvertisingIdentifier)
        }
        var current = scanResponse ? set.scanResponse : set.data
        switch fragment.operation {
        case 0, 2: current += fragment.data  // intermediate, last
        case 1, 3: current = fragment.data  // first, complete
        default: break  // unchanged data
        }
        guard current.count <= Self.maximumAdvertisingDataLength else { return complete(op, status: .memoryCapacityExceeded) }
        if scanResponse { set.scanResponse = current } else { set.data = current }
        advertisingSets[fragment.handle] = set
        complete(op, status: .success)
    }

    /// LE Set Advertising Set Random Address (§7.8.52).
    mutating func setAdvertisingSetRandomAddress(_ op: UInt16, _ p: [UInt8]) {
        guard p.count == 7 else { return complete(op, status: .invalidHCICommandParameters) }
        guard var set = advertisingSets[p[0]] else { return complete(op, status: .unknownAdvertisingIdentifier) }
        var r = ByteReader(p[1...])
        set.randomAddress = try? r.uint(6, "Random_Address")
        advertisingSets[p[0]] = set
        complete(op, status: .success)
    }

    /// LE Set Extended Advertising Enable (§7.8.56): enable or disable the listed sets; disable
    /// with no sets disables them all.
    mutating func setExtendedAdvertisingEnable(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetExtendedAdvertisingEnable.decode(p) else { return complete(op, status: .invalidHCICommandParameters) }
        if !c.enable && c.sets.isEmpty {
            // Every set the extended commands made (any handle but the legacy commands' own).
            for h in advertisingSets.keys where h != AdvertisingSet.legacyHandle {
                advertisingSets[h]?.enabled = false
            }
            return complete(op, status: .success)
        }
        guard c.sets.allSatisfy({ advertisingSets[$0.handle] != nil }) else { return complete(op, status: .unknownAdvertisingIdentifier) }
        if c.enable && connected && c.sets.contains(where: { advertisingSets[$0.handle]?.connectable == true }) {
            return complete(op, status: .commandDisallowed)
        }
        for s in c.sets {
            advertisingSets[s.handle]?.enabled = c.enable
            advertisingSets[s.handle]?.nextEvent = now
        }
        complete(op, status: .success)
        advertise()
    }

    /// LE Remove Advertising Set (§7.8.59) and LE Clear Advertising Sets (§7.8.60); refused
    /// for an enabled set.
    mutating func removeAdvertisingSet(_ op: UInt16, _ p: [UInt8]) {
        guard p.count == 1 else { return complete(op, status: .invalidHCICommandParameters) }
        guard let set = advertisingSets[p[0]], p[0] != AdvertisingSet.legacyHandle else { return complete(op, status: .unknownAdvertisingIdentifier) }
        guard !set.enabled else { return complete(op, status: .commandDisallowed) }
        advertisingSets[p[0]] = nil
        complete(op, status: .success)
    }

    mutating func clearAdvertisingSets(_ op: UInt16) {
        guard !advertisingSets.contains(where: { $0.key != AdvertisingSet.legacyHandle && $0.value.enabled }) else {
            return complete(op, status: .commandDisallowed)
        }
        advertisingSets = advertisingSets.filter { $0.key == AdvertisingSet.legacyHandle }
        complete(op, status: .success)
    }

    /// The most advertising or scan response data a set holds (LE Read Maximum Advertising Data Length, §7.8.57).
    static let maximumAdvertisingDataLength = 1650
    /// Extended advertising sets the board keeps (LE Read Number of Supported Advertising Sets, §7.8.58).
    static let supportedAdvertisingSets: UInt8 = 4

    /// Sends each enabled set's due advertising event.
    mutating func advertise() {
        for h in advertisingSets.keys.sorted() {
            guard let set = advertisingSets[h], set.enabled, now >= set.nextEvent else { continue }
            advertisingSets[h]?.nextEvent = now + max(set.interval, 20_000)
            let own = ownAddress(type: set.ownAddressType, setAddress: set.randomAddress)
            transmissions.append(.advertisement(Advertisement(
                address: own.address, addressType: own.type, connectable: set.connectable, scannable: set.scannable, extended: set.extended,
                advertisingSID: set.sid, data: set.data, scanResponse: set.scanResponse, txPower: set.txPower)))
        }
    }

    /// The address an own-address type names: public, or the random one (the set's own first).
    func ownAddress(type: OwnAddressType, setAddress: UInt64? = nil) -> DeviceAddress {
        type.needsRandomAddress ? DeviceAddress(setAddress ?? randomAddress ?? address, type: 1) : DeviceAddress(address, type: 0)
    }

    // MARK: Scanning

    /// LE Set Scan Parameters (§7.8.10), refused while scanning.
    mutating func setScanParameters(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetScanParameters.decode(p) else { return complete(op, status: .invalidHCICommandParameters) }
        guard scan == nil else { return complete(op, status: .commandDisallowed) }
        scanParameters.active = c.active
        complete(op, status: .success)
    }

    /// LE Set Extended Scan Parameters (§7.8.64): the LE 1M parameters count (the air has one PHY).
    mutating func setExtendedScanParameters(_ op: UInt16, _ p: [UInt8]) {
        guard let c = try? LESetExtendedScanParameters.decode(p) else { return complete(op, status: .invalidHCICommandParameters) }
        guard scan == nil else { return complete(op, status: .commandDisallowed) }
        scanParameters.active = (c.le1M ?? c.leCoded)?.active ?? false
        complete(op, status: .success)
    }

    /// LE Set Scan Enable (§7.8.11) and LE Set Extended Scan Enable (§7.8.65).
    mutating func setScanEnable(_ op: UInt16, _ p: [UInt8]) {
        let extended = op == HCIOpcode.leSetExtendedScanEnable
        let request: (enable: Bool, filter: Bool)?
        if extended {
            request = (try? LESetExtendedScanEnable.decode(p)).map { ($0.enable, $0.filterDuplicates != 0) }
        } else {
            request = (try? LESetScanEnable.decode(p)).map { ($0.enable, $0.filterDuplicates) }
        }
        guard let request else { return complete(op, status: .invalidHCICommandParameters) }
        if request.enable {
            // Enabling again only changes duplicate filtering (and restarts it).
            scan = ScanState(active: scanParameters.active, extended: extended, filterDuplicates: request.filter)
        } else {
            scan = nil
        }
        complete(op, status: .success)
    }

    /// An advertising event reaches the board: a scanner reports it (and, scanning actively,
    /// the scan response), an initiator waiting for this advertiser connects.
    mutating func hear(_ ad: Advertisement, rssi: Int8) {
        let from = DeviceAddress(ad.address, type: ad.addressType)
        if let initiation = initiating, ad.connectable, initiation.accepts(from, acceptList: filterAcceptList), ad.extended == false || initiation.extended {
            return connect(to: ad, initiation)
        }
        guard var state = scan else { return }
        // A legacy scanner does not see extended advertising.
        guard state.extended || !ad.extended else { return }
        if state.filterDuplicates {
            guard !state.seen.contains(from) else { return }
            state.seen.insert(from)
            scan = state
        }
        if state.extended {
            reportExtended(ad, rssi: rssi, scanResponse: false)
            if state.active && ad.scannable { reportExtended(ad, rssi: rssi, scanResponse: true) }
        } else {
            // ADV_IND 0, ADV_SCAN_IND 2, ADV_NONCONN_IND 3; SCAN_RSP 4.
            let type: UInt8 = ad.connectable ? 0 : ad.scannable ? 2 : 3
            var reports = [LEAdvertisingReport.Report(eventType: type, addressType: AddressType(random: ad.addressType & 1 == 1), address: ad.address, data: Array(ad.data.prefix(31)), rssi: rssi)]
            if state.active && ad.scannable {
                reports.append(.init(eventType: 4, addressType: AddressType(random: ad.addressType & 1 == 1), address: ad.address, data: Array(ad.scanResponse.prefix(31)), rssi: rssi))
            }
            for r in reports { leMeta(LESubeventCode.advertisingReport, LEAdvertisingReport(reports: [r]).packet) }
        }
    }

    /// LE Extended Advertising Report (§7.7.65.13), in as many reports as the data needs
    /// (229 octets each; all but the last marked "incomplete, more data to come").
    mutating func reportExtended(_ ad: Advertisement, rssi: Int8, scanResponse: Bool) {
        var type: UInt16
        if ad.extended {
            type = (ad.connectable ? 0x01 : 0) | (ad.scannable ? 0x02 : 0) | (scanResponse ? 0x08 : 0)
        } else {
            // Legacy PDUs (Table 7.x): ADV_IND 0x13, ADV_SCAN_IND 0x12, ADV_NONCONN_IND 0x10,
            // SCAN_RSP to ADV_IND 0x1B, to ADV_SCAN_IND 0x1A.
            type = 0x10 | (ad.connectable ? 0x01 : 0) | (ad.scannable ? 0x02 : 0) | (scanResponse ? 0x08 : 0)
        }
        let data = scanResponse ? ad.scanResponse : ad.data
        var chunks = stride(from: 0, to: data.count, by: 229).map { Array(data[$0..<min(data.count, $0 + 229)]) }
        if chunks.isEmpty || !ad.extended { chunks = [Array(data.prefix(ad.extended ? 229 : 31))] }
        for (i, chunk) in chunks.enumerated() {
            let status: UInt16 = i < chunks.count - 1 ? 0x20 : 0
            let report = LEExtendedAdvertisingReport.Report(
                eventType: type | status, addressType: ad.addressType, address: ad.address, primaryPHY: 1, secondaryPHY: ad.extended ? 1 : 0,
                sid: ad.extended ? ad.advertisingSID : 0xFF, txPower: ad.extended ? ad.txPower : 127, rssi: rssi, data: chunk)
            leMeta(LESubeventCode.extendedAdvertisingReport, LEExtendedAdvertisingReport(reports: [report]).packet)
        }
    }
}
