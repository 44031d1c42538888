import BLEHost
import Foundation
import ToolJSON

/// A bond file: this side's own identity (address, IRK) and one entry per bonded peer. The
/// accessory's identity is a static random address; a phone's (`range --bonds`) is its board's
/// public address, marked `"address_random": false`. JSON, keys and addresses in hex, most
/// significant octet first:
///
/// ```
/// {"format": "reflector-emu bonds 1", "address": "C3A1B2C3D4E5", "irk": "<32 hex>",
///  "bonds": [{"peer": "4F0102030405", "peer_random": true, "peer_irk": "<32 hex>",
///             "ltk": "<32 hex>", "authenticated": false,
///             "client_configuration": [{"handle": 15, "value": 1}]}]}
/// ```
///
/// Written atomically (a temporary file in the same folder, mode 0600, fsync, rename, fsync of
/// the folder), so a crash mid-write leaves the previous file; a file that does not read is
/// moved aside (`FILE.corrupt-<time>`) and reported, never emptied in place.
public struct BondFile: Equatable {
    public static let format = "reflector-emu bonds 1"

    public var address: UInt64
    /// A static random address (an accessory's); false: a public one (a phone's board).
    public var addressIsRandom: Bool
    /// 16 octets, little-endian (as Identity Information carries it).
    public var irk: [UInt8]
    public var bonds: [Bond]

    public init(address: UInt64, addressIsRandom: Bool = true, irk: [UInt8], bonds: [Bond] = []) {
        self.address = address
        self.addressIsRandom = addressIsRandom
        self.irk = irk
        self.bonds = bonds
    }

    /// A new identity: a static random address (two top bits 11) and an IRK from `random`.
    public static func fresh(random: RandomOctets) -> BondFile {
        let address = random.octets(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | 0xC000_0000_0000
        return BondFile(address: address, irk: random.octets(16))
    }

    // MARK: JSON

    public init(json: JSONValue) throws(ToolError) {
        let r = try JSONObjectReader(json)
        guard try r.choice("format", oneOf: [Self.format]) == Self.format else { throw .badKey(key: "format", problem: "is not \(Self.format)") }
        addressIsRandom = try r.bool("address_random", default: true)
        address = try Self.address(r.hex("address", digits: 12), key: "address", static: addressIsRandom)
        irk = Self.octets(try r.hex("irk", digits: 32)).reversed()
        guard case .array(let list)? = r.optional("bonds") else { throw .badKey(key: "bonds", problem: "is missing or not an array; allowed: an array of bond objects") }
        var bonds: [Bond] = []
        for (i, item) in list.enumerated() {
            do throws(ToolError) {
                let b = try JSONObjectReader(item)
                let random = try b.bool("peer_random")
                let peer = try Self.address(b.hex("peer", digits: 12), key: "peer", static: false)
                var peerIRK: [UInt8]?
                if b.optional("peer_irk") != nil { peerIRK = Self.octets(try b.hex("peer_irk", digits: 32)).reversed() }
                var configurations: [UInt16: UInt16] = [:]
                if let list = b.optional("client_configuration") {
                    guard case .array(let entries) = list else { throw .badKey(key: "client_configuration", problem: "is not an array; allowed: [{\"handle\": N, \"value\": N}, ...]") }
                    for e in entries {
                        let c = try JSONObjectReader(e)
                        configurations[try c.integer("handle", in: UInt16(1)...UInt16.max)] = try c.integer("value", in: UInt16(0)...UInt16(3))
                    }
                }
                // An LE legacy bond's LTK is named by EDIV and Rand (absent: 0, LE Secure Connections).
                let ediv = UInt16(try b.hex("ediv", digits: 4, default: "0000"), radix: 16) ?? 0
                let rand = UInt64(try b.hex("rand", digits: 16, default: "0000000000000000"), radix: 16) ?? 0
                bonds.append(Bond(peer: PairingAddress(peer, random: random), peerIRK: peerIRK,
                                  longTermKey: Self.octets(try b.hex("ltk", digits: 32)).reversed(), authenticated: try b.bool("authenticated", default: false),
                                  configurations: configurations, ediv: ediv, rand: rand))
            } catch {
                throw .badKey(key: "bonds[\(i)]", problem: error.description)
            }
        }
        self.bonds = bonds
    }

    public var json: [UInt8] {
        var j = JSONWriter()
        j.object { j in
            j.field("format", Self.format)
            j.field("address", Self.hex(PairingAddress.octets(address)))
            if !addressIsRandom { j.field("address_random", false) }
            j.field("irk", Self.hex(irk.reversed()))
            j.field("bonds", array: { j in
                for b in bonds {
                    j.object { j in
                        j.field("peer", Self.hex(b.peer.octets))
                        j.field("peer_random", b.peer.isRandom)
                        if let irk = b.peerIRK { j.field("peer_irk", Self.hex(irk.reversed())) }
                        j.field("ltk", Self.hex(b.longTermKey.reversed()))
                        j.field("authenticated", b.authenticated)
                        if b.ediv != 0 || b.rand != 0 {
                            j.field("ediv", String(format: "%04X", b.ediv))
                            j.field("rand", String(format: "%016llX", b.rand))
                        }
                        if !b.configurations.isEmpty {
                            j.field("client_configuration", array: { j in
                                for (h, v) in b.configurations.sorted(by: { $0.key < $1.key }) {
                                    j.object { j in
                                        j.field("handle", h)
                                        j.field("value", v)
                                    }
                                }
                            })
                        }
                    }
                }
            })
        }
        return j.bytes + [0x0A]
    }

    // MARK: The file

    public enum Loaded: Equatable {
        case read(BondFile)
        case missing
        /// The file did not read: it was moved to `movedTo`; why.
        case corrupt(movedTo: String, why: String)
    }

    /// Reads the bond file at `path`; a file that does not read is moved aside, not lost.
    public static func load(_ path: String) -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        do {
            return .read(try JSONFile.read(path) { (v) throws(ToolError) in try BondFile(json: v) })
        } catch {
            let aside = path + ".corrupt-" + Self.stamp()
            guard rename(path, aside) == 0 else { return .corrupt(movedTo: path + " (could not be moved: \(String(cString: strerror(errno))))", why: error.description) }
            return .corrupt(movedTo: aside, why: error.description)
        }
    }

