import Foundation
import ToolJSON
import RangingEstimation

/// A board calibration file (`estimate CAPTURE --calibrate … --out FILE`, read by
/// `--calibration FILE`), or the `calibration` object of a board profile: the
/// `BoardCalibration` and what it was learned from. Format (docs/formats.md):
///
///     {"format": "reflector-emu board calibration", "reference": "absolute",
///      "path_delays_m": [0.41, 0.93, 0.12, 1.62], "rtt_offset_m": 0.35,
///      "distance_m": 1.0, "estimator": "ml", "procedures": 39, "source": "capture.txt"}
///
/// Every key is checked, unknown keys included (a misspelt key would otherwise be a silently
/// ignored correction), and errors name the key path, what was wrong and what is allowed.
public struct BoardCalibrationFile: Equatable {
    public static let format = "reflector-emu board calibration"
    /// The keys a calibration object may have.
    public static let keys = ["format", "reference", "path_delays_m", "rtt_offset_m", "distance_m", "estimator", "procedures", "source"]
    /// A path delay beyond half the 149.9 m ambiguity is no delay a phase can tell.
    public static let delayRange = -(Ranging.ambiguityRange / 2).rounded(.down)...(Ranging.ambiguityRange / 2).rounded(.down)
    public static let offsetRange = -1000.0...1000.0
    public static let distanceRange = 0.0...1000.0

    public var calibration: BoardCalibration
    /// The known distance an absolute calibration was learned at, metres.
    public var distance: Double?
    /// The estimator of the common delay (`EstimatorChoice`'s name).
    public var estimator: String?
    /// How many procedures it was learned from.
    public var procedures: Int?
    /// The capture it was learned from.
    public var source: String?

    public init(calibration: BoardCalibration, distance: Double? = nil, estimator: String? = nil, procedures: Int? = nil, source: String? = nil) {
        self.calibration = calibration
        self.distance = distance
        self.estimator = estimator
        self.procedures = procedures
        self.source = source
    }

    /// Reads a calibration from `value`; `keyPath` prefixes every key an error names
    /// ("calibration." inside a board profile), where `format` may be left out.
    public init(json value: JSONValue, keyPath: String = "") throws(ToolError) {
        func bad(_ key: String, _ problem: String) -> ToolError { .badKey(key: keyPath + key, problem: problem) }
        guard case .object = value else {
            throw keyPath.isEmpty ? ToolError.badFile("the top level must be a JSON object, found \(value.brief)")
                : .badKey(key: String(keyPath.dropLast()), problem: "is \(value.brief); allowed: a calibration object")
        }
        let r = try JSONObjectReader(value)
        for key in r.object.keys.sorted() where !Self.keys.contains(key) {
            throw bad(key, "is not a calibration key; allowed: " + Self.keys.joined(separator: ", "))
        }
        do throws(ToolError) {
            if keyPath.isEmpty || r.optional("format") != nil { _ = try r.choice("format", oneOf: [Self.format]) }
            let reference = BoardCalibration.Reference(rawValue: try r.choice("reference", oneOf: BoardCalibration.Reference.allCases.map(\.rawValue)))!
            guard case .array(let items)? = r.optional("path_delays_m"), items.count <= 4 else {
                throw ToolError.badKey(key: "path_delays_m", problem: "is \(r.optional("path_delays_m")?.brief ?? "missing"); allowed: a list of up to 4 delays in metres, one per antenna path (empty: none)")
            }
            var delays: [Double] = []
            for (k, item) in items.enumerated() {
                guard case .number(let n) = item, Self.delayRange.contains(n.double) else {
                    throw ToolError.badKey(key: "path_delays_m[\(k)]", problem: "is \(item.brief); allowed: a number from \(NumberText.plain(Self.delayRange.lowerBound)) to \(NumberText.plain(Self.delayRange.upperBound)) m")
                }
                delays.append(n.double)
            }
            var offset: Double?
            if let v = r.optional("rtt_offset_m"), v != .null {
                offset = try r.number("rtt_offset_m", in: Self.offsetRange, unit: "m, or null")
            }
            switch (reference, r.optional("distance_m")) {
            case (.absolute, nil), (.absolute, .null?):
                throw ToolError.badKey(key: "distance_m", problem: "is missing; allowed with reference \"absolute\": the known distance, a number from 0 to 1000 m")
            case (.absolute, _?): distance = try r.number("distance_m", in: Self.distanceRange, unit: "m")
            case (.relative, nil), (.relative, .null?): distance = nil
            case (.relative, let v?): throw ToolError.badKey(key: "distance_m", problem: "is \(v.brief); allowed with reference \"relative\": none (a relative calibration has no distance)")
            }
            if reference == .relative, offset != nil {
                throw ToolError.badKey(key: "rtt_offset_m", problem: "is set; allowed with reference \"relative\": none or null (an RTT offset needs a known distance)")
            }
            calibration = BoardCalibration(pathDelays: delays, roundTripOffset: offset, reference: reference)
            estimator = try Self.text(r, "estimator", "the name of the estimator it was learned with")
            procedures = r.optional("procedures") == nil ? nil : try r.integer("procedures", in: 0...Int(Int32.max))
            source = try Self.text(r, "source", "a string")
        } catch {
            if case .badKey(let key, let problem) = error { throw bad(key, problem) }
            throw error
        }
    }

    /// An optional non-empty string.
    private static func text(_ r: JSONObjectReader, _ key: String, _ allowed: String) throws(ToolError) -> String? {
        switch r.optional(key) {
        case nil: return nil
        case .string(let s)? where !s.isEmpty: return s
        case let v?: throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed), not empty")
        }
    }

    /// The file's JSON text (delays written so they read back bit for bit).
    public var json: [UInt8] {
        var j = JSONWriter()
        j.object { j in
            j.field("format", Self.format)
            j.field("reference", calibration.reference.rawValue)
            j.field("path_delays_m", array: { j in
                for d in calibration.pathDelays { j.value(roundTrip: d) }
            })
            if let o = calibration.roundTripOffset {
                j.key("rtt_offset_m")
                j.value(roundTrip: o)
            }
            if let distance {
                j.key("distance_m")
                j.value(roundTrip: distance)
            }
            if let estimator { j.field("estimator", estimator) }
            if let procedures { j.field("procedures", procedures) }
            if let source { j.field("source", source) }
        }
        j.commit()
        return j.bytes + [UInt8(ascii: "\n")]
    }

    /// Reads `path`: a calibration file, or a board profile (`Hardware/boards/*.json`) whose
    /// `calibration` object is then the calibration. Errors name the file.
    public static func read(path: String) throws(ToolError) -> BoardCalibrationFile {
        try JSONFile.read(path) { (v) throws(ToolError) in try calibration(in: v) }
    }

    /// The calibration of a calibration file's or board profile's document.
    public static func calibration(in value: JSONValue) throws(ToolError) -> BoardCalibrationFile {
        if case .object(let o) = value, o["format"] == nil, o["name"] != nil {
            let profile = try BoardProfile(json: value)
            guard let c = profile.calibration else {
                throw .badKey(key: "calibration", problem: "is missing; allowed in a board profile given as a calibration: a calibration object (docs/formats.md)")
            }
            return c
        }
        return try BoardCalibrationFile(json: value)
    }
}
