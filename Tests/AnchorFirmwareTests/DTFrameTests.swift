import Testing
@testable import AnchorFirmware

/// DTM frames: exact octets of each message type, round trips and decode errors.
struct DTFrameTests {
    /// MHR, FiRa header IE and HT1 shared by the examples (source 0x1234, session 0x11111111):
    /// frame control AD 86 | dst FF FF | src 34 12 | security control 20 |
    /// header IE descriptor 13 00 (length 19, element 0) | OUI FF 18 5A | padding 08 × 8 |
    /// session 11 11 11 11 | STS index 00 00 00 00 | HT1 00 3F
    static let header: [UInt8] = [0xAD, 0x86, 0xFF, 0xFF, 0x34, 0x12, 0x20, 0x13, 0x00, 0xFF, 0x18, 0x5A]
        + [UInt8](repeating: 0x08, count: 8) + [0x11, 0x11, 0x11, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3F]

    static func frame(_ message: DTMessage) -> DTFrame {
        DTFrame(sourceAddress: 0x1234, sessionID: 0x1111_1111, roundIndex: 2, blockIndex: 0x0105, message: message)
    }

    @Test func pollOctets() throws {
        let f = Self.frame(.poll(DTPoll(txTimestamp: UWBTimestamp(ticks: 0x01_2345_6789), finalFollows: true,
                                        responders: [DTManagementEntry(address: 0x0A01), DTManagementEntry(address: 0x0A02)])))
        let expected = Self.header + [
            0x13, 0x90,              // payload IE: length 19, group 2 (vendor), type 1
            0xFF, 0x18, 0x5A, 0x27,  // OUI, message ID: OWR type 2 (Poll) << 4 | 7
            0x02, 0x04, 0x00,        // control: 2 responders, bit 10 Final present
            0x02, 0x05, 0x01,        // round 2, block 0x0105
            0x89, 0x67, 0x45, 0x23, 0x01,  // TX timestamp 0x0123456789
            0x01, 0x0A, 0x02, 0x0A,  // management list: 0x0A01, 0x0A02 (no slot, no ToF with DS-TWR)
            0x31, 0xF9,              // FCS
        ]
        #expect(f.encode() == expected)
        #expect(try DTFrame.decode(expected) == f)
    }

    @Test func responseOctets() throws {
        let f = Self.frame(.response(DTResponse(txTimestamp: UWBTimestamp(ticks: 0x1000), finalFollows: true, cfoQ610: 20 * 1024,
                                                replyTimeTicks: 63_897_600, timeOfFlightTicks: -5)))
        let expected = Self.header + [
            0x17, 0x90,              // payload IE length 23
            0xFF, 0x18, 0x5A, 0x37,  // OUI, Response (OWR type 3)
            0x00, 0xC4, 0x00,        // control: bit 10 Final, bit 14 CFO, bit 15 ToF = 0x00C400
            0x02, 0x05, 0x01,        // round, block
            0x00, 0x10, 0x00, 0x00, 0x00,  // TX timestamp 0x1000
            0x00, 0x50,              // CFO +20 ppm = 20 · 1024 = 0x5000 (Q6.10)
            0x00, 0x00, 0xCF, 0x03,  // reply time 63 897 600 = 0x03CF0000 (1 ms)
            0xFB, 0xFF,              // ToF −5
            0xE3, 0x55,              // FCS
        ]
        #expect(f.encode() == expected)
        #expect(try DTFrame.decode(expected) == f)
    }

    @Test func finalOctets() throws {
        let f = Self.frame(.final(DTFinal(txTimestamp: UWBTimestamp(ticks: 0x2000), replyTimes: [
            DTReplyTimeEntry(address: 0x0A01, replyTimeTicks: 10_000), DTReplyTimeEntry(address: 0x0A02, replyTimeTicks: 20_000),
        ])))
        let expected = Self.header + [
            0x1B, 0x90,              // payload IE length 27
            0xFF, 0x18, 0x5A, 0x47,  // OUI, Final (OWR type 4)
            0x80, 0x04, 0x00,        // control: reply time list length 2 << 6, bit 10 Final
            0x02, 0x05, 0x01,
            0x00, 0x20, 0x00, 0x00, 0x00,  // TX timestamp 0x2000
            0x01, 0x0A, 0x10, 0x27, 0x00, 0x00,  // 0x0A01: 10 000 = 0x2710
            0x02, 0x0A, 0x20, 0x4E, 0x00, 0x00,  // 0x0A02: 20 000 = 0x4E20
            0xCC, 0x56,              // FCS
        ]
        #expect(f.encode() == expected)
        #expect(try DTFrame.decode(expected) == f)
    }

