import EmulatorMath
import NearbyInteraction
/// Runs a deployment as an app would live it: a DL-TDOA session on the deployment's network,
/// every measurement into a `DLTDOAPositioner`, every fix recorded next to the truth.
public enum DLTDOASimulation {
    /// One fix and the truth at its time.
    public struct Record: Sendable {
        public var fix: DLTDOAPositionFix
        /// The phone's true position when the epoch's Poll arrived.
        public var truth: Vector3
        /// |fix − truth| and |tracked − truth| (horizontal + vertical), metres.
        public var fixError: Double { (fix.fix.position - truth).length }
        public var trackedError: Double? { fix.tracked.map { ($0 - truth).length } }
        /// Expected RMSE for this geometry and noise (CRLB) with the line-of-sight anchors the
        /// epoch heard (an NLOS anchor carries no information a receiver can use).
        public var bound: Double
    }

    public struct Run: Sendable {
        public var records: [Record]
        public var measurements: Int
        public var invalidation: NearbyError?
        public var discoveryTime: Double?
        /// Frames of other networks the phone heard and dropped.
        public var otherNetworkFrames: Int
        /// Epochs with enough differences for a position that gave no fix, and the last one's
        /// time and reason.
        public var unsolvedEpochs: Int
        public var lastNoFix: (time: Double, reason: TDoANoFix)?
        /// Each cluster initiator's Polls: hop counts and time-base error against its reference.
        public var timeBases: [DLTDOAPollTimeBase] = []
    }

    /// Options an app (or a test) sets.
    public struct Options: Sendable {
        public var networkIdentifier: Int
        public var discoveryMethod: DLTDOAConfiguration.DiscoveryMethod = .bluetoothLowEnergy
        public var correctsClockOffset = true
        public var rejectsOutliers = true
        public var anchorTimestampSigma = 0.03
        /// The σ the positioner assumes; nil: the deployment's phone timestamp σ combined with the anchors'.
        public var assumedTimingSigma: Double?
        public init(networkIdentifier: Int) { self.networkIdentifier = networkIdentifier }
    }

    public static func run(_ deployment: DLTDOADeployment, _ options: Options) -> Run {
        let air = DLTDOAAir(deployment: deployment, anchorTimestampSigma: options.anchorTimestampSigma)
        let session = DLTDOASession(air: air)
        let sigma = options.assumedTimingSigma
            ?? (deployment.timestampSigma * deployment.timestampSigma + options.anchorTimestampSigma * options.anchorTimestampSigma).squareRoot()
        let recorder = Recorder(positioner: DLTDOAPositioner(timingSigma: sigma))
        recorder.positioner.assembler.correctsClockOffset = options.correctsClockOffset
        recorder.positioner.solver.leastSquares.rejectOutliers = options.rejectsOutliers
        session.delegate = recorder
        session.run(DLTDOAConfiguration(networkIdentifier: options.networkIdentifier, discoveryMethod: options.discoveryMethod))
        var t = 0.0
        while t < deployment.duration, session.state != .invalidated {
            t = min(deployment.duration, t + deployment.blockDuration)
            session.advance(to: t)
        }
        if let last = recorder.positioner.flush() { recorder.fixes.append(last) }
        let records = recorder.fixes.map { f in
            let truth = deployment.receiverPosition(at: f.time)
            let clusters = f.problem.groups.map { g in ([g.reference] + g.anchors).filter { deployment.zonesCrossed($0, truth).isEmpty } }
            let bound = TDoAGeometry(clusters: clusters, timingSigma: sigma, fixedHeight: f.problem.fixedHeight).crlbRMSE(at: truth)
            return Record(fix: f, truth: truth, bound: bound)
        }
        return Run(records: records, measurements: recorder.measurements, invalidation: recorder.invalidation,
                   discoveryTime: session.discoveryTime, otherNetworkFrames: session.reader?.otherNetworkFrames ?? 0,
                   unsolvedEpochs: recorder.positioner.unsolvedEpochs, lastNoFix: recorder.positioner.lastNoFix,
                   timeBases: session.air.timeBases)
    }

    private final class Recorder: DLTDOASessionDelegate {
        var positioner: DLTDOAPositioner
        var fixes: [DLTDOAPositionFix] = []
        var measurements = 0
        var invalidation: NearbyError?
        init(positioner: DLTDOAPositioner) { self.positioner = positioner }
        func session(_ session: DLTDOASession, didUpdateDLTDOA measurements: [DLTDOAMeasurement]) {
            self.measurements += measurements.count
            for m in measurements { fixes += positioner.add(m) }
        }
        func session(_ session: DLTDOASession, didInvalidateWith error: NearbyError) { invalidation = error }
    }
}
