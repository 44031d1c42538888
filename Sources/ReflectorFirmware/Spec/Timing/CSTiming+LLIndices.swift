import WireFormat

/// The LL form of a configuration's times: LL_CS_CONFIG_REQ carries T_IP1, T_IP2, T_FCS and
/// T_PM as indices into their value tables (Core 6.0 Vol 6 Part B §2.4.2.x; NimBLE PR #1765
/// `ble_ll_cs_config_req_make`), while HCI Config Complete carries µs values. See `TimeKind`
/// for the tables (T_IP1/T_IP2 index 7 = 145 µs, T_FCS index 9 = 150 µs, T_PM index 2 = 40 µs).
extension CSTiming {
    /// The four LL indices, or `nil` if one of the times is not in its table.
    public var llTimeIndices: (tIP1: UInt8, tIP2: UInt8, tFCS: UInt8, tPM: UInt8)? {
        guard let ip1 = TimeKind.tIP1.index(ofMicroseconds: tIP1),
              let ip2 = TimeKind.tIP2.index(ofMicroseconds: tIP2),
              let fcs = TimeKind.tFCS.index(ofMicroseconds: tFCS),
              let pm = TimeKind.tPM.index(ofMicroseconds: tPM) else { return nil }
        return (UInt8(ip1), UInt8(ip2), UInt8(fcs), UInt8(pm))
    }

    /// The times of LL indices; throws `invalidValue` for an index beyond its table
    /// (NimBLE rejects T_IP1/T_IP2 > 7, T_FCS > 9, T_PM > 2). T_SW is not carried by the PDU.
    public init(llIndices tIP1: UInt8, tIP2: UInt8, tFCS: UInt8, tPM: UInt8, tSW: UInt16 = 0) throws(DecodeError) {
        guard let ip1 = TimeKind.tIP1.microseconds(atIndex: Int(tIP1)) else { throw .invalidValue(field: "T_IP1", value: Int(tIP1)) }
        guard let ip2 = TimeKind.tIP2.microseconds(atIndex: Int(tIP2)) else { throw .invalidValue(field: "T_IP2", value: Int(tIP2)) }
        guard let fcs = TimeKind.tFCS.microseconds(atIndex: Int(tFCS)) else { throw .invalidValue(field: "T_FCS", value: Int(tFCS)) }
        guard let pm = TimeKind.tPM.microseconds(atIndex: Int(tPM)) else { throw .invalidValue(field: "T_PM", value: Int(tPM)) }
        self.init(tIP1: ip1, tIP2: ip2, tFCS: fcs, tPM: pm, tSW: tSW)
    }
}
