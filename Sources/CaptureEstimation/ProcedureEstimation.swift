import BLEHost
import Captures
import PhoneEmulation
import RangingEstimation
import ReflectorFirmware

/// Turns the procedures of a capture (and, optionally, of the peer's capture) into distances.
///
/// - With inline PCT transfer the initiator's own PCTs are the round-trip tones; a reflector
///   capture is not needed and is ignored.
/// - Without it each tone is the initiator's PCT times the reflector's PCT of the same step
///   and antenna path (`ToneSetBuilder`), so the reflector's procedure with the same Config_ID
///   and Procedure_Counter is needed (pairing is in capture order when a counter repeats, as after
///   a wrap). Its steps pair with the initiator's by position; a step whose channel or mode
///   differs is left out.
/// - Inline PCT is taken from `inlinePCT` (the `--ipt`/`--no-ipt` override), else from the
///   capture's Config Complete, else from the reflector capture's; when nobody says, a
///   reflector capture means "no inline PCT" and without one the distance is unknown.
/// - A phone's capture of a Ranging Service session holds the reflector's step data as RAS
///   ranging data (`CaptureProcedures.rasProcedures`): it pairs by adapter, connection,
///   Config_ID and Ranging_Counter (12 bits), when no reflector capture is given.
/// - A file that holds both sides (Silicon Labs' dump) pairs with itself: only its initiator's
///   procedures are estimated.
/// - Tones are built by `ToneSetBuilder`: a tone the controllers rated unavailable (3) is judged by
///   the estimator (`ToneScreening`) rather than dropped.
public enum ProcedureEstimation {
    public static let missingReflector = "without inline PCT the tones need the reflector's results: give its capture with --reflector"
    public static let unknownInlinePCT = "the capture has no LE CS Config Complete, so inline PCT is unknown: pass --ipt, or --reflector with the reflector's capture"
    public static let reflectorRole = "the capture holds the reflector's results: give the initiator's capture first and this one with --reflector"
    public static let noRangingSteps = "no ranging steps (mode 1, 2 or 3) were reported"
    public static let noTimingSteps = "no round-trip timing steps (mode 1 or 3) were reported"
    public static let tooFewTones = "too few good tones (every antenna path needs 15 distinct good channels)"

    /// Why a round-trip estimate failed: too few usable steps, and what left the others out.
    static func tooFewTimedSteps(_ t: RoundTripTimes) -> String {
        var parts: [String] = []
        if t.rejected.accessAddress > 0 { parts.append("\(t.rejected.accessAddress) failed the access-address check") }
        if t.rejected.notAvailable > 0 { parts.append("\(t.rejected.notAvailable) had no time") }
        if t.rejected.unpaired > 0 { parts.append("\(t.rejected.unpaired) had no reflector step to pair with") }
        return "too few usable round-trip steps (\(t.samples.count) usable, 3 needed" + (parts.isEmpty ? ")" : "; " + parts.joined(separator: ", ") + ")")
    }

    /// The missing-reflector reason of a procedure that only timed round trips.
    static func missingReflector(timing missing: String) -> String {
        missing == missingReflector ? "round-trip timing needs the reflector's results: give its capture with --reflector" : missing
    }

