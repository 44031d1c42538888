import CaptureEstimation
import ReflectorFirmware
import ToolJSON

/// What a sweep computes: the grid (distances × channel models × SNRs × antenna paths × PCT
/// transfer × main modes), the estimators run on every procedure, how many seeded realizations each grid
/// point gets, how many procedures each realization runs, and the base seed. Two runs of equal
/// specs compute the same numbers whatever the workers or shards; shards of different specs
/// never merge.
///
/// Every key is declared once in `fields`: the flag `--KEY`, the key of a spec file, the key of
/// the spec a shard and the JSON output carry, its converter and its JSON form; so the command
/// line, the files and the outputs cannot disagree.
public struct SweepSpec: Equatable, Sendable {
    public var distances: [Double] = [1, 3, 10]
    public var channels: [AirChannelFamily] = ["free", "light", "two-ray"].compactMap(AirChannelFamily.init)
    public var snrs: [Double] = [20]
    public var antennaPaths: [Int] = [1]
    public var pct: [PCTTransfer] = [.inline]
    /// Main modes of the procedures: 2 (phase-based ranging), 1 (round-trip timing), 3 (both in
    /// each step). Mode 2 by default; `rtt` and `combined` need 1 or 3, the phase-based need 2 or 3.
    public var mainModes: [CSMode] = [.mode2]
    /// Every estimator by default: a sweep exists to compare them on the same tones.
    public var estimators: [EstimatorChoice] = EstimatorChoice.phaseBased
    /// Realizations (seeded simulations) per grid point.
    public var seeds = 10
    /// Procedures per realization.
    public var procedures = 20
    /// The base seed every realization's seed is derived from.
    public var seed: UInt64 = 1

    public init() {}

    /// The most estimates (grid points × seeds × procedures × estimators) one sweep keeps: each
    /// is a double in memory (and about 20 bytes in a shard file), so this bounds a run, and
    /// the merge that holds them all, to a few hundred megabytes.
    public static let maximumEstimates = 50_000_000
    /// The most realizations (grid points × seeds): each sets a link up before its first
    /// procedure (a millisecond or so), and each is a record in memory and in a shard.
    public static let maximumRealizations = 1_000_000

    /// Grid points without the estimator: what one realization simulates.
    public var cellCount: Int {
        distances.count * channels.count * snrs.count * antennaPaths.count * pct.count * mainModes.count
    }

    /// Refuses a spec whose run would exceed `maximumRealizations` or `maximumEstimates`
    /// (counted without overflow: every list holds at most 1,000 values and the counts at most
    /// 100,000, so the grid points alone fit an `Int`).
    public func validate() throws(ToolError) {
        if mainModes == [.mode1], !estimators.contains(where: \.usesTiming) {
            throw .usage("sweep: main mode 1 has no tones, so the estimators asked for ("
                + estimators.map(\.rawValue).joined(separator: ", ") + ") give no distance; allowed there: rtt, combined (--estimators rtt)")
        }
        let points = "\(cellCount) grid point\(cellCount == 1 ? "" : "s")"
        let (realizations, o1) = cellCount.multipliedReportingOverflow(by: seeds)
        let (perRealization, o2) = procedures.multipliedReportingOverflow(by: estimators.count)
        let (estimates, o3) = realizations.multipliedReportingOverflow(by: perRealization)
        if o1 || realizations > Self.maximumRealizations {
            throw .usage("sweep: the grid asks for \(o1 ? "more than \(Int.max)" : String(realizations)) realizations (\(points) × "
                + "\(seeds) seeds); allowed: at most \(Self.maximumRealizations) (fewer seeds or grid values)")
        }
        if o2 || o3 || estimates > Self.maximumEstimates {
            throw .usage("sweep: the grid asks for \(o2 || o3 ? "more than \(Int.max)" : String(estimates)) estimates (\(points) × "
                + "\(seeds) seeds × \(procedures) procedures × \(estimators.count) estimators); allowed: at most \(Self.maximumEstimates) "
                + "(fewer seeds, procedures or grid values)")
        }
    }
}

/// How the reflector's phase correction terms reach the phone: inline PCT transfer (Core 6.3,
/// what an iPhone requires: the reflector rotates its tone by the PCT it measured), or the
/// Ranging Service over GATT (the phone multiplies both sides' PCTs).
public enum PCTTransfer: String, CaseIterable, Sendable {
    case inline
    case ras
}

