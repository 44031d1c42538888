/// Little-endian bit packing of signed fields into octets, as the FiRa anchor-location encodings
/// use it (Qorvo `fira_time_sync.h`: relative x bits 0–27, y 28–55, z 56–79): bit n of the
/// stream is bit (n mod 8) of octet n/8.
enum BitField {
    /// Writes the low `width` bits of `value` (two's complement) at bit `offset`.
    static func put(_ value: Int64, width: Int, at offset: Int, into octets: inout [UInt8]) {
        let bits = UInt64(bitPattern: value) & ((1 << UInt64(width)) - 1)
        for i in 0..<width where bits >> UInt64(i) & 1 == 1 {
            let n = offset + i
            octets[n >> 3] |= 1 << UInt8(n & 7)
        }
    }

    /// Reads `width` bits at bit `offset` and sign-extends them.
    static func signed(width: Int, at offset: Int, in octets: some Collection<UInt8>) -> Int64 {
        var bits: UInt64 = 0
        let start = octets.startIndex
        for i in 0..<width {
            let n = offset + i
            let octet = octets[octets.index(start, offsetBy: n >> 3)]
            if octet >> UInt8(n & 7) & 1 == 1 { bits |= 1 << UInt64(i) }
        }
        let shift = UInt64(64 - width)
        return Int64(bitPattern: bits << shift) >> Int64(shift)
    }
}
