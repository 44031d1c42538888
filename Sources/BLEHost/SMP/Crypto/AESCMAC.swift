import CCrypto

/// AES-CMAC with a 128-bit key (RFC 4493; Core 6.0 Vol 3 Part H §2.2.5), on libcrypto. The
/// message is MSB-first, the order of RFC 4493 and of the spec's definitions (its first octet
/// is the most significant, the one the CMAC processes first).
public enum AESCMAC {
    /// AES-CMAC_k(m): the MAC of `message` (any length, the empty message too). libcrypto
    /// fails here only if it cannot allocate; that traps.
    public static func mac(key: Key128, message: [UInt8]) -> Key128 {
        var out = [UInt8](repeating: 0, count: 16)
        let status = message.withUnsafeBufferPointer { ccrypto_aes_cmac(key.octets, $0.baseAddress, $0.count, &out) }
        precondition(status == 0, "libcrypto AES-CMAC failed")
        return Key128(octets: out)
    }
}
