import Testing
@testable import ReflectorFirmware
import TestSupport

@Suite struct RASControlPointTests {
    static let commands: [(RASControlPointCommand, String)] = [
        (.getRangingData(rangingCounter: 0x0123), "002301"),
        (.ackRangingData(rangingCounter: 0x0FFF), "01FF0F"),
        (.retrieveLostSegments(rangingCounter: 5, firstSegment: 2, lastSegment: 4), "0205000204"),
        (.abort, "03"),
        (.setFilter(0x00F0), "04F000"),
    ]
    static let responses: [(RASControlPointResponse, String)] = [
        (.completeRangingData(rangingCounter: 0x0123), "002301"),
        (.completeLostSegments(rangingCounter: 5, firstSegment: 2, lastSegment: 4), "0105000204"),
        (.responseCode(.success), "0201"),
        (.responseCode(.noRecordsFound), "0208"),
    ]

    @Test func commandsExactBytesAndRobustness() throws {
        for (k, (c, hex)) in Self.commands.enumerated() {
            #expect(Hex.string(c.encode(), uppercase: true) == hex)
            #expect(try RASControlPointCommand.decode(Hex.bytes(hex)) == c)
            DecoderChecks.everyTruncationIsTruncated(c.encode()) { b throws(DecodeError) in try RASControlPointCommand.decode(b) }
            DecoderChecks.extraOctetIsTrailing(c.encode()) { b throws(DecodeError) in try RASControlPointCommand.decode(b) }
            DecoderChecks.fuzz(seed: 400 + UInt64(k), valid: c.encode(), iterations: 1000, maxLength: 8) { b throws(DecodeError) in
                try RASControlPointCommand.decode(b)
            }
        }
        #expect(throws: DecodeError.invalidValue(field: "Op_Code", value: 5)) { _ = try RASControlPointCommand.decode([5]) }
    }

    @Test func responsesExactBytesAndRobustness() throws {
        for (k, (r, hex)) in Self.responses.enumerated() {
            #expect(Hex.string(r.encode(), uppercase: true) == hex)
            #expect(try RASControlPointResponse.decode(Hex.bytes(hex)) == r)
            DecoderChecks.everyTruncationIsTruncated(r.encode()) { b throws(DecodeError) in try RASControlPointResponse.decode(b) }
            DecoderChecks.extraOctetIsTrailing(r.encode()) { b throws(DecodeError) in try RASControlPointResponse.decode(b) }
            DecoderChecks.fuzz(seed: 500 + UInt64(k), valid: r.encode(), iterations: 1000, maxLength: 8) { b throws(DecodeError) in
                try RASControlPointResponse.decode(b)
            }
        }
        #expect(throws: DecodeError.invalidValue(field: "Response_Code", value: 0)) { _ = try RASControlPointResponse.decode([2, 0]) }
        #expect(RASUUID.rangingService == 0x185B && RASUUID.rangingDataOverwritten == 0x2C19)
    }
}
