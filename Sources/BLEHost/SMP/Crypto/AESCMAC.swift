import CCrypto

/// AES-CMAC with a 128-bit key (RFC 4493; Core 6.0 Vol 3 Part H §2.2.5), on libcrypto.
///
/// Octet order: the key, the message and the MAC are **MSB-first** — the order of RFC 4493 and
/// of the specification's definitions (the first octet of the message is its most significant,
/// the one the CMAC processes first). Values SMP carries little-endian must be reversed first.
public enum AESCMAC {
    /// AES-CMAC_k(m): the 16-octet MAC of `message` (any length, the empty message too).
    public static func mac(key: [UInt8], message: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(key, 16, "AES-CMAC key")
        var out = [UInt8](repeating: 0, count: 16)
        let status = message.withUnsafeBufferPointer { ccrypto_aes_cmac(key, $0.baseAddress, $0.count, &out) }
        guard status == 0 else { throw .backendFailed("AES-CMAC") }
        return out
    }
}