    /// `calibration` is taken off every procedure's tones and round trips (`BoardCalibration`),
    /// after only the tones of `channels` are kept; the kept tones are the calibrated ones.
    public static func estimates(
        _ capture: CaptureProcedures, reflector: CaptureProcedures?, inlinePCT: Bool?, estimator choice: EstimatorChoice,
        keepTones: Bool = false, calibration: BoardCalibration = .none, channels: ChannelSubset = .all
    ) -> [ProcedureEstimate] {
        struct Key: Hashable {
            var configID: UInt8
            var counter: UInt16
        }
        // A file that holds both sides (a vendor's dump) is its own reflector capture.
        let mine = capture.procedures.filter { $0.role == .initiator }
        let bothSides = !mine.isEmpty && capture.procedures.contains { $0.role == .reflector }
        var peers: [Key: [CapturedProcedure]] = [:]
        for p in (bothSides ? capture.procedures : []) + (reflector?.procedures ?? []) where p.role == .reflector {
            peers[Key(configID: p.results.configID, counter: p.procedureCounter), default: []].append(p)
        }
        let hasPeers = reflector != nil || bothSides
        // The reflector's ranging data the phone's own capture carried (RAS), by connection,
        // Config_ID and Ranging_Counter (the procedure counter's low 12 bits).
        // By connection, not only by handle: a controller reuses a handle for the next connection.
        struct RASKey: Hashable {
            var adapter: UInt16
            var connection: UInt16
            var link: Int
            var configID: UInt8
            var counter: UInt16
        }
        var rasPeers: [RASKey: [RASProcedure]] = [:]
        for r in capture.rasProcedures {
            let link = capture.link(adapter: r.adapter, handle: r.connection, at: r.offset)
            rasPeers[RASKey(adapter: r.adapter, connection: r.connection, link: link, configID: r.configID, counter: r.rangingCounter), default: []].append(r)
        }
        // Procedures whose whole 16-bit counter repeats on one connection (a controller that does
        // not count, RootCanal 1.13): pairing them with the reflector's data by capture order
        // may pair the wrong ones (the 12-bit RAS counter's wrap is no repeat).
        var repeats: [RASKey: Int] = [:]
        for p in capture.procedures where p.role == .initiator {
            repeats[RASKey(adapter: p.adapter, connection: p.connectionHandle, link: p.link, configID: p.results.configID, counter: p.procedureCounter), default: 0] += 1
        }
        let estimator = calibration.timing(choice.estimator)
        return (bothSides ? mine : capture.procedures).map { p in
            func none(_ reason: String, _ source: ToneSource? = nil) -> ProcedureEstimate {
                var e = ProcedureEstimate(procedureCounter: p.procedureCounter, distance: nil, quality: nil, method: choice.rawValue,
                                          reason: p.results.isAborted ? reason + "; the procedure was aborted" : reason,
                                          connection: p.connectionHandle, configID: p.results.configID, source: source)
                e.peer = p.peerAddress
                e.vendorDistance = p.vendorDistance
                return e
            }
            guard p.role == .initiator else { return none(reflectorRole) }
            let steps = p.results.steps
            let hasTones = steps.contains { $0.mode.hasTones }
            let hasTiming = steps.contains { $0.mode == .mode1 || $0.mode == .mode3 }
            guard hasTones || hasTiming else {
                let aborted = p.results.subevents.contains { $0.stepsReport.subeventDoneStatus == .aborted }
                return none(noRangingSteps + (aborted ? "; its subevent was aborted" : ""))
            }
            let key = Key(configID: p.results.configID, counter: p.procedureCounter)
            let peer = peers[key]?.first
            if peer != nil { peers[key]!.removeFirst() }
            let rasKey = RASKey(adapter: p.adapter, connection: p.connectionHandle, link: p.link, configID: p.results.configID, counter: p.procedureCounter & 0x0FFF)
            let sameCounter = repeats[RASKey(adapter: p.adapter, connection: p.connectionHandle, link: p.link, configID: p.results.configID, counter: p.procedureCounter)] ?? 0
            let ras = rasPeers[rasKey]?.first
            if ras != nil { rasPeers[rasKey]!.removeFirst() }
            // The RAS report goes with an estimate made from it (not with one made from --reflector).
            var usesRAS = false
            var paired = false
            func withRAS(_ e: ProcedureEstimate) -> ProcedureEstimate {
                var e = e
                if usesRAS { e.ras = ras }
                if paired, sameCounter > 1 {
                    e.pairingNote = "pairing ambiguous: \(sameCounter) procedures on this connection have counter \(p.procedureCounter); "
                        + "paired with the reflector's data in capture order"
                }
                return e
            }
            // The reflector's steps, in the initiator's order, wherever they came from.
            var theirs: [StepData?]?
            var theirSource: ToneSource?
            if let peer {
                theirs = aligned(peer.results.steps, to: steps)
                theirSource = peer.origin.isVendorLog ? .vendorLog : .reflectorCapture
            } else if let ras {
                usesRAS = true
                theirSource = ras.mode == .realTime ? .rasRealTime : .rasOnDemand
                guard ras.data != nil else { return withRAS(none("the reflector's ranging data did not come whole: \(ras.problem ?? "")", theirSource)) }
                theirs = aligned(ras.steps, to: steps)
            }
            let missing = !hasPeers ? (capture.rasProcedures.isEmpty ? missingReflector : "the capture's Ranging Service traffic has no ranging data for procedure \(p.procedureCounter) of configuration \(p.results.configID) on connection \(p.connectionHandle)")
                : "the reflector's capture has no procedure \(p.procedureCounter) of configuration \(p.results.configID)"
            // A phase estimator on a procedure without tones falls back to its round-trip
            // timing, as Nordic's `cs_de` falls back from IFFT to RTT.
            let estimator = hasTones || choice.usesTiming ? estimator : calibration.timing(RoundTripTimeEstimator())
            var tones: ToneSet
            let source: ToneSource
            if !hasTones {
                guard theirs != nil, let theirSource else { return none(missingReflector(timing: missing)) }
                paired = true
                tones = ToneSet(paths: [])
                source = theirSource
            } else {
                let ipt = inlinePCT ?? p.inlinePCT ?? peer?.inlinePCT ?? (hasPeers || ras != nil ? false : nil)
                switch ipt {
                case true?:
                    tones = ToneSetBuilder.tones(initiator: steps, reflector: nil, antennaPaths: p.antennaPaths)
                    source = .inlinePCT
                case false?:
                    guard let theirs, let theirSource else { return none(missing) }
                    paired = true
                    tones = ToneSetBuilder.tones(initiator: steps, reflector: theirs, antennaPaths: p.antennaPaths)
                    source = theirSource
                case nil:
                    return none(unknownInlinePCT)
                }
            }
            tones = calibration.apply(to: channels.apply(to: tones))
            let roundTrips = RoundTripTimeBuilder.times(initiator: steps, reflector: theirs)
            guard let e = estimator.estimate(tones, roundTrips: roundTrips) else {
                let reason = !hasTones ? tooFewTimedSteps(roundTrips)
                    : choice == .rtt ? (hasTiming ? tooFewTimedSteps(roundTrips) : noTimingSteps) : tooFewTones
                var n = withRAS(none(reason, source))
                if keepTones { n.tones = tones }
                n.roundTrips = roundTrips
                return n
            }
            var done = withRAS(ProcedureEstimate(procedureCounter: p.procedureCounter, distance: e.distance, quality: e.quality,
                                     method: EstimatorChoice.name(of: e.method), reason: nil,
                                     connection: p.connectionHandle, configID: p.results.configID, source: source))
            if keepTones { done.tones = tones }
            done.roundTrips = roundTrips
            done.standardError = e.standardError
            done.peer = p.peerAddress
            done.vendorDistance = p.vendorDistance
            return done
        }
    }

    /// The reflector's RAS steps (no channel: RAS leaves it out) in the initiator's step order:
    /// position k when its mode matches the initiator's step k, else nil (aborted steps are nil).
    static func aligned(_ theirs: [RangingStep], to mine: [SubeventStep]) -> [StepData?] {
        mine.indices.map { k in k < theirs.count && theirs[k].mode == mine[k].mode ? theirs[k].data : nil }
    }

    /// The reflector's step data in the initiator's step order: position k when its channel and
    /// mode match the initiator's step k, else nil.
    static func aligned(_ theirs: [SubeventStep], to mine: [SubeventStep]) -> [StepData?] {
        mine.indices.map { k in
            k < theirs.count && theirs[k].channel == mine[k].channel && theirs[k].mode == mine[k].mode ? theirs[k].data : nil
        }
    }
}