    /// Every optional field set: slots, SS-TWR ToF, hop count, WGS-84 location, active rounds.
    @Test func roundTripsWithOptionals() throws {
        let poll = Self.frame(.poll(DTPoll(
            txTimestamp: UWBTimestamp(ticks: UWBTimestamp.mask), finalFollows: false,
            responders: [DTManagementEntry(address: 1, slotIndex: 3, timeOfFlightTicks: -7),
                         DTManagementEntry(address: 2, slotIndex: 5, timeOfFlightTicks: 2131)],
            hopCount: 0, location: .wgs84(latitude: 47.5, longitude: -122.25, altitude: 250), activeRounds: [0, 2, 4])))
        let octets = poll.encode()
        // control: 2 | slot bit 4 | hop 16 | location 17 | rounds 18 = 0x070012
        #expect(Array(octets[36...38]) == [0x12, 0x00, 0x07])
        #expect(try DTFrame.decode(octets) == poll)
        let response = Self.frame(.response(DTResponse(
            txTimestamp: UWBTimestamp(ticks: 99), finalFollows: false, replyTimeTicks: 7,
            location: .relative(x: -1, y: 2, z: -3), activeRounds: [])))
        #expect(try DTFrame.decode(response.encode()) == response)
    }

    @Test func errors() {
        let good = Self.frame(.final(DTFinal(txTimestamp: UWBTimestamp(ticks: 0x2000), replyTimes: []))).encode()
        var corrupted = good
        corrupted[40] ^= 1
        #expect(throws: DTFrameError.checksumMismatch(offset: good.count - 2, computed: FrameCheckSequence.crc16(corrupted.dropLast(2)),
                                                      received: 0x0000 | UInt16(good[good.count - 2]) | UInt16(good[good.count - 1]) << 8)) {
            try DTFrame.decode(corrupted)
        }
        #expect(throws: DTFrameError.truncated(field: .frameCheckSequence, offset: 6)) { try DTFrame.decode(good.prefix(8)) }

        // Body cut after 3 octets of the TX timestamp, FCS recomputed, IE length fixed: truncated at 45.
        var cut = Array(good[..<45])
        cut[30] = UInt8(cut.count - 32)
        FrameCheckSequence.append(to: &cut)
        #expect(throws: DTFrameError.truncated(field: .txTimestamp, offset: 42)) { try DTFrame.decode(cut) }

        // Payload IE claiming more octets than the frame holds.
        var long = Array(good.dropLast(2))
        long[30] += 1
        FrameCheckSequence.append(to: &long)
        #expect(throws: DTFrameError.truncated(field: .payloadIE, offset: long.count - 2)) { try DTFrame.decode(long) }

        // Message ID of a UL-TDoA blink (0x07) at octet 35.
        var blink = Array(good.dropLast(2))
        blink[35] = 0x07
        FrameCheckSequence.append(to: &blink)
        #expect(throws: DTFrameError.invalidValue(field: .messageID, offset: 35, value: 7)) { try DTFrame.decode(blink) }

        // A data frame's frame control.
        var data = Array(good.dropLast(2))
        data[0] = 0x41
        FrameCheckSequence.append(to: &data)
        #expect(throws: DTFrameError.invalidValue(field: .frameControl, offset: 0, value: 0x8641)) { try DTFrame.decode(data) }

        // Without the FiRa header IE (replaced by an unknown header IE of the same length).
        var anonymous = Array(good.dropLast(2))
        anonymous[8] = 0x01  // element ID 2
        FrameCheckSequence.append(to: &anonymous)
        #expect(throws: DTFrameError.missing(field: .firaHeaderIE, offset: 28)) { try DTFrame.decode(anonymous) }

        // 64-bit timestamps (bits 11–12 = 1) are not accepted.
        var wide = Array(good.dropLast(2))
        wide[37] |= 0x08
        FrameCheckSequence.append(to: &wide)
        #expect(throws: DTFrameError.invalidValue(field: .messageControl, offset: 36, value: 0x0C00)) { try DTFrame.decode(wide) }
        #expect(DTFrameError.truncated(field: .txTimestamp, offset: 42).description == "TX timestamp truncated at octet 42")
    }

    @Test func messageIDs() {
        #expect(DTMessageType.poll.messageIDOctet == 0x27)
        #expect(DTMessageType.response.messageIDOctet == 0x37)
        #expect(DTMessageType.final.messageIDOctet == 0x47)
        #expect(DTMessageType(messageIDOctet: 0x47) == .final && DTMessageType(messageIDOctet: 0x57) == nil)
    }
}
