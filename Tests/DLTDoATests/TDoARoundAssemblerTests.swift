import AnchorFirmware
import DLTDoA
import EmulatorMath
import TestSupport
import Testing

/// The round assembler under `StreamDecoderVerifier`'s fragment mode: a round's measurements
/// (its Poll, the Responses, the Final) fed one at a time, in every split into runs, rounds of
/// several clusters back to back and random runs, give the round with its Final and nothing
/// before, and the assembler holds exactly the measurements of the open round.
///
/// The assembler is not a `FragmentReassembler`: one measurement may close several rounds (those
/// of other clusters left open past `roundTimeout`, then its own), so it is fed through
/// `verify(fragments:feed:)`.
@Suite struct TDoARoundAssemblerTests {
    static let phone = Vector3(1, 2, 0)

    /// One round of initiator `initiator` at `start` seconds: a Poll, Responses 1 ms apart from
    /// `responders` (in the initiator's time base), a Final; one clock for all (α = 1), exact
    /// flight times to the phone.
    static func round(initiator: Int, at position: Vector3, responders: [(address: Int, position: Vector3)], start: Double) -> [DLTDOAMeasurement] {
        func ticks(_ seconds: Double) -> UInt64 { UInt64((seconds * UWBTimestamp.ticksPerSecond).rounded()) & (1 << 40 - 1) }
        func measurement(_ address: Int, _ type: DLTDOAMeasurement.MeasurementType, _ at: Vector3, tx: Double) -> DLTDOAMeasurement {
            let rx = tx + (at - phone).length / 299_792_458.0
            return DLTDOAMeasurement(address: address, clusterInitiatorAddress: initiator, measurementType: type, coordinatesType: .relative,
                                     transmitTime: tx, rawTransmitTime: ticks(tx), receiveTime: rx, rawReceiveTime: ticks(rx), signalStrength: -70,
                                     carrierFrequencyOffset: 0, responderClockFrequencyOffset: type == .response ? 0 : nil, coordinates: at,
                                     hostTime: rx + 0.002)
        }
        var out = [measurement(initiator, .poll, position, tx: start)]
        for (k, r) in responders.enumerated() { out.append(measurement(r.address, .response, r.position, tx: start + 0.001 * Double(k + 1))) }
        out.append(measurement(initiator, .final, position, tx: start + 0.001 * Double(responders.count + 1)))
        return out
    }

    @Test func everySplitOfARoundGivesTheSameRound() throws {
        // Three clusters (their initiators 1, 10, 20), 50 ms apart, so one's history is not another's.
        let rounds = [
            Self.round(initiator: 1, at: Vector3(0, 0, 3), responders: [(2, Vector3(10, 0, 3)), (3, Vector3(0, 10, 3)), (4, Vector3(10, 10, 3))], start: 1.0),
            Self.round(initiator: 10, at: Vector3(20, 0, 3), responders: [(11, Vector3(30, 0, 3))], start: 1.05),
            Self.round(initiator: 20, at: Vector3(0, 20, 3), responders: [(21, Vector3(5, 25, 3)), (22, Vector3(-5, 25, 3))], start: 1.10),
        ]
        let expected: [TDoARound] = try rounds.map { r in
            var a = TDoARoundAssembler()
            let out = r.flatMap { a.add($0) }
            return try #require(out.first.map { out.count == 1 ? $0 : nil } ?? nil)
        }
        // The differences are the geometry's, to a tick (4.7 mm).
        for (round, measurements) in zip(expected, rounds) {
            let reference = (measurements[0].coordinates - Self.phone).length
            for d in round.differences { #expect(abs(d.rangeDifference - ((d.position - Self.phone).length - reference)) < 0.01) }
            #expect(round.differences.count == measurements.count - 2)
        }
        let verifier = StreamDecoderVerifier(decoder: { TDoARoundAssembler() }, state: \.heldMeasurements, idle: 0)
        try verifier.verify(fragments: zip(rounds, expected).map { ($0, [$1]) }, partial: { $0 }, endsAtLastElement: true, randomChunkings: 50) { assembler, fragment in
            fragment.elements.flatMap { assembler.add($0) }
        }
    }
}
