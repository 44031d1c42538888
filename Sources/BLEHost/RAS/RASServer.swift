import ReflectorFirmware

/// The accessory's Ranging Service (RAS 1.0 §3; its behaviour as nRF `ras_rrsp.c` serves it):
/// the six characteristics in an `AttributeDatabase`, all behind encryption, and the server's
/// side of both ways of delivering a procedure's ranging data (the segments
/// `ReflectorHost` cuts):
///
/// - Real-time (offered when `realTime`): each procedure's segments as notifications (or
///   indications) of Real-time Ranging Data when it ends.
/// - On demand: the procedure is kept (the last `kept`; an older one is dropped with Ranging
///   Data Overwritten), announced with Ranging Data Ready; the client's Get Ranging Data is
///   answered with Success, the segments on On-demand Ranging Data and Complete Ranging Data
///   Response; ACK Ranging Data releases it (Success), and so does the 5 s ACK timeout;
///   Retrieve Lost Segments resends a range with Complete Lost Segment Response; Abort is
///   answered Success; anything else with its Response Code. One procedure at a time is in
///   the client's hands: while one is announced and not yet asked for, or served (Get to ACK
///   or the ACK timeout), Ranging Data Ready for newer ones waits, and each release announces
///   the oldest one still kept. Android's client (`ras_client.cc`) clears its "handling"
///   state on our Get's Success, so a Ready before the ACK made it write a second Get (Server
///   Busy) and leave a 5 s alarm behind that later wrote Abort and reported a timeout.
///
/// The two modes exclude each other: subscribing to one while the other is on is refused with
/// 0xFD (Client Characteristic Configuration Descriptor Improperly Configured), as is a Control
/// Point write from a client not subscribed to its indications. Indications go one at a time,
/// each after the previous one's confirmation. Pure: ATT PDUs out, the `ATTServer` (which holds
/// the configuration descriptors and values) passed in.
public struct RASServer: GATTService, Sendable {
    /// The characteristics' value handles; each notifying one's configuration descriptor is the next handle.
    public struct Handles: Sendable, Equatable {
        public var features, realTime, onDemand, controlPoint, ready, overwritten: UInt16
    }

    public let handles: Handles
    public let realTimeSupported: Bool
    /// Procedures kept for an on-demand client.
    public static let kept = 4
    public static let ackTimeout = 5.0

    private var stored: [(counter: UInt16, segments: [[UInt8]])] = []
    /// The procedure being served on demand, and since when it waits for its ACK.
    private var serving: UInt16?
    private var servedAt: Double?
    /// The procedure announced with Ranging Data Ready and not asked for yet.
    private var announced: UInt16?
    /// Ranging Data Ready held back while one is in the client's hands: counters, oldest first.
    private var heldReady: [UInt16] = []
    private var indications: [ATTPDU] = []
    private var indicationInFlight = false

    /// Adds the service to `database` (after what is there); its characteristics need an
    /// encrypted link, or an authenticated one with `security: .authenticated` (an accessory
    /// that pairs with a passkey).
    public init(database: inout AttributeDatabase, realTime: Bool, security: LinkSecurity = .encrypted) {
        realTimeSupported = realTime
        let encrypted = security
        let h = database.addService(.uuid16(RASUUID.rangingService), [
            .init(uuid: .uuid16(RASUUID.features), properties: .read, value: [realTime ? 0x01 : 0x00, 0, 0, 0], security: encrypted),
            .init(uuid: .uuid16(RASUUID.realTimeRangingData), properties: [.notify, .indicate], security: encrypted),
            .init(uuid: .uuid16(RASUUID.onDemandRangingData), properties: [.notify, .indicate], security: encrypted),
            .init(uuid: .uuid16(RASUUID.controlPoint), properties: [.writeWithoutResponse, .indicate], security: encrypted),
            .init(uuid: .uuid16(RASUUID.rangingDataReady), properties: [.read, .notify, .indicate], value: [0, 0], security: encrypted),
            .init(uuid: .uuid16(RASUUID.rangingDataOverwritten), properties: [.read, .notify, .indicate], value: [0, 0], security: encrypted),
        ])
        handles = Handles(features: h[0], realTime: h[1], onDemand: h[2], controlPoint: h[3], ready: h[4], overwritten: h[5])
    }

    static let improperlyConfigured = ATTErrorCode(rawValue: 0xFD)

    /// The modes exclude each other, real time only when offered, and the Control Point only for
    /// a client subscribed to its indications: 0xFD otherwise (RAS 1.0 §3.3, §3.5).
    public func authorizeWrite(handle: UInt16, value: [UInt8], in server: ATTServer) -> ATTErrorCode? {
        let on = value.first.map { $0 & 0x03 != 0 } ?? false
        if handle == handles.realTime + 1, on, subscribed(handles.onDemand, server) || !realTimeSupported { return Self.improperlyConfigured }
        if handle == handles.onDemand + 1, on, subscribed(handles.realTime, server) { return Self.improperlyConfigured }
        if handle == handles.controlPoint, !indicating(handles.controlPoint, server) { return Self.improperlyConfigured }
        return nil
    }

