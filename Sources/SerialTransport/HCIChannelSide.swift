import HCITransport

/// Which end of the HCI link a channel is. It decides the btsnoop direction of each captured
/// packet: a capture is always written from the host's point of view (flag bit 0: 0 = host to
/// controller, 1 = controller to host), whichever side records it.
public enum HCIChannelSide: Sendable, Equatable {
    /// The host: what it sends goes host→controller, what it receives controller→host.
    case host
    /// The controller (a virtual board): what it sends goes controller→host.
    case controller

    /// The direction of packets this side sends.
    public var sendDirection: BTSnoopDirection { self == .host ? .hostToController : .controllerToHost }
    /// The direction of packets this side receives.
    public var receiveDirection: BTSnoopDirection { self == .host ? .controllerToHost : .hostToController }
}
