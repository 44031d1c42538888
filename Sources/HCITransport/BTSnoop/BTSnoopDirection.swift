/// Which way a captured packet went, as btsnoop flag bit 0 records it: 0 = sent (host to
/// controller), 1 = received (controller to host). The file is written from the host's side.
public enum BTSnoopDirection: UInt32, Sendable, Hashable {
    /// Sent by the host to the controller (commands, outgoing ACL/ISO data). Flag bit 0 clear.
    case hostToController = 0
    /// Received by the host from the controller (events, incoming data). Flag bit 0 set.
    case controllerToHost = 1
}
