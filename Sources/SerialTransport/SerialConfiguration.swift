/// How to set up a line: baud rate and flow control. The framing is always 8N1 (8 data bits,
/// no parity, 1 stop bit), the only framing H4 and the MCUboot console use.
public struct SerialConfiguration: Sendable, Equatable {
    /// Default for `SerialLink.write(_:)`.
    public static let defaultWriteTimeoutMilliseconds = 2000

    /// Bits per second. Any positive rate: standard ones (115 200, 1 000 000, …) and others
    /// (termios2 `BOTHER` on Linux), if the device accepts them. 0 keeps the device's speed.
    public var baudRate: Int
    public var flowControl: SerialFlowControl

    /// 1 000 000 baud, no flow control: Bumble's `serial:` default and what the nRF DK HCI
    /// samples use (their profiles add `rts_cts`).
    public init(baudRate: Int = 1_000_000, flowControl: SerialFlowControl = .none) {
        self.baudRate = baudRate
        self.flowControl = flowControl
    }
}
