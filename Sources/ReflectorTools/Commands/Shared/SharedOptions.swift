/// The flags several commands take, defined once: one name, one value type with one range,
/// one message; each command words the help row for itself.
extension Option {
    /// `--baud N`: a serial line speed, 1,200 to 12,000,000 baud (check, serve, flash).
    public static func baud(_ keyPath: WritableKeyPath<Options, Int>, help: String) -> Option {
        stored(keyPath, "--baud", "N", .baudRate, help: [help])
    }

    /// `--seed N`: the simulation's seed, any 64-bit unsigned integer.
    public static func seed(_ keyPath: WritableKeyPath<Options, UInt64>, help: String) -> Option {
        stored(keyPath, "--seed", "N", .unsigned, help: [help])
    }

    /// `--snr DB`: per-tone SNR, -10 to 80 dB.
    public static func snr(_ keyPath: WritableKeyPath<Options, Double>, help: String) -> Option {
        stored(keyPath, "--snr", "DB", .number(-10...80, "dB"), help: [help])
    }

    /// `--json`: JSON instead of text.
    public static func json(_ keyPath: WritableKeyPath<Options, Bool>, help: String...) -> Option {
        Option(names: ["--json"], label: "--json", help: help, action: .flag { o, _ in o[keyPath: keyPath] = true })
    }
}

extension OptionValue where T == Int {
    /// A serial line speed from 1,200 to 12,000,000 baud.
    public static var baudRate: OptionValue { .integer(1200...12_000_000, allowed: "a baud rate from 1200 to 12000000") }
}
