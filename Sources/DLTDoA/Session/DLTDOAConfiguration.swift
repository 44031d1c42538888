/// What an app runs a DL-TDOA session with, modelled on `NIDLTDOAConfiguration` (iOS 26; the
/// discovery method is iOS 27's): the network identifier, which is the session ID in the anchors'
/// DL-TDoA configuration (anchors sharing it form one network, across clusters), and how the
/// phone finds the anchors before listening on UWB.
public struct DLTDOAConfiguration: Sendable, Equatable {
    /// How the phone discovers the anchors. One method for the life of the session, as Apple
    /// requires; raw values as the published bindings give them.
    public enum DiscoveryMethod: Int, Sendable, Equatable, CaseIterable {
        case wifi = 0
        case bluetoothLowEnergy = 1
    }

    public var networkIdentifier: Int
    public var discoveryMethod: DiscoveryMethod

    public init(networkIdentifier: Int, discoveryMethod: DiscoveryMethod = .bluetoothLowEnergy) {
        self.networkIdentifier = networkIdentifier
        self.discoveryMethod = discoveryMethod
    }
}
