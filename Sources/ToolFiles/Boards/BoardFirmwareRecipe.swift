import ToolJSON

/// How to build and flash the HCI-over-UART controller firmware with Channel Sounding for a
/// board, as data a tool can print or run: the SDK, the sample, the board target, the Kconfig
/// options and the two commands (`hci_firmware` in a board profile).
public struct BoardFirmwareRecipe: Equatable {
    public var sdk: String
    public var sample: String
    public var boardTarget: String
    public var kconfig: [String]
    public var build: String
    public var flash: String
    /// Where the recipe comes from, and what it does not cover yet.
    public var source: String
    public var notes: String?

    public init(json: JSONValue) throws(ToolError) {
        let r = try JSONObjectReader(json)
        func text(_ key: String, optional: Bool = false) throws(ToolError) -> String? {
            switch r.optional(key) {
            case .string(let s)? where !s.isEmpty: return s
            case nil where optional, .null? where optional: return nil
            case let v?: throw .badKey(key: "hci_firmware.\(key)", problem: "is \(v.brief); allowed: a non-empty string")
            case nil: throw .badKey(key: "hci_firmware.\(key)", problem: "is missing; allowed: a non-empty string")
            }
        }
        sdk = try text("sdk")!
        sample = try text("sample")!
        boardTarget = try text("board_target")!
        build = try text("build")!
        flash = try text("flash")!
        source = try text("source")!
        notes = try text("notes", optional: true)
        guard case .array(let items)? = r.optional("kconfig") else { throw .badKey(key: "hci_firmware.kconfig", problem: "is missing; allowed: a list of CONFIG_...=value strings") }
        var options: [String] = []
        for item in items {
            guard case .string(let s) = item, s.hasPrefix("CONFIG_"), s.contains("=") else {
                throw .badKey(key: "hci_firmware.kconfig", problem: "holds \(item.brief); allowed: strings like CONFIG_NAME=y")
            }
            options.append(s)
        }
        kconfig = options
    }
}
