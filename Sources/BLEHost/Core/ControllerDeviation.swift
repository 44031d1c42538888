import ReflectorFirmware

/// Where a controller departs from the Core specification in a way the hosts tolerate, each
/// said once per host and set-up (a controller that does it every time would otherwise fill the
/// output), with what the host does about it. The decision for each is in docs/decisions.md;
/// RootCanal 1.13 (Android's virtual controller) shows all of them.
public enum ControllerDeviation: Sendable, Hashable, CustomStringConvertible {
    /// LE CS Config Complete reported times outside their tables (Core 6.0 Vol 4 Part E
    /// §7.7.65.42 allows only the selectable times: T_IP1/T_IP2 10–145 µs, T_FCS 15–150 µs,
    /// T_PM 10–40 µs). Tolerated: the configuration is taken as created, its times as unknown.
    case unlistedConfigTimes(CSTiming)
    /// The controller does not list LE CS Read Local Supported Capabilities v2 (Core 6.3): a
    /// Core 6.0 controller. Not a deviation from 6.0, but what the host reads lacks the 6.3
    /// fields (T_IP2 and T_SW under inline PCT), and an iPhone asks for 6.3.
    case capabilitiesWithoutV2
    /// The controller reported the same Procedure_Counter for consecutive procedures (§7.7.65.44:
    /// it grows by one per procedure). Tolerated: procedures are paired by order of arrival.
    case repeatedProcedureCounter(UInt16)
    /// An event did not decode: its name, why, and its octets (hex, the H4 indicator left out).
    case undecodableEvent(name: String, why: String, octets: String)

    /// What makes two deviations the same for "said once".
    public enum Kind: Hashable, Sendable { case configTimes, capabilitiesV1, repeatedCounter, undecodable(String) }

    public var kind: Kind {
        switch self {
        case .unlistedConfigTimes: .configTimes
        case .capabilitiesWithoutV2: .capabilitiesV1
        case .repeatedProcedureCounter: .repeatedCounter
        case .undecodableEvent(let name, _, _): .undecodable(name)
        }
    }

    public var description: String {
        switch self {
        case .unlistedConfigTimes(let t):
            "LE CS Config Complete reported T_IP1 \(t.tIP1) us, T_IP2 \(t.tIP2) us, T_FCS \(t.tFCS) us, T_PM \(t.tPM) us, not times Core 6.0 allows "
                + "(Vol 4 Part E 7.7.65.42); the configuration is taken as created and its times as unknown"
        case .capabilitiesWithoutV2:
            "the board does not list LE CS Read Local Supported Capabilities v2 (Core 6.3); read with v1 (Core 6.0), "
                + "which lacks the times under inline PCT (T_IP2_IPT, T_SW_IPT)"
        case .repeatedProcedureCounter(let c):
            "the board reported Procedure_Counter \(c) again for the next procedure (Core 6.0 Vol 4 Part E 7.7.65.44: it grows by one per procedure); "
                + "procedures are paired with the reflector's data by order of arrival"
        case let .undecodableEvent(name, why, octets): "an event from the board did not decode (\(name): \(why)); its octets: \(octets)"
        }
    }

    /// Times outside their tables (nil: all four selectable).
    static func unlistedTimes(_ t: CSTiming) -> ControllerDeviation? {
        let listed = TimeKind.tIP1.index(ofMicroseconds: t.tIP1) != nil && TimeKind.tIP2.index(ofMicroseconds: t.tIP2) != nil
            && TimeKind.tFCS.index(ofMicroseconds: t.tFCS) != nil && TimeKind.tPM.index(ofMicroseconds: t.tPM) != nil
        return listed ? nil : .unlistedConfigTimes(t)
    }

    /// The packet's octets in hex, for a message.
    static func octets(_ packet: HCIPacket) -> String {
        packet.encode().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
