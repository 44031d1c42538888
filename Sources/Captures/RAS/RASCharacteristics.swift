import BLEHost
import HCITransport
import ReflectorFirmware

/// The Ranging Service's characteristics of one connection as the client discovered them in
/// the capture (Core 6.0 Vol 3 Part G §4.4.1 primary services by Read By Group Type, §4.6.1
/// characteristics by Read By Type of «Characteristic» 0x2803, whose value is Properties 1 |
/// Value Handle 2 | UUID): the value handle of each RAS characteristic (RAS 1.0 §3, UUIDs
/// 0x2C14–0x2C19).
struct RASCharacteristics {
    enum Role: Equatable {
        case realTimeRangingData, onDemandRangingData, controlPoint, rangingDataReady, rangingDataOverwritten, features
    }

    private(set) var roles: [UInt16: Role] = [:]
    private var service: ClosedRange<UInt16>?
    /// The type of the last Read By Type / Read By Group Type request the client sent.
    private var lastRequest: ATTUUID?

    var isEmpty: Bool { roles.isEmpty }

    func role(of handle: UInt16) -> Role? { roles[handle] }

    func handle(of role: Role) -> UInt16? { roles.first { $0.value == role }?.key }

    mutating func observe(_ pdu: ATTPDU, fromClient: Bool) {
        switch pdu {
        case .readByTypeRequest(_, _, let type) where fromClient, .readByGroupTypeRequest(_, _, let type) where fromClient:
            lastRequest = type
        case .readByGroupTypeResponse(let groups) where !fromClient:
            for g in groups where g.value == [UInt8(RASUUID.rangingService & 0xFF), UInt8(RASUUID.rangingService >> 8)] && g.start <= g.end {
                service = g.start...g.end
            }
        case .readByTypeResponse(let list) where !fromClient && lastRequest == .characteristic:
            for entry in list where entry.value.count == 5 {
                let valueHandle = UInt16(entry.value[1]) | UInt16(entry.value[2]) << 8
                let uuid = UInt16(entry.value[3]) | UInt16(entry.value[4]) << 8
                if let service, !service.contains(entry.handle) { continue }
                if let role = Self.role(uuid) { roles[valueHandle] = role }
            }
        default:
            break
        }
    }

    static func role(_ uuid: UInt16) -> Role? {
        switch uuid {
        case RASUUID.realTimeRangingData: .realTimeRangingData
        case RASUUID.onDemandRangingData: .onDemandRangingData
        case RASUUID.controlPoint: .controlPoint
        case RASUUID.rangingDataReady: .rangingDataReady
        case RASUUID.rangingDataOverwritten: .rangingDataOverwritten
        case RASUUID.features: .features
        default: nil
        }
    }
}
