import BLEHost
import EmulatorMath
import Foundation
import TestSupport
import Testing
import WireFormat

/// The ATT PDUs against a second implementation, Bumble's `bumble.att` (installed by
/// scripts/ensure-deps): each PDU built by Bumble from the same field values is ours octet for
/// octet and decodes to the same value, and Bumble reads ours back unchanged; and the layouts
/// a peer can get wrong are refused.
@Suite struct ATTPDUTests {
    static let rasUUID128 = (0..<16).map { UInt8($0 &* 17) }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// (our PDU, Bumble's constructor) pairs over every modelled opcode.
    static func vectors() -> [(ATTPDU, String)] {
        var rng = SplitMix64(seed: 0xA77_0001)
        func h(_ b: [UInt8]) -> String { "B('\(Hex.string(b))')" }
        var out: [(ATTPDU, String)] = []
        out.append((.errorResponse(requestOpcode: 0x0A, handle: 0x0003, error: .insufficientEncryption),
                    "att.ATT_Error_Response(request_opcode_in_error=0x0A, attribute_handle_in_error=3, error_code=0x0F)"))
        out.append((.errorResponse(requestOpcode: 0x10, handle: 0x0021, error: .attributeNotFound),
                    "att.ATT_Error_Response(request_opcode_in_error=0x10, attribute_handle_in_error=0x21, error_code=0x0A)"))
        out.append((.exchangeMTURequest(clientMTU: 247), "att.ATT_Exchange_MTU_Request(client_rx_mtu=247)"))
        out.append((.exchangeMTUResponse(serverMTU: 517), "att.ATT_Exchange_MTU_Response(server_rx_mtu=517)"))
        out.append((.findInformationRequest(start: 1, end: 0xFFFF), "att.ATT_Find_Information_Request(starting_handle=1, ending_handle=0xFFFF)"))
        out.append((.findInformationResponse([.init(handle: 3, type: .uuid16(0x2902)), .init(handle: 4, type: .uuid16(0x2901))]),
                    "att.ATT_Find_Information_Response(format=1, information_data=B('0300022904000129'))"))
        out.append((.findInformationResponse([.init(handle: 0x10, type: .uuid128(Self.rasUUID128))]),
                    "att.ATT_Find_Information_Response(format=2, information_data=B('1000\(Hex.string(Self.rasUUID128))'))"))
        out.append((.findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: [0x5B, 0x18]),
                    "att.ATT_Find_By_Type_Value_Request(starting_handle=1, ending_handle=0xFFFF, attribute_type=core.UUID.from_16_bits(0x2800), attribute_value=B('5b18'))"))
        out.append((.findByTypeValueResponse([.init(start: 0x10, end: 0x1F), .init(start: 0x30, end: 0xFFFF)]),
                    "att.ATT_Find_By_Type_Value_Response(handles_information_list=B('10001f003000ffff'))"))
        out.append((.readByTypeRequest(start: 0x10, end: 0x1F, type: .characteristic),
                    "att.ATT_Read_By_Type_Request(starting_handle=0x10, ending_handle=0x1F, attribute_type=core.UUID.from_16_bits(0x2803))"))
        out.append((.readByTypeRequest(start: 1, end: 5, type: .uuid128(Self.rasUUID128)),
                    "att.ATT_Read_By_Type_Request(starting_handle=1, ending_handle=5, attribute_type=core.UUID.from_bytes(\(h(Self.rasUUID128))))"))
        for _ in 0..<3 {
            let n = 1 + rng.below(20)
            var list: [ATTPDU.HandleValue] = []
            for i in 0..<(1 + rng.below(4)) { list.append(ATTPDU.HandleValue(handle: UInt16(0x11 + 2 * i), value: rng.bytes(n))) }
            let data: [UInt8] = list.flatMap { (e: ATTPDU.HandleValue) -> [UInt8] in Self.le16(e.handle) + e.value }
            out.append((.readByTypeResponse(list), "att.ATT_Read_By_Type_Response(length=\(n + 2), attribute_data_list=\(h(data)))"))
            var groups: [ATTPDU.GroupValue] = []
            for i in 0..<(1 + rng.below(3)) {
                let start = UInt16(1 + 16 * i)
                groups.append(ATTPDU.GroupValue(start: start, end: start + 14, value: rng.bytes(n)))
            }
            let gdata: [UInt8] = groups.flatMap { (g: ATTPDU.GroupValue) -> [UInt8] in Self.le16(g.start) + Self.le16(g.end) + g.value }
            out.append((.readByGroupTypeResponse(groups), "att.ATT_Read_By_Group_Type_Response(length=\(n + 4), attribute_data_list=\(h(gdata)))"))
            let v = rng.bytes(rng.below(60))
            out.append((.readResponse(v), "att.ATT_Read_Response(attribute_value=\(h(v)))"))
            out.append((.readBlobResponse(v), "att.ATT_Read_Blob_Response(part_attribute_value=\(h(v)))"))
            out.append((.writeRequest(handle: 0x13, value: v), "att.ATT_Write_Request(attribute_handle=0x13, attribute_value=\(h(v)))"))
            out.append((.writeCommand(handle: 0x17, value: v), "att.ATT_Write_Command(attribute_handle=0x17, attribute_value=\(h(v)))"))
            out.append((.notification(handle: 0x12, value: v), "att.ATT_Handle_Value_Notification(attribute_handle=0x12, attribute_value=\(h(v)))"))
            out.append((.indication(handle: 0x19, value: v), "att.ATT_Handle_Value_Indication(attribute_handle=0x19, attribute_value=\(h(v)))"))
        }
        out.append((.readRequest(handle: 0x0015), "att.ATT_Read_Request(attribute_handle=0x15)"))
        out.append((.readBlobRequest(handle: 0x0016, offset: 22), "att.ATT_Read_Blob_Request(attribute_handle=0x16, value_offset=22)"))
        out.append((.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService),
                    "att.ATT_Read_By_Group_Type_Request(starting_handle=1, ending_handle=0xFFFF, attribute_group_type=core.UUID.from_16_bits(0x2800))"))
        out.append((.writeResponse, "att.ATT_Write_Response()"))
        out.append((.confirmation, "att.ATT_Handle_Value_Confirmation()"))
        return out
    }

    @Test func everyPDUAgreesWithBumble() throws {
        let vectors = Self.vectors()
        let answers = try BumbleOracle.answers(.att, vectors.map { BumbleOracle.Vector($0.1, ours: Hex.string($0.0.encode())) })
        for ((pdu, python), answer) in zip(vectors, answers) {
            let ours = Hex.string(pdu.encode())
            #expect(answer.built == ours, "\(python): Bumble \(answer.built), ours \(ours)")
            #expect(answer.parsed == ours, "Bumble read ours back as \(answer.parsed)")
            #expect((try? ATTPDU.decode(Hex.bytes(answer.built))) == pdu, "\(python) decodes")
        }
    }

    /// Layouts a peer can get wrong: a list entry cut short, a Read By Type length below 2, an
    /// unknown format, a UUID of 3 octets, octets after a fixed-size PDU, an unmodelled opcode.
    @Test func malformedPDUsAreRefused() {
        #expect(throws: DecodeError.self) { try ATTPDU.decode([0x09, 0x04, 0x11, 0x00, 0xAA, 0xBB, 0x13, 0x00, 0xCC]) }
        #expect(throws: DecodeError.invalidValue(field: "Length", value: 1)) { try ATTPDU.decode([0x09, 0x01, 0x11]) }
        #expect(throws: DecodeError.invalidValue(field: "Format", value: 3)) { try ATTPDU.decode([0x05, 0x03, 0x01, 0x00, 0x02, 0x29]) }
        #expect(throws: DecodeError.invalidValue(field: "Attribute Type", value: 3)) { try ATTPDU.decode([0x08, 0x01, 0x00, 0xFF, 0xFF, 1, 2, 3]) }
        #expect(throws: DecodeError.trailingBytes(extra: 1)) { try ATTPDU.decode([0x02, 0xF7, 0x00, 0x00]) }
        #expect(throws: DecodeError.unexpectedCode(expected: -1, found: 0x20)) { try ATTPDU.decode([0x20, 0x00]) }
        #expect(throws: DecodeError.self) { try ATTPDU.decode([]) }
    }
}
