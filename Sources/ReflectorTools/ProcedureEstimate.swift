import Foundation

/// What `reflector-emu estimate` reports for one procedure: the distance, or why there is none.
public struct ProcedureEstimate: Sendable, Equatable {
    public var procedureCounter: UInt16
    /// One-way distance in metres; `nil` when the procedure gave none (see `reason`).
    public var distance: Double?
    /// Confidence in 0…1 (`DistanceEstimate.quality`); `nil` without a distance.
    public var quality: Double?
    /// The estimator's command-line name (`kay`, `ls`, `ifft`, `esprit`).
    public var method: String
    /// Why `distance` is `nil`; `nil` when there is a distance.
    public var reason: String?

    public init(procedureCounter: UInt16, distance: Double?, quality: Double?, method: String, reason: String?) {
        self.procedureCounter = procedureCounter
        self.distance = distance
        self.quality = quality
        self.method = method
        self.reason = reason
    }

    /// `procedure 3: 2.998 m (quality 0.97, kay)`, or `procedure 3: no distance (reason)`.
    public var text: String {
        if let distance {
            return "procedure \(procedureCounter): \(Self.fixed(distance, 3)) m (quality \(Self.fixed(quality ?? 0, 2)), \(method))"
        }
        return "procedure \(procedureCounter): no distance (\(reason ?? "no estimate"))"
    }

    /// `{"procedure_counter": 3, "distance_m": 2.998, "quality": 0.97, "method": "kay"}`; without
    /// a distance `distance_m` and `quality` are null and a `reason` key follows.
    public var json: String {
        var out = "{\"procedure_counter\": \(procedureCounter), "
        out += "\"distance_m\": \(distance.map { Self.fixed($0, 3) } ?? "null"), "
        out += "\"quality\": \(quality.map { Self.fixed($0, 2) } ?? "null"), "
        out += "\"method\": \(Self.quoted(method))"
        if let reason { out += ", \"reason\": \(Self.quoted(reason))" }
        return out + "}"
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "null"
    }

    /// A JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