extension SweepSpec {
    /// One key of a spec.
    public struct Field {
        /// The key, and the flag without its dashes ("antenna-paths").
        public var key: String
        /// The flag's value in the help ("LIST").
        public var metavar: String
        public var help: [String]
        /// What the value may be, completing "must be ..." and "allowed: ...".
        public var allowed: String
        /// Whether the value is a list (a JSON array in a file).
        public var isList: Bool
        /// Stores the value of `text` (the flag's form); false when it is not allowed.
        public var set: (inout SweepSpec, String) -> Bool
        /// Writes the value as JSON, in the form a spec file takes back exactly.
        public var write: (SweepSpec, inout JSONWriter) -> Void

        public var flag: String { "--" + key }
    }

    /// The spec's keys, in the order the help, the spec files and the outputs list them.
    public static var fields: [Field] {
        [
            Field(key: "distances", metavar: "LIST", help: ["true distances, metres: 0.5,1,3,10 or START:STOP:STEP (1:30:5 is", "1, 6, ... 26; default 1,3,10)"],
                  allowed: OptionValue<[Double]>.distances.allowed, isList: true,
                  set: { s, t in store(t, .distances, &s.distances) }, write: { s, j in roundTrip(s.distances, &j) }),
            Field(key: "channels", metavar: "LIST", help: ["channel models (default free,light,two-ray): free, light, open,",
                                                           "two-ray, two-ray:EXCESS_M:AMPLITUDE, tgn-b ... tgn-e, and two-ray",
                                                           "families drawn per realization, two-ray:0.5-5:0.3-0.9"],
                  allowed: OptionValue<[AirChannelFamily]>.channelFamilies.allowed, isList: true,
                  set: { s, t in store(t, .channelFamilies, &s.channels) }, write: { s, j in j.array { j in for c in s.channels { j.value(c.name) } } }),
            Field(key: "snr", metavar: "LIST", help: ["per-tone SNRs, dB (default 20)"],
                  allowed: OptionValue<[Double]>.snrs.allowed, isList: true,
                  set: { s, t in store(t, .snrs, &s.snrs) }, write: { s, j in roundTrip(s.snrs, &j) }),
            Field(key: "antenna-paths", metavar: "LIST", help: ["antenna paths N_AP, 1-4 (default 1)"],
                  allowed: OptionValue<[Int]>.antennaPathCounts.allowed, isList: true,
                  set: { s, t in store(t, .antennaPathCounts, &s.antennaPaths) }, write: { s, j in j.array { j in for n in s.antennaPaths { j.value(n) } } }),
            Field(key: "pct", metavar: "LIST", help: ["inline (inline PCT transfer, default), ras (PCTs over RAS), or both"],
                  allowed: OptionValue<[PCTTransfer]>.pctTransfers.allowed, isList: true,
                  set: { s, t in store(t, .pctTransfers, &s.pct) }, write: { s, j in j.array { j in for p in s.pct { j.value(p.rawValue) } } }),
            Field(key: "main-mode", metavar: "LIST", help: ["main modes: 2 (phase-based ranging, default), 1 (round-trip", "timing), 3 (both), or a list of them"],
                  allowed: OptionValue<[CSMode]>.mainModes.allowed, isList: true,
                  set: { s, t in store(t, .mainModes, &s.mainModes) }, write: { s, j in j.array { j in for m in s.mainModes { j.value(Int(m.rawValue)) } } }),
            Field(key: "estimators", metavar: "LIST", help: ["estimators run on every procedure's tones (default the phase-based:",
                                                             EstimatorChoice.phaseBased.map(\.rawValue).joined(separator: ",") + ")"],
                  allowed: OptionValue<[EstimatorChoice]>.estimatorChoices.allowed, isList: true,
                  set: { s, t in store(t, .estimatorChoices, &s.estimators) }, write: { s, j in j.array { j in for e in s.estimators { j.value(e.rawValue) } } }),
            Field(key: "seeds", metavar: "N", help: ["realizations per grid point, each its own seeded simulation", "(default 10)"],
                  allowed: OptionValue<Int>.integer(1...100_000).allowed, isList: false,
                  set: { s, t in store(t, .integer(1...100_000), &s.seeds) }, write: { s, j in j.value(s.seeds) }),
            Field(key: "procedures", metavar: "N", help: ["procedures per realization (default 20)"],
                  allowed: OptionValue<Int>.integer(1...100_000).allowed, isList: false,
                  set: { s, t in store(t, .integer(1...100_000), &s.procedures) }, write: { s, j in j.value(s.procedures) }),
            Field(key: "seed", metavar: "N", help: ["base seed (default 1): with the grid point and the seed index it", "fixes each realization"],
                  allowed: OptionValue<UInt64>.unsigned.allowed, isList: false,
                  set: { s, t in store(t, .unsigned, &s.seed) }, write: { s, j in j.value(s.seed) }),
        ]
    }

