import ReflectorFirmware
import AnchorFirmware
import DLTDoA
import HCITransport
import MCUboot

/// The tests' vectors that seed the targets, built the same way the tests build them.
enum SeedVectors {
    /// H4FramerTests' mixed stream: every packet type, empty and maximal 8-bit payloads, a
    /// 16-bit ACL length.
    static let h4Packets: [HCIPacket] = [
        try! .command(opcode: 0x0C03),
        try! .event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]),
        try! .command(opcode: 0x2001, parameters: Array(0..<255)),
        try! .acl(handle: 0x0040, data: [0x05, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00, 0x00, 0x00]),
        try! .acl(handle: 0x0041, packetBoundary: 1, data: []),
        try! .event(code: 0x3E, parameters: (0..<255).map { UInt8(255 - $0) }),
        try! .acl(handle: 0x0040, data: (0..<300).map { UInt8(truncatingIfNeeded: $0) }),
        HCIPacket(indicator: .synchronousData, bytes: [0x01, 0x00, 0x03, 0x11, 0x22, 0x33]),
        HCIPacket(indicator: .isoData, bytes: [0x02, 0x00, 0x02, 0x00, 0xAB, 0xCD]),
        try! .event(code: 0x13, parameters: [0x02, 0x01, 0x00, 0x02, 0x00, 0x40, 0x00, 0x03, 0x00]),
        try! .event(code: 0x10, parameters: []),
    ]

    /// SMP traffic of an upload session: requests and the bootloader's answers (SMPConsoleTests,
    /// FlashSessionTests).
    static let smpPackets: [SMPPacket] = [
        SMPPacket(op: .read, version: 1, command: .imageState, sequence: 1, body: .map([])),
        SMPPacket(op: .readResponse, version: 1, command: .imageState, sequence: 1, body: .map([
            "images": .array([.map(["slot": .int(0), "version": .text("1.2.3.4"), "hash": .bytes(Array(repeating: 9, count: 32)),
                                    "bootable": .bool(true), "active": .bool(true)])]),
        ])),
        SMPPacket(op: .write, command: .imageUpload, sequence: 200,
                  body: .map(["image": .int(0), "len": .int(4168), "off": .int(0), "sha": .bytes(Array(repeating: 1, count: 32)),
                              "data": .bytes((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) })])),
        SMPPacket(op: .writeResponse, command: .imageUpload, sequence: 9, body: .map(["rc": .int(0), "off": .int(100)])),
        SMPPacket(op: .read, command: .parameters, sequence: 2, body: .map([])),
        SMPPacket(op: .readResponse, command: .parameters, sequence: 2, body: .map(["buf_size": .int(1024), "buf_count": .int(4)])),
        SMPPacket(op: .write, command: .echo, sequence: 3, body: .map(["d": .text("hello")])),
        SMPPacket(op: .writeResponse, command: .reset, sequence: 4, body: .map(["rc": .int(-1)])),
    ]

    /// Images as imgtool lays them out (TestImages): header padded to 0x200, payload, an
    /// optional protected TLV area, the SHA-256 TLV; one with slot padding.
    static let images: [[UInt8]] = [
        image(payload: (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
        image(payload: [1, 2, 3], protected: [(0x50, [7, 0, 0, 0])]),
        image(payload: Array(repeating: 0xA5, count: 100), headerSize: 32) + Array(repeating: 0xFF, count: 16),
    ]

    static func image(payload: [UInt8], headerSize: Int = 0x200, protected: [(UInt16, [UInt8])] = []) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        let protectedArea: [UInt8] = protected.isEmpty ? [] : {
            let body = protected.flatMap { le16(Int($0.0)) + le16($0.1.count) + $0.1 }
            return le16(0x6908) + le16(body.count + 4) + body
        }()
        var header = le32(Int(MCUbootImageHeader.magic)) + le32(0) + le16(headerSize) + le16(protectedArea.count) + le32(payload.count) + le32(0)
        header += [1, 2] + le16(3) + le32(4) + le32(0)
        header += [UInt8](repeating: 0xFF, count: headerSize - header.count)
        let hashed = header + payload + protectedArea
        let tlvs = le16(0x10) + le16(32) + SHA256.hash(hashed)
        return hashed + le16(0x6907) + le16(tlvs.count + 4) + tlvs
    }

    /// What the phone hears in the first 0.3 s of the default room (DLTDOASimulationTests).
    static let heardFrames: [HeardUWBFrame] = {
        var air = DLTDOAAir(deployment: .defaultRoom())
        return air.run(until: 0.3)
    }()

    static let advertisements: [DiscoveryAdvertisement] = [
        DiscoveryAdvertisement(sessionID: 0x1234, channel: .channel9, shortAddress: 0x0A01, coordinatesType: .relative, blockDurationMilliseconds: 200),
        DiscoveryAdvertisement(sessionID: 0xDEAD_BEEF, channel: .channel5, shortAddress: 0xFFFE, coordinatesType: .wgs84, blockDurationMilliseconds: 2000),
    ]
}
