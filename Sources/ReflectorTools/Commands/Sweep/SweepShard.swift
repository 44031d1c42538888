import ToolJSON

/// One shard of a sweep, as `sweep --shard I/N --out PREFIX` writes it to PREFIX.shard.json and
/// `sweep merge` reads it: the spec, which shard of how many, and the raw errors and two-path
/// bounds of every realization the shard ran, each number in the shortest form that reads back
/// as the same double (null: no distance, or no two-path bound). Nothing is summarised, so the merge computes every statistic
/// from the same bits, in the same order, as one whole run: its outputs are byte for byte the
/// whole run's.
///
/// ```
/// {"format": "reflector-emu sweep shard 2", "spec": {...}, "shard": "3/16",
///  "realizations": [{"index": 3, "errors": [[0.0123, -0.004, null], [...]], "bounds": [0.08, 0.11, 0.09]}, ...]}
/// ```
///
/// `errors` holds a row per estimator of the spec, in its order, of the spec's procedures each;
/// `bounds` one σ per procedure (`SweepRealization.bounds`); `rtt_bounds`, where a realization
/// timed round trips (main mode 1 or 3), RTT's σ per procedure (`SweepRealization.rttBounds`;
/// absent: none). Format 1 (before the bounds, and
/// before the sweep redrew the multipath every procedure) is refused: its errors were measured
/// on other channels, so a merge of both would mix two sweeps.
public struct SweepShard: Equatable, Sendable {
    /// Which realizations a shard runs: those whose seed index is `index` modulo `count`. The
    /// index counts from 0, as Slurm's SLURM_ARRAY_TASK_ID does for `--array=0-15`.
    public struct Selection: Equatable, Sendable, CustomStringConvertible {
        public var index: Int
        public var count: Int

        public static let maximumCount = 100_000
        public static let allowed = "I/N, a shard index I from 0 to N-1 (counted from 0, as SLURM_ARRAY_TASK_ID is) of N from 1 to \(maximumCount)"

        public init?(index: Int, count: Int) {
            guard (1...Self.maximumCount).contains(count), (0..<count).contains(index) else { return nil }
            self.index = index
            self.count = count
        }

        /// `I/N`, digits only.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
                  let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
            self.init(index: i, count: n)
        }