    /// The ATT server took a write: a Control Point command is carried out.
    public mutating func didWrite(handle: UInt16, value: [UInt8], in server: inout ATTServer, now: Double) -> [ATTPDU] {
        guard handle == handles.controlPoint else { return [] }
        guard let command = try? RASControlPointCommand.decode(value) else {
            let opcodeKnown = value.first.map { $0 <= 0x04 } ?? false
            return respond(opcodeKnown ? .invalidParameter : .opcodeNotSupported, server)
        }
        switch command {
        case .getRangingData(let counter):
            guard subscribed(handles.onDemand, server), !subscribed(handles.realTime, server) else { return respond(.invalidParameter, server) }
            guard serving == nil else { return respond(.serverBusy, server) }
            guard let entry = stored.first(where: { $0.counter == counter }) else { return respond(.noRecordsFound, server) }
            serving = counter
            servedAt = now
            announced = nil
            var out = respond(.success, server)
            for s in entry.segments { out += notifyOrIndicate(handles.onDemand, s, server) }
            return out + indicateControlPoint(RASControlPointResponse.completeRangingData(rangingCounter: counter).encode(), server)
        case .ackRangingData(let counter):
            guard serving == counter else { return respond(.noRecordsFound, server) }
            stored.removeAll { $0.counter == counter }
            serving = nil
            servedAt = nil
            return respond(.success, server) + announceHeld(server)
        case let .retrieveLostSegments(counter, first, last):
            guard let entry = stored.first(where: { $0.counter == counter }), first <= last, Int(last) < entry.segments.count else {
                return respond(.noRecordsFound, server)
            }
            var out = respond(.success, server)
            for s in entry.segments[Int(first)...Int(last)] { out += notifyOrIndicate(handles.onDemand, s, server) }
            return out + indicateControlPoint(RASControlPointResponse.completeLostSegments(rangingCounter: counter, firstSegment: first, lastSegment: last).encode(), server)
        case .abort:
            // Segments go out at once, so there is nothing in flight to stop.
            return respond(.success, server)
        case .setFilter:
            return respond(.opcodeNotSupported, server)
        }
    }

    /// The client confirmed an indication: the next one may go.
    public mutating func didConfirm(in server: ATTServer, now: Double) -> [ATTPDU] {
        indicationInFlight = false
        guard !indications.isEmpty else { return [] }
        indicationInFlight = true
        return [indications.removeFirst()]
    }

    /// A procedure's ranging data, ready: sent at once in real time, else kept and announced.
    public mutating func publish(counter: UInt16, segments: [[UInt8]], server: inout ATTServer) -> [ATTPDU] {
        if subscribed(handles.realTime, server) {
            return segments.flatMap { notifyOrIndicate(handles.realTime, $0, server) }
        }
        guard subscribed(handles.onDemand, server) else { return [] }
        var out: [ATTPDU] = []
        stored.removeAll { $0.counter == counter }
        stored.append((counter, segments))
        if stored.count > Self.kept, let oldest = stored.first(where: { $0.counter != serving }) {
            stored.removeAll { $0.counter == oldest.counter }
            if announced == oldest.counter { announced = nil }
            let v = le16(oldest.counter)
            server.database.setValue(v, at: handles.overwritten)
            out += notifyOrIndicate(handles.overwritten, v, server)
        }
        server.database.setValue(le16(counter), at: handles.ready)
        heldReady.append(counter)
        return out + announceHeld(server)
    }

    /// Time passes: an unacknowledged procedure is released after 5 s, as nRF's server does
    /// (and a Ready held back goes).
    public mutating func tick(now: Double, in server: inout ATTServer) -> [ATTPDU] {
        guard let c = serving, let at = servedAt, now - at >= Self.ackTimeout else { return [] }
        stored.removeAll { $0.counter == c }
        serving = nil
        servedAt = nil
        return announceHeld(server)
    }

    /// Ranging Data Ready for the oldest procedure held back and still kept, when none is in
    /// the client's hands.
    private mutating func announceHeld(_ server: ATTServer) -> [ATTPDU] {
        guard serving == nil, announced == nil else { return [] }
        heldReady.removeAll { c in !stored.contains { $0.counter == c } }
        guard !heldReady.isEmpty else { return [] }
        let c = heldReady.removeFirst()
        announced = c
        return notifyOrIndicate(handles.ready, le16(c), server)
    }

    /// The link went down: a new connection starts afresh (the descriptors are the ATT server's).
    public mutating func reset() {
        stored = []
        serving = nil
        servedAt = nil
        announced = nil
        heldReady = []
        indications = []
        indicationInFlight = false
    }

    // MARK: Helpers

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    private func cccd(_ valueHandle: UInt16, _ server: ATTServer) -> UInt8 { server.database.attribute(valueHandle + 1)?.value.first ?? 0 }
    private func subscribed(_ valueHandle: UInt16, _ server: ATTServer) -> Bool { cccd(valueHandle, server) & 0x03 != 0 }
    private func indicating(_ valueHandle: UInt16, _ server: ATTServer) -> Bool { cccd(valueHandle, server) & 0x02 != 0 }

    /// Notification when the client asked for them, else indication.
    private mutating func notifyOrIndicate(_ handle: UInt16, _ value: [UInt8], _ server: ATTServer) -> [ATTPDU] {
        let c = cccd(handle, server)
        if c & 0x01 != 0 { return [.notification(handle: handle, value: Array(value.prefix(Int(server.mtu) - 3)))] }
        if c & 0x02 != 0 { return queueIndication(.indication(handle: handle, value: Array(value.prefix(Int(server.mtu) - 3)))) }
        return []
    }

    private mutating func indicateControlPoint(_ value: [UInt8], _ server: ATTServer) -> [ATTPDU] {
        guard indicating(handles.controlPoint, server) else { return [] }
        return queueIndication(.indication(handle: handles.controlPoint, value: value))
    }

    private mutating func respond(_ code: RASResponseCode, _ server: ATTServer) -> [ATTPDU] {
        indicateControlPoint(RASControlPointResponse.responseCode(code).encode(), server)
    }

    private mutating func queueIndication(_ pdu: ATTPDU) -> [ATTPDU] {
        guard indicationInFlight else {
            indicationInFlight = true
            return [pdu]
        }
        indications.append(pdu)
        return []
    }
}
