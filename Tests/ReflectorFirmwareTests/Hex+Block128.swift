@testable import ReflectorFirmware
import TestSupport

extension Hex {
    /// A 128-bit block from 32 hex digits, most significant octet first, as the spec prints
    /// the DRBG's and AES's sample values.
    static func block(_ text: String) -> Block128 { Block128(octets: bytes(text)) }
}
