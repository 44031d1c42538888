import EmulatorMath
import RadioWorld

/// A channel model, or a family of them, by its command-line name, as `sweep --channels` takes
/// it: every name `AirChannelChoice` knows (one fixed model), and the two-ray family
/// `two-ray:EXCESS:AMPLITUDE` where either field may be a range `LO-HI`
/// (`two-ray:0.5-5:0.3-0.9`: a reflection 0.5 to 5 m longer at 0.3 to 0.9 amplitude). A family
/// is a population of rooms: each realization draws its excess path and amplitude uniformly from
/// the ranges, from its own seed, and the reflection's phase is drawn per procedure as for any
/// two-ray model. Parsing lives here only, beside `AirChannelChoice`, whose limits it shares.
public struct AirChannelFamily: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// One model for every realization.
        case fixed(AirChannelModel)
        /// A two-ray model whose excess path (m) and amplitude are drawn per realization.
        case twoRay(excess: ClosedRange<Double>, amplitude: ClosedRange<Double>)
    }

    /// The name as given ("light", "two-ray:0.5-5:0.3-0.9"): what outputs print, and part of
    /// what a sweep's realization seeds are derived from.
    public var name: String
    public var kind: Kind

    /// What `--channels` takes, completing "must be ...".
    public static let allowed = "one of \(AirChannelChoice.names.joined(separator: ", ")), two-ray:EXCESS_M:AMPLITUDE (excess 0-100 m, amplitude 0-1) "
        + "or a family two-ray:LO-HI:LO-HI (either field a range drawn per realization)"

    /// A fixed model or a two-ray family; nil for anything else (a range outside the limits of
    /// `AirChannelChoice.isValidTwoRay`, or one whose low end is above its high end).
    public init?(_ text: String) {
        if let choice = AirChannelChoice(text) {
            self.init(name: text, kind: .fixed(choice.model))
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "two-ray", let excess = Self.range(parts[1]), let amplitude = Self.range(parts[2]),
              AirChannelChoice.isValidTwoRay(excess: excess.lowerBound, amplitude: amplitude.lowerBound),
              AirChannelChoice.isValidTwoRay(excess: excess.upperBound, amplitude: amplitude.upperBound) else {
            return nil
        }
        self.init(name: text, kind: .twoRay(excess: excess, amplitude: amplitude))
    }

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The model of one realization: the fixed model, or a member of the family drawn from
    /// `seed` (uniform excess, then uniform amplitude; the phase stays random per procedure).
    public func model(seed: UInt64) -> AirChannelModel {
        switch kind {
        case .fixed(let model):
            return model
        case .twoRay(let excess, let amplitude):
            var g = SeededGenerator(seed: seed, stream: Self.drawStream)
            let x = excess.lowerBound + g.uniform() * (excess.upperBound - excess.lowerBound)
            let a = amplitude.lowerBound + g.uniform() * (amplitude.upperBound - amplitude.lowerBound)
            return .twoRay(excessPath: x, amplitude: a, phase: nil)
        }
    }

    /// The stream a family's draws come from, apart from the air's own streams of the same seed.
    static let drawStream: UInt64 = 0x5357_4545_5046_414D

    /// `X` (a range of one value) or `LO-HI`. The dash that separates is the first one that is
    /// not a sign or an exponent's sign ("1e-3-2" is 0.001 to 2).
    static func range(_ text: Substring) -> ClosedRange<Double>? {
        let bytes = Array(text.utf8)
        var split: Int?
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "-") && i > 0 && bytes[i - 1] != UInt8(ascii: "e") && bytes[i - 1] != UInt8(ascii: "E") {
            split = i
            break
        }
        guard let split else {
            guard let v = Double(String(text)), v.isFinite else { return nil }
            return v...v
        }
        guard let lo = Double(String(decoding: bytes[..<split], as: UTF8.self)),
              let hi = Double(String(decoding: bytes[(split + 1)...], as: UTF8.self)), lo.isFinite, hi.isFinite, lo <= hi else {
            return nil
        }
        return lo...hi
    }
}