        public var description: String { "\(index)/\(count)" }
    }

    public static let format = "reflector-emu sweep shard 2"
    /// The largest shard file `merge` reads: a shard keeps about 20 bytes per estimate, so a
    /// whole sweep at `SweepSpec.maximumEstimates` fits in four shards.
    public static let maximumFileSize = 256 << 20

    public var spec: SweepSpec
    public var selection: Selection
    /// The realizations of the selection, in order.
    public var realizations: [SweepRealization]

    public init(spec: SweepSpec, selection: Selection, realizations: [SweepRealization]) {
        self.spec = spec
        self.selection = selection
        self.realizations = realizations
    }

    /// The file's JSON (one line per realization, so a shard reads in a text editor too).
    public func json(_ j: inout JSONWriter) {
        j.object { j in
            j.field("format", Self.format)
            j.key("spec")
            spec.json(&j)
            j.field("shard", selection.description)
            j.field("realizations", array: { j in
                for r in realizations {
                    j.newline()
                    j.object { j in
                        j.field("index", r.index)
                        j.field("errors", array: { j in
                            for row in r.errors { j.array { j in for e in row { j.value(roundTrip: e) } } }
                        })
                        j.field("bounds", array: { j in for b in r.bounds { j.value(roundTrip: b) } })
                        if r.rttBounds.contains(where: \.isFinite) {
                            j.field("rtt_bounds", array: { j in for b in r.rttBounds { j.value(roundTrip: b) } })
                        }
                    }
                }
            })
        }
        j.newline()
    }

    /// Reads a shard's JSON: the format, the spec (checked as flags and files are), the
    /// selection, and realizations that are exactly the selection's for that spec, each with a
    /// row of the spec's procedures per estimator.
    public init(json: JSONValue) throws(ToolError) {
        let r = try JSONObjectReader(json)
        if case .string("reflector-emu sweep shard 1")? = r.optional("format") {
            throw .badKey(key: "format", problem: "is \"reflector-emu sweep shard 1\", a shard of an earlier reflector-emu (its channels were "
                + "drawn once per realization, and it has no two-path bounds); allowed: \"\(Self.format)\": run that shard again")
        }
        _ = try r.choice("format", oneOf: [Self.format])
        var spec = SweepSpec()
        guard let specValue = r.optional("spec"), case .object = specValue else {
            throw .badKey(key: "spec", problem: "is \(r.optional("spec")?.brief ?? "missing"); allowed: an object of sweep keys")
        }
        do {
            try SweepSpecFile.apply(specValue, to: &spec)
            try spec.validate()
        } catch {
            guard case .badKey(let key, let problem) = error else { throw .badKey(key: "spec", problem: error.description) }
            throw .badKey(key: "spec.\(key)", problem: problem)
        }
        guard case .string(let text)? = r.optional("shard"), let selection = Selection(text) else {
            throw .badKey(key: "shard", problem: "is \(r.optional("shard")?.brief ?? "missing"); allowed: a string \(Selection.allowed)")
        }
        let expected = SweepGrid.realizations(of: spec, in: selection)
        guard case .array(let items)? = r.optional("realizations") else {
            throw .badKey(key: "realizations", problem: "is \(r.optional("realizations")?.brief ?? "missing"); allowed: an array of realizations")
        }
        guard items.count == expected.count else {
            throw .badKey(key: "realizations", problem: "holds \(items.count) realizations; allowed: the \(expected.count) of shard \(selection) of this spec")
        }
        var realizations: [SweepRealization] = []
        realizations.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            realizations.append(try Self.realization(item, at: k, expected: expected[k], spec: spec))
        }
        self.init(spec: spec, selection: selection, realizations: realizations)
    }

    /// Realization `k` of the file, which must be realization `expected` of the grid.
    static func realization(_ item: JSONValue, at k: Int, expected: Int, spec: SweepSpec) throws(ToolError) -> SweepRealization {
        let key = "realizations[\(k)]"
        guard case .object(let o) = item, o.count == 3 || (o.count == 4 && o["rtt_bounds"] != nil) else {
            throw .badKey(key: key, problem: "is \(item.brief); allowed: {\"index\": N, \"errors\": [...], \"bounds\": [...]}, and \"rtt_bounds\": [...] where round trips were timed")
        }
        guard case .number(let n)? = o["index"], n.integer(as: Int.self) == expected else {
            throw .badKey(key: key + ".index", problem: "is \(o["index"]?.brief ?? "missing"); allowed: \(expected), the next realization of this shard")
        }
        let shape = "\(spec.estimators.count) arrays (one per estimator) of \(spec.procedures) numbers or nulls"
        guard case .array(let rows)? = o["errors"], rows.count == spec.estimators.count else {
            throw .badKey(key: key + ".errors", problem: "is \(o["errors"]?.brief ?? "missing"); allowed: \(shape)")
        }
        var errors: [[Double]] = []
        errors.reserveCapacity(rows.count)
        for row in rows {
            guard case .array(let values) = row, values.count == spec.procedures else {
                throw .badKey(key: key + ".errors", problem: "holds \(row.brief) of the wrong length; allowed: \(shape)")
            }
            var out: [Double] = []
            out.reserveCapacity(values.count)
            for v in values {
                switch v {
                case .null: out.append(.nan)
                case .number(let n): out.append(n.double)
                default: throw .badKey(key: key + ".errors", problem: "holds \(v.brief); allowed: \(shape)")
                }
            }
            errors.append(out)
        }
        let sigmas = try Self.sigmas(o["bounds"], key: key + ".bounds", procedures: spec.procedures)
        let rttSigmas = try o["rtt_bounds"].map { v throws(ToolError) in try Self.sigmas(v, key: key + ".rtt_bounds", procedures: spec.procedures) }
        return SweepRealization(index: expected, errors: errors, bounds: sigmas, rttBounds: rttSigmas)
    }

    /// A realization's array of one σ per procedure (null: none), at `key`.
    private static func sigmas(_ value: JSONValue?, key: String, procedures: Int) throws(ToolError) -> [Double] {
        let allowed = "\(procedures) numbers (σ in metres, not negative) or nulls"
        guard case .array(let values)? = value, values.count == procedures else {
            throw .badKey(key: key, problem: "is \(value?.brief ?? "missing"); allowed: \(allowed)")
        }
        var sigmas: [Double] = []
        sigmas.reserveCapacity(values.count)
        for v in values {
            switch v {
            case .null: sigmas.append(.nan)
            case .number(let n) where n.double >= 0 && n.double.isFinite: sigmas.append(n.double)
            default: throw .badKey(key: key, problem: "holds \(v.brief); allowed: \(allowed)")
            }
        }
        return sigmas
    }

    /// Reads the shard file at `path`, at most `maximumFileSize` bytes; errors name the file.
    public static func read(path: String) throws(ToolError) -> SweepShard {
        let bytes = try JSONFile.contents(path, limit: maximumFileSize)
        do {
            return try SweepShard(json: JSONValue.parse(bytes: bytes))
        } catch {
            throw .badFile("\(path): \(error.description)")
        }
    }

    /// The whole run the shards of one split make up: the grid and every realization in order.
    /// Refuses, naming the files, shards of different specs, of different splits (which would
    /// overlap or leave gaps), the same shard twice, and a split with shards missing.
    public static func merge(_ shards: [(path: String, shard: SweepShard)]) throws(ToolError) -> (grid: SweepGrid, realizations: [SweepRealization]) {
        guard let first = shards.first else { throw .usage("sweep merge: no shard files; give every PREFIX.shard.json of the run") }
        let count = first.shard.selection.count
        var byIndex = [String?](repeating: nil, count: count)
        for (path, shard) in shards {
            if shard.spec != first.shard.spec {
                let differs = differingKeys(shard.spec, first.shard.spec)
                throw .usage("sweep merge: \(path) is a shard of a different sweep than \(first.path) (their specs differ in \(differs)); "
                    + "allowed: the shards of one run")
            }
            guard shard.selection.count == count else {
                throw .usage("sweep merge: \(path) is shard \(shard.selection) but \(first.path) is shard \(first.shard.selection): "
                    + "shards of different splits overlap or leave gaps; allowed: the shards of one --shard I/\(count) split")
            }
            if let other = byIndex[shard.selection.index] {
                throw .usage("sweep merge: \(path) and \(other) are both shard \(shard.selection); allowed: each shard once")
            }
            byIndex[shard.selection.index] = path
        }
        let missing = byIndex.indices.filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            let listed = missing.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", ") + (missing.count > 10 ? ", ..." : "")
            throw .usage("sweep merge: \(missing.count) of \(count) shards missing (\(listed)); allowed: every shard of the split, 0/\(count) to \(count - 1)/\(count)")
        }
        let grid = SweepGrid(first.shard.spec)
        var all = [SweepRealization?](repeating: nil, count: grid.realizationCount)
        for (_, shard) in shards {
            for r in shard.realizations { all[r.index] = r }
        }
        return (grid, all.map { $0! })
    }

    /// The spec keys whose values differ, as the message names them.
    static func differingKeys(_ a: SweepSpec, _ b: SweepSpec) -> String {
        let keys = SweepSpec.fields.filter { f in
            var ja = JSONWriter(), jb = JSONWriter()
            f.write(a, &ja)
            f.write(b, &jb)
            return ja.bytes != jb.bytes
        }.map { "\"\($0.key)\"" }
        return keys.isEmpty ? "their channel models" : keys.joined(separator: ", ")
    }
}
