import DLTDoA
import EmulatorMath
import NearbyEmulation
import ToolJSON

/// How a `tdoa` run went: fixes against truth (RMSE, 90th percentile), the tracked path, the
/// Cramér-Rao bound of the geometry and noise, NLOS rejections, dropped frames; with several
/// clusters, each initiator's hop count and how far its Polls' common time base was from the
/// reference's counter.
struct TDoASummary {
    var fixes: Int
    var measurements: Int
    var epochsWithoutFix: Int
    /// Epochs the solver had enough differences for and still gave no fix, and the last reason.
    var unsolvedEpochs: Int
    var lastNoFix: String?
    var rmse: Double?
    var p90: Double?
    var trackedRMSE: Double?
    var crlb: Double?
    var rejectedEpochs: Int
    var otherNetworkFrames: Int
    var discovery: Double?
    var discoveryMethod: String
    /// The listened network's cluster initiators, by cluster (empty with a single cluster).
    var timeBases: [DLTDOAPollTimeBase]

    init(_ run: DLTDOASimulation.Run, deployment: DLTDOADeployment, options: DLTDOASimulation.Options) {
        fixes = run.records.count
        measurements = run.measurements
        let discovered = run.discoveryTime ?? deployment.duration
        let epochs = Int(((deployment.duration - discovered) / deployment.blockDuration).rounded())
        epochsWithoutFix = max(0, epochs - fixes)
        unsolvedEpochs = run.unsolvedEpochs
        lastNoFix = run.lastNoFix.map { "at \(fixed($0.time, 2)) s: \($0.reason)" }
        let errors = run.records.map(\.fixError)
        rmse = Self.rms(errors)
        p90 = Quantile.of(errors, 0.9)
        trackedRMSE = Self.rms(run.records.compactMap(\.trackedError))
        crlb = Self.rms(run.records.map(\.bound).filter(\.isFinite))
        rejectedEpochs = run.records.filter { !$0.fix.fix.rejectedAnchors.isEmpty }.count
        otherNetworkFrames = run.otherNetworkFrames
        discovery = run.discoveryTime
        discoveryMethod = options.discoveryMethod == .wifi ? "Wi-Fi" : "Bluetooth LE"
        let mine = run.timeBases.filter { Int($0.networkIdentifier) == options.networkIdentifier }.sorted { $0.cluster < $1.cluster }
        timeBases = mine.count > 1 ? mine : []
    }

    /// "0", "1", or "0xFF, 1"; "none" for Polls without a hop count.
    static func hops(_ t: DLTDOAPollTimeBase) -> String {
        t.hopCounts.map { $0.map { $0 == 0xFF ? "0xFF" : String($0) } ?? "none" }.joined(separator: ", ")
    }

    static func rms(_ v: [Double]) -> Double? { v.isEmpty ? nil : (v.map { $0 * $0 }.reduce(0, +) / Double(v.count)).squareRoot() }

    var text: String {
        func m(_ v: Double?) -> String { v.map { fixed($0, 3) + " m" } ?? "-" }
        var out = "\nsummary: \(fixes) fixes from \(measurements) measurements"
        if epochsWithoutFix > 0 { out += " (\(epochsWithoutFix) epochs without a fix)" }
        out += "; network discovered " + (discovery.map { "at \(fixed($0, 2)) s over \(discoveryMethod)" } ?? "never")
        out += "\n  fix error: RMSE \(m(rmse)), \(QuantileLabel.p90) \(m(p90)); tracked RMSE \(m(trackedRMSE)); CRLB \(m(crlb))"
        if let rmse, let crlb, crlb > 0 { out += " (RMSE \(fixed(rmse / crlb, 2))x the bound)" }
        out += "\n  NLOS anchors rejected in \(rejectedEpochs) of \(fixes) epochs; \(otherNetworkFrames) frames of other networks dropped"
        if unsolvedEpochs > 0, let lastNoFix { out += "\n  \(unsolvedEpochs) epochs with enough anchors gave no fix; the last \(lastNoFix)" }
        for t in timeBases {
            out += "\n  cluster \(t.cluster), initiator \(TDoAReport.hex4(Int(t.address))): hop count \(Self.hops(t)), \(t.polls) Polls"
            if t.address == t.referenceAddress {
                out += ", the time reference"
            } else {
                out += " from \(fixed(t.firstPollTime ?? 0, 2)) s, time base \(fixed(t.rmsError * 1e9, 2)) ns RMS (\(fixed(t.maximumError * 1e9, 2)) ns at most) off "
                    + TDoAReport.hex4(Int(t.referenceAddress)) + "'s"
            }
        }
        return out
    }

    func json(_ j: inout JSONWriter) {
        j.document("summary") { j in
            j.field("fixes", fixes)
            j.field("measurements", measurements)
            j.field("epochs_without_fix", epochsWithoutFix)
            j.field("unsolved_epochs", unsolvedEpochs)
            j.field("last_no_fix", lastNoFix)
            j.field("rmse_m", rmse, decimals: 4)
            j.field("p90_m", p90, decimals: 4)
            j.field("tracked_rmse_m", trackedRMSE, decimals: 4)
            j.field("crlb_m", crlb, decimals: 4)
            j.field("rejected_epochs", rejectedEpochs)
            j.field("other_network_frames", otherNetworkFrames)
            j.field("discovery_s", discovery, decimals: 4)
            if !timeBases.isEmpty {
                j.field("clusters", array: { j in
                    for t in timeBases {
                        j.object { j in
                            j.field("cluster", t.cluster)
                            j.field("initiator", TDoAReport.hex4(Int(t.address)))
                            j.field("hop_counts", array: { j in for h in t.hopCounts { if let h { j.value(h) } else { j.null() } } })
                            j.field("polls", t.polls)
                            j.field("first_poll_s", t.firstPollTime, decimals: 4)
                            j.field("time_base_rms_ns", t.rmsError * 1e9, decimals: 3)
                            j.field("time_base_max_ns", t.maximumError * 1e9, decimals: 3)
                        }
                    }
                })
            }
        }
    }
}
