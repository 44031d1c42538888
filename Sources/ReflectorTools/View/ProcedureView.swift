import EmulatorMath
import Foundation
import RangingEstimation
import ToolJSON

/// One procedure as the live page plots it: per antenna path, each channel's amplitude
/// (normalised to the procedure's strongest) and round-trip phase unwrapped about the path's
/// least-squares line (as `--plot` unwraps it), each tone's quality in the order the steps
/// measured them, and the impulse response (IFFT magnitude summed over the paths, normalised,
/// cut to the distances of interest) with its first path, and the paths the multipath fit
/// (`ml`, the default estimator) finds in the same tones. Pure: tones in, numbers out.
struct ProcedureView {
    /// Tone quality as the page colours it.
    enum Quality: Int {
        case good = 0
        case bad = 1
        /// No controller rated it (quality unavailable) and nothing judged it.
        case unrated = 2
    }

    struct Path: Equatable {
        /// CS channel indices k (2402 + k MHz), ascending.
        var channels: [Int] = []
        var amplitude: [Double] = []
        var phase: [Double] = []
        /// Whether the channel had a good tone.
        var good: [Bool] = []
        /// Each tone's channel and quality, in measured order.
        var stepChannels: [Int] = []
        var stepQuality: [Quality] = []
    }

    var paths: [Path]
    /// Normalised magnitude per IFFT bin, from 0 m.
    var impulse: [Double]
    var binMetres: Double
    /// The IFFT's first path, metres.
    var firstPath: Double?
    /// The multipath fit's paths: one-way distance (metres) and amplitude relative to the
    /// strongest, nearest first.
    var fitPaths: [(distance: Double, amplitude: Double)]

    /// Whether the tones are one side's PCTs (the reflector's, in `accessory`): their phase
    /// holds that side's LO phase, so there is no impulse response or fit to show.
    var oneSided = false

    init(tones: ToneSet, truth: Double?, estimate: Double?) {
        let peak = tones.paths.joined().map(\.value.magnitude).max() ?? 1
        let scale = peak > 0 ? 1 / peak : 1
        paths = tones.paths.map { Self.path($0, scale: scale) }
        let ifft = IFFTEstimator()
        binMetres = ifft.binSize
        var sum: [Double] = []
        var first: Double?
        for path in tones.paths {
            guard let e = ifft.estimatePath(path, diagnostics: true), let m = e.diagnostics?.ifftMagnitude else { continue }
            if sum.isEmpty { sum = Array(repeating: 0, count: m.count) }
            for i in 0..<min(sum.count, m.count) { sum[i] += m[i] }
            first = first ?? e.distance
        }
        firstPath = first
        let components = tones.paths.isEmpty ? [] : MultipathFitEstimator().estimate(tones, diagnostics: true)?.diagnostics?.components ?? []
        let strongest = max(components.map(\.amplitude).max() ?? 1, .leastNonzeroMagnitude)
        fitPaths = components.map { ($0.distance, $0.amplitude / strongest) }
        // Twice the farthest distance of interest and at least 20 m: the rest of the 150 m is mostly wrap-around.
        let interest = max(first ?? 0, truth ?? 0, estimate ?? 0)
        let bins = min(sum.count, Int((max(20, 2 * interest + 5) / binMetres).rounded(.up)) + 1)
        let top = max(sum.max() ?? 1, .leastNonzeroMagnitude)
        impulse = sum.prefix(bins).map { $0 / top }
    }

    /// One side's PCTs: amplitude, phase and tone quality per channel, nothing estimated.
    init(oneSide tones: ToneSet) {
        let peak = tones.paths.joined().map(\.value.magnitude).max() ?? 1
        let scale = peak > 0 ? 1 / peak : 1
        paths = tones.paths.map { Self.path($0, scale: scale) }
        impulse = []
        binMetres = IFFTEstimator().binSize
        firstPath = nil
        fitPaths = []
        oneSided = true
    }

    static func path(_ tones: [ToneSet.Tone], scale: Double) -> Path {
        var p = Path()
        for t in tones {
            p.stepChannels.append(Int(t.channel))
            p.stepQuality.append(!t.isRated ? .unrated : t.isGood ? .good : .bad)
        }
        // Per channel: the mean of its good tones (of all its tones when none is good).
        var all: [Int: (z: Complex, n: Int)] = [:]
        var good: [Int: (z: Complex, n: Int)] = [:]
        for t in tones {
            let k = Int(t.channel)
            all[k] = ((all[k]?.z ?? .zero) + t.value, (all[k]?.n ?? 0) + 1)
            if t.isGood { good[k] = ((good[k]?.z ?? .zero) + t.value, (good[k]?.n ?? 0) + 1) }
        }
        let line = PhaseSlopeEstimator(variant: .leastSquares).estimatePath(tones, diagnostics: true)?.diagnostics?.phaseLine
        var previous: Double?
        for k in all.keys.sorted() {
            let s = good[k] ?? all[k]!
            let z = s.z * (1 / Double(s.n))
            p.channels.append(k)
            p.amplitude.append(z.magnitude * scale)
            p.good.append(good[k] != nil)
            let phase: Double
            if let line {
                let predicted = line.intercept + line.slopePerMHz * (Double(k) - line.referenceChannel)
                phase = predicted + remainder(z.phase - predicted, 2 * Double.pi)
            } else if let last = previous {
                // No line (too few good tones): unwrap channel to channel.
                phase = last + remainder(z.phase - last, 2 * Double.pi)
            } else {
                phase = z.phase
            }
            previous = phase
            p.phase.append(phase)
        }
        return p
    }

    /// `{"procedure_id": N, "side": "round trip" or "reflector", "paths": [{"channels": [...], "amplitude": [...], "phase_rad": [...],
    /// "good": [...], "step_channels": [...], "step_quality": [...]}], "impulse": {"bin_m": ...,
    /// "magnitude": [...], "first_path_m": ...}}`; `procedureID` is the id of the procedure's
    /// own event, so the page pairs the two even when it lost some.
    func json(procedureID: UInt64, _ j: inout JSONWriter) {
        j.object { j in
            j.field("procedure_id", procedureID)
            j.field("side", oneSided ? "reflector" : "round trip")
            j.field("paths", array: { j in
                for p in paths {
                    j.object { j in
                        j.field("channels", array: { j in for k in p.channels { j.value(k) } })
                        j.field("amplitude", p.amplitude, decimals: 4)
                        j.field("phase_rad", p.phase, decimals: 3)
                        j.field("good", array: { j in for g in p.good { j.value(g) } })
                        j.field("step_channels", array: { j in for k in p.stepChannels { j.value(k) } })
                        j.field("step_quality", array: { j in for q in p.stepQuality { j.value(q.rawValue) } })
                    }
                }
            })
            j.field("impulse", object: { j in
                j.field("bin_m", binMetres, decimals: 5)
                j.field("magnitude", impulse, decimals: 4)
                j.field("first_path_m", firstPath, decimals: 4)
                j.field("fit_paths_m", fitPaths.map(\.distance), decimals: 4)
                j.field("fit_amplitudes", fitPaths.map(\.amplitude), decimals: 3)
            })
        }
    }
}
