import LiveView
import ToolJSON

/// `--view [ADDR:]PORT` and `--view-hold`, the same on every command with a live view: where
/// the page is served (loopback unless an address is given; port 0 takes a free one), and
/// whether it stays up after the run until Ctrl-C.
public struct ViewOptions: Sendable {
    public var address: ListenAddress?
    public var hold = false

    public init() {}
}

extension Option {
    /// `--view [ADDR:]PORT`.
    static func view(_ keyPath: WritableKeyPath<Options, ViewOptions>) -> Option {
        value("--view", "[ADDR:]PORT", .listenAddress, help: "serve a live page of the run on 127.0.0.1:PORT (or ADDR:PORT;",
              "0 takes a free port; the address goes to stderr)") { o, address throws(ToolError) in
            o[keyPath: keyPath].address = address
        }
    }

    /// `--view-hold`.
    static func viewHold(_ keyPath: WritableKeyPath<Options, ViewOptions>) -> Option {
        flag("--view-hold", help: "keep serving the page after the run, until Ctrl-C") { o in o[keyPath: keyPath].hold = true }
    }
}

extension OptionValue where T == ListenAddress {
    /// `[ADDR:]PORT`.
    static var listenAddress: OptionValue {
        OptionValue(allowed: "[ADDR:]PORT (a port 0-65535; ADDR an IPv4 address, [IPv6] or localhost)") { try? ListenAddress(parsing: $0) }
    }
}
