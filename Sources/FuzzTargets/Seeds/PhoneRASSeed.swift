import BLEHost
import Captures
import HCITransport
import ReflectorFirmware

/// A phone's capture of a Ranging Service session, as seed: the loopback's initiator traffic
/// without inline PCT, with discovery and each procedure's ranging data (real time, or on
/// demand with the Control Point's Get and ACK) as ATT over L2CAP in 27-octet ACL fragments,
/// right after the phone's own results (built with this project's RAS, ATT and L2CAP encoders).
enum PhoneRASSeed {
    static func capture(onDemand: Bool) -> [UInt8]? {
        guard let traffic = SeedTraffic.loopbacks.first(where: { !$0.inlinePCT }),
              let initiatorFile = try? BTSnoopWriter().encodeFile(traffic.initiatorCapture),
              let reflectorFile = try? BTSnoopWriter().encodeFile(traffic.reflectorCapture)
        else { return nil }
        let mine = CaptureProcedures(bytes: initiatorFile)
        let theirs = CaptureProcedures(bytes: reflectorFile, defaultRole: .reflector)
        guard let connection = mine.procedures.first?.connectionHandle else { return nil }
        func acl(_ pdu: ATTPDU, _ direction: BTSnoopDirection) -> [BTSnoopRecord] {
            guard let frame = L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: pdu.encode()).encode() else { return [] }
            return stride(from: 0, to: frame.count, by: 27).map { start in
                let end = min(start + 27, frame.count)
                let h = connection | (start == 0 ? 0b10 : 0b01) << 12
                return BTSnoopRecord(packet: HCIPacket(indicator: .aclData, bytes: [UInt8(h & 0xFF), UInt8(h >> 8), UInt8(end - start), 0] + frame[start..<end]),
                                     direction: direction, timestamp: BTSnoopTimestamp(virtualMicroseconds: 0))
            }
        }
        func declaration(_ at: UInt16, _ uuid: UInt16) -> ATTPDU.HandleValue {
            ATTPDU.HandleValue(handle: at, value: [0x32, UInt8((at + 1) & 0xFF), UInt8((at + 1) >> 8), UInt8(uuid & 0xFF), UInt8(uuid >> 8)])
        }
        let data: UInt16 = onDemand ? 0x25 : 0x23, controlPoint: UInt16 = 0x27
        var out = acl(.readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService), .hostToController)
            + acl(.readByGroupTypeResponse([.init(start: 0x20, end: 0x2D, value: [0x5B, 0x18])]), .controllerToHost)
            + acl(.readByTypeRequest(start: 0x20, end: 0x2D, type: .characteristic), .hostToController)
            + acl(.readByTypeResponse([declaration(0x22, RASUUID.realTimeRangingData), declaration(0x24, RASUUID.onDemandRangingData),
                                       declaration(0x26, RASUUID.controlPoint), declaration(0x28, RASUUID.rangingDataReady)]), .controllerToHost)
        var offset = BTSnoopFileHeader.length
        for r in traffic.initiatorCapture {
            out.append(r)
            defer { offset += BTSnoopReader.recordHeaderLength + r.includedLength(in: .hciUART) }
            guard let k = mine.procedures.firstIndex(where: { $0.offset == offset }), k < theirs.procedures.count else { continue }
            let peer = theirs.procedures[k]
            let c = [UInt8(peer.procedureCounter & 0xFF), UInt8((peer.procedureCounter >> 8) & 0x0F)]
            let body = RangingData(selectedTxPower: 0, results: peer.results.subevents).encode()
            if onDemand { out += acl(.writeRequest(handle: controlPoint, value: [0x00] + c), .hostToController) }
            for segment in RASSegmenter.segments(of: body, attMTU: 64) { out += acl(.notification(handle: data, value: segment), .controllerToHost) }
            if onDemand { out += acl(.writeRequest(handle: controlPoint, value: [0x01] + c), .hostToController) }
        }
        return try? BTSnoopWriter().encodeFile(out)
    }
}
