import RadioWorld

/// A radio channel model by its command-line name, as `loopback`, `nearby` and `serve` take
/// it with `--channel`: the name for the output and the model for the air.
public struct AirChannelChoice: Sendable, Equatable {
    public var name: String
    public var model: AirChannelModel

    /// The names `--channel` takes besides `two-ray:EXCESS_M:AMPLITUDE`.
    public static let names = ["light", "open", "free", "two-ray", "tgn-b", "tgn-c", "tgn-d", "tgn-e"]

    /// Light multipath: a reflection 1.5 m longer than the direct path at 0.3 amplitude.
    public static let light = AirChannelChoice(name: "light", model: .twoRay(excessPath: 1.5, amplitude: 0.3, phase: nil))
    /// An open room in line of sight: the same reflection at 0.1 amplitude.
    public static let open = AirChannelChoice(name: "open", model: .twoRay(excessPath: 1.5, amplitude: 0.1, phase: nil))

    /// `light`, `open`, `free`, `two-ray` (a reflection 3 m longer at 0.7 amplitude),
    /// `two-ray:EXCESS:AMPLITUDE`, or a TGn model; nil for anything else.
    public init?(_ v: String) {
        let model: AirChannelModel
        switch v {
        case "light": model = Self.light.model
        case "open": model = Self.open.model
        case "free": model = .freeSpace
        case "two-ray": model = .twoRay(excessPath: 3.0, amplitude: 0.7, phase: nil)
        case "tgn-b": model = .tgn(.b, lineOfSight: true)
        case "tgn-c": model = .tgn(.c, lineOfSight: true)
        case "tgn-d": model = .tgn(.d, lineOfSight: nil)
        case "tgn-e": model = .tgn(.e, lineOfSight: nil)
        default:
            let parts = v.split(separator: ":")
            guard parts.count == 3, parts[0] == "two-ray", let x = Double(parts[1]), let a = Double(parts[2]), Self.isValidTwoRay(excess: x, amplitude: a) else {
                return nil
            }
            model = .twoRay(excessPath: x, amplitude: a, phase: nil)
        }
        self.init(name: v, model: model)
    }

    /// Whether a reflection `excess` metres longer at `amplitude` is one `two-ray:EXCESS:AMPLITUDE`
    /// takes: excess above 0 and at most 100 m, amplitude 0 to 1. (`AirChannelFamily` draws
    /// within the same limits.)
    public static func isValidTwoRay(excess: Double, amplitude: Double) -> Bool {
        excess > 0 && excess <= 100 && amplitude >= 0 && amplitude <= 1
    }

    public init(name: String, model: AirChannelModel) {
        self.name = name
        self.model = model
    }
}

extension OptionValue where T == AirChannelChoice {
    /// A channel model name (`AirChannelChoice`).
    public static var airChannel: OptionValue {
        OptionValue(allowed: "one of \(AirChannelChoice.names.joined(separator: ", ")) or two-ray:EXCESS_M:AMPLITUDE (excess 0-100 m, amplitude 0-1)") {
            AirChannelChoice($0)
        }
    }
}
