import Foundation
import ReflectorFirmware
import ToolJSON

/// The CS security material of SECURITY.json (`cs_iv`, `cs_in`, `cs_pv`, hex, most significant
/// octet first as the spec's sample data writes them): everything both sides need to
/// instantiate the same DRBG.
public struct SecurityFile: Equatable {
    public var iv: Block128
    public var instantiationNonce: UInt64
    public var personalization: Block128

    /// Reads security material from the bytes of its JSON file.
    public static func parse(_ data: Data) throws(ToolError) -> SecurityFile {
        try SecurityFile(json: JSONValue.parse(data))
    }

    /// Reads and checks the security file at `path`; errors name the file.
    public static func read(path: String) throws(ToolError) -> SecurityFile {
        try JSONFile.read(path) { (v) throws(ToolError) in try SecurityFile(json: v) }
    }

    public init(json: JSONValue) throws(ToolError) {
        let r = try JSONObjectReader(json)
        iv = Block128(octets: Self.octets(try r.hex("cs_iv", digits: 32)))
        instantiationNonce = UInt64(try r.hex("cs_in", digits: 16), radix: 16)!
        personalization = Block128(octets: Self.octets(try r.hex("cs_pv", digits: 32)))
    }

    public var drbg: CSDRBG<AES128> { CSDRBG(iv: iv, instantiationNonce: instantiationNonce, personalization: personalization) }

    /// (The reader checked the digits.)
    static func octets(_ hex: String) -> [UInt8] { HexText.octets(parsing: hex) ?? [] }
}
