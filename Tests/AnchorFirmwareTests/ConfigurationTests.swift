import Testing
@testable import AnchorFirmware

/// Validation names the problem and the allowed values.
struct ConfigurationTests {
    static let base = AnchorConfiguration(
        sessionID: 0x1111_1111, shortAddress: 0x1234, coordinates: .relative(x: 0, y: 0, z: 2500),
        rounds: [.initiator(round: 0, responders: [0x0A01, 0x0A02]), .responder(round: 1, initiator: 0x0B00)])

    @Test func defaultsAndDerivedTimes() throws {
        let c = try Self.base.validated()
        #expect(c.rangingMethod == .doubleSided && c.slotDurationRSTU == 1200 && c.txAntennaDelayTicks == 16_400)
        #expect(c.slotTicks == 63_897_600)  // 1200 · 416 · 128 = 1 ms
        #expect(c.roundTicks == 638_976_000)
        #expect(c.roundsPerBlock == 20)  // 200 ms / 10 ms
    }

    @Test func errors() {
        var c = Self.base
        c.rounds = [.initiator(round: 0, responders: Array(1...9))]
        #expect(throws: AnchorConfigurationError.responderCount(round: 0, count: 9, maximum: 8)) { try c.validated() }
        c.rounds = [.responder(round: 20, initiator: 7)]
        #expect(throws: AnchorConfigurationError.roundOutOfRange(round: 20, roundsPerBlock: 20)) { try c.validated() }
        c.rounds = [.responder(round: 3, initiator: 7), .initiator(round: 3, responders: [8])]
        #expect(throws: AnchorConfigurationError.duplicateRound(3)) { try c.validated() }
        c.rounds = [.initiator(round: 0, responders: Array(1...8))]
        c.slotsPerRound = 9  // Poll + 8 responders + Final = 10 slots
        #expect(throws: AnchorConfigurationError.roundTooShort(round: 0, slotsNeeded: 10, slotsPerRound: 9)) { try c.validated() }
        c.rangingMethod = .singleSided
        #expect(throws: Never.self) { try c.validated() }
        c.slotDurationRSTU = 600
        #expect(throws: AnchorConfigurationError.slotTooShort(rstu: 600, minimum: 1200)) { try c.validated() }
        c = Self.base
        c.coordinates = .relative(x: 0, y: 134_217_728, z: 0)
        #expect(throws: AnchorConfigurationError.coordinatesOutOfRange) { try c.validated() }
        c = Self.base
        c.rounds = [.initiator(round: 0, responders: [1, 2], slots: [3])]
        #expect(throws: AnchorConfigurationError.slotListLength(round: 0, slots: 1, responders: 2)) { try c.validated() }
        #expect(AnchorConfigurationError.responderCount(round: 0, count: 9, maximum: 8).description
            == "round 0 lists 9 responders: an initiator needs 1...8")
    }
}