    /// Whose bonds a file keeps: an accessory's identity is a static random address, a phone's
    /// the public address of its board (learnt at its first bond).
    public enum Owner: Sendable {
        case accessory, phone
    }

    /// The file at `path` for `owner`: read, or a fresh identity when there is none; a file that
    /// does not read is moved aside (the note says so) and the run starts with no bonds; the
    /// other owner's file is refused.
    public static func load(_ path: String, for owner: Owner) -> Result<(file: BondFile, note: String?), ToolError> {
        let fresh = { () -> BondFile in
            var f = BondFile.fresh(random: .system)
            if owner == .phone {
                f.addressIsRandom = false
                f.address = 0
            }
            return f
        }
        switch load(path) {
        case .read(let f):
            switch (owner, f.addressIsRandom) {
            case (.accessory, false):
                return .failure(.badFile("\(path): this is a phone's bond file (range --bonds: its identity is a public address); give the accessory a file of its own"))
            case (.phone, true):
                return .failure(.badFile("\(path): this is an accessory's bond file (its identity is a static random address); give range a file of its own"))
            default:
                return .success((f, nil))
            }
        case .missing: return .success((fresh(), nil))
        case let .corrupt(aside, why):
            return .success((fresh(), "the bond file \(path) does not read (\(why)); it was kept as \(aside), and this run starts with no bonds"))
        }
    }

    /// Writes the file atomically, mode 0600, creating its folder (mode 0700) if needed.
    /// `interruptAfter` (tests) stops after that many octets of the temporary file, as a crash would.
    public func save(_ path: String, interruptAfter: Int? = nil) throws(ToolError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) } catch {
                throw .badFile("\(folder): cannot create the folder for the bond file (\(error.localizedDescription))")
            }
        }
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw .badFile("\(temporary): cannot create (\(String(cString: strerror(errno))))") }
        var bytes = json
        if let n = interruptAfter { bytes = Array(bytes.prefix(n)) }
        fchmod(fd, 0o600)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else {
            unlink(temporary)
            throw .badFile("\(temporary): cannot write the bond file")
        }
        if interruptAfter != nil { return }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .badFile("\(path): cannot replace the bond file (\(String(cString: strerror(errno))))")
        }
        let dir = open(folder.isEmpty ? "." : folder, O_RDONLY)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    /// `$XDG_STATE_HOME/reflector-emu/bonds.json`, else `~/.local/state/reflector-emu/bonds.json`.
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let state = env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        return state + "/reflector-emu/bonds.json"
    }

    // MARK: Helpers

    /// (The reader checked the digits.)
    static func octets(_ hex: String) -> [UInt8] { HexText.octets(parsing: hex) ?? [] }

    static func octets(_ address: UInt64) -> [UInt8] { HexText.addressOctets(address) }

    static func hex(_ b: [UInt8]) -> String { HexText.octets(b) }

    static func address(_ hex: String, key: String, static isStatic: Bool) throws(ToolError) -> UInt64 {
        let v = UInt64(hex, radix: 16) ?? 0
        if isStatic, v >> 46 != 0b11 { throw .badKey(key: key, problem: "is \(hex), not a static random address (its two top bits must be 11)") }
        return v
    }

    static func stamp() -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd'T'HHmmss"
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: Date())
    }
}