    private static func store<T>(_ text: String, _ type: OptionValue<T>, _ target: inout T) -> Bool {
        guard let v = type.convert(text) else { return false }
        target = v
        return true
    }

    private static func roundTrip(_ values: [Double], _ j: inout JSONWriter) {
        j.array { j in for v in values { j.value(roundTrip: v) } }
    }

    /// The spec as one JSON object of its keys: a spec file that reads back as this spec.
    public func json(_ j: inout JSONWriter) {
        j.object { j in
            for field in Self.fields {
                j.key(text: field.key)
                field.write(self, &j)
            }
        }
    }
}

extension OptionValue where T == [Double] {
    /// Distances in metres, 0.1 to 149 (the loopback's range): a list, or `START:STOP:STEP`,
    /// every STEP from START up to STOP inclusive. The values of a range are rounded to the
    /// decimals its three numbers are written with, so 0.5:1:0.1 gives 0.6, not 0.6000000000000001.
    static var distances: OptionValue {
        let item = OptionValue<Double>.number(0.1...149, "m")
        let list = OptionValue.list(of: item, allowed: "")
        return OptionValue(allowed: "a comma-separated list of distinct distances from 0.1 to 149 m, or START:STOP:STEP (at most 1000 values)") { text in
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return list.convert(text) }
            guard let start = item.convert(String(parts[0])), let stop = item.convert(String(parts[1])), let step = Double(parts[2]),
                  step.isFinite, step > 0, start <= stop, (stop - start) / step < 1000 else {
                return nil
            }
            // ".1" has one decimal: the split keeps the empty integer part.
            let decimals = parts.map { p in
                p.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first.map { $0.prefix { $0.isNumber }.count } ?? 0
            }.max() ?? 0
            guard decimals <= 6, !parts.contains(where: { $0.contains("e") || $0.contains("E") }) else { return nil }
            let scale = (0..<decimals).reduce(1.0) { p, _ in p * 10 }
            var values: [Double] = []
            var k = 0.0
            while true {
                let v = ((start + k * step) * scale).rounded() / scale
                guard v <= stop + step * 1e-9 else { break }
                if values.last != v { values.append(min(max(v, start), stop)) }
                k += 1
            }
            return values
        }
    }

    /// Per-tone SNRs, -10 to 80 dB as `--snr` takes one elsewhere.
    static var snrs: OptionValue {
        .list(of: .number(-10...80, "dB"), allowed: "a comma-separated list of distinct numbers from -10 to 80 dB")
    }
}

extension OptionValue where T == [Int] {
    static var antennaPathCounts: OptionValue {
        .list(of: .integer(1...4), allowed: "a comma-separated list of distinct antenna path counts from 1 to 4")
    }
}

extension OptionValue where T == [PCTTransfer] {
    static var pctTransfers: OptionValue {
        .list(of: .choice(PCTTransfer.self), allowed: "a comma-separated list of inline, ras")
    }
}

extension OptionValue where T == [CSMode] {
    static var mainModes: OptionValue {
        .list(of: .mainMode, allowed: "a comma-separated list of distinct main modes: 1 (round-trip timing), 2 (phase-based ranging), 3 (both)")
    }
}

extension OptionValue where T == [EstimatorChoice] {
    static var estimatorChoices: OptionValue {
        .list(of: .choice(EstimatorChoice.self), allowed: "a comma-separated list of distinct estimators: "
            + EstimatorChoice.allCases.map(\.rawValue).joined(separator: ", "))
    }
}

extension OptionValue where T == [AirChannelFamily] {
    static var channelFamilies: OptionValue {
        .list(of: OptionValue<AirChannelFamily>(allowed: AirChannelFamily.allowed) { AirChannelFamily($0) },
              allowed: "a comma-separated list of distinct channel models, each " + AirChannelFamily.allowed)
    }
}
