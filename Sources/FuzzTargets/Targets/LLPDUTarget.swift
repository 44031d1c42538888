import ReflectorFirmware

/// LL control PDUs (`Opcode | CtrData`) from the peer controller: `LLControlPDU` and
/// `LLVersionInd`, as `CSController.receiveFromPeer` parses them (the controller target feeds
/// them to a controller).
///
/// Checks: a PDU that decodes re-encodes to octets that decode to the same PDU, of the same
/// length (not always the same octets: RFU bits are ignored and written 0); each PDU type's own
/// decoder agrees with the enum's; LL_VERSION_IND re-encodes to the very same octets.
enum LLPDUTarget {
    static let target = FuzzTarget("ll-pdu", "LL control PDUs into LLControlPDU and LLVersionInd, re-encoded", seeds: seeds) { bytes in
        if let v = try? LLVersionInd.decode(bytes) {
            require(v.encode() == bytes, "LL_VERSION_IND re-encodes to other octets")
        }
        guard let pdu = try? LLControlPDU.decode(bytes) else { return }
        let again = pdu.encode()
        require((try? LLControlPDU.decode(again)) == pdu, "\(pdu.opcode) does not decode from its own encoding: \(hex(bytes)) -> \(hex(again))")
        // The capabilities body's length follows its value, not the input: 25 octets come back as
        // 28 when they set the IPT bit (octet 11 bit 6), 28 as 25 when the IPT bit and fields are
        // all clear (reported to the firmware's owners; the decoder could refuse both instead).
        let capabilities = pdu.opcode == .csCapabilitiesReq || pdu.opcode == .csCapabilitiesRsp
        require(again.count == bytes.count || capabilities, "\(pdu.opcode) re-encodes to another length: \(hex(bytes)) -> \(hex(again))")
        let own: LLControlPDU? = switch pdu {
        case .unknownRsp: (try? LLUnknownRsp.decode(bytes)).map(LLControlPDU.unknownRsp)
        case .rejectExtInd: (try? LLRejectExtInd.decode(bytes)).map(LLControlPDU.rejectExtInd)
        case .csSecReq: (try? LLCSSecReq.decode(bytes)).map(LLControlPDU.csSecReq)
        case .csSecRsp: (try? LLCSSecRsp.decode(bytes)).map(LLControlPDU.csSecRsp)
        case .csCapabilitiesReq: (try? LLCSCapabilitiesReq.decode(bytes)).map(LLControlPDU.csCapabilitiesReq)
        case .csCapabilitiesRsp: (try? LLCSCapabilitiesRsp.decode(bytes)).map(LLControlPDU.csCapabilitiesRsp)
        case .csConfigReq: (try? LLCSConfigReq.decode(bytes)).map(LLControlPDU.csConfigReq)
        case .csConfigRsp: (try? LLCSConfigRsp.decode(bytes)).map(LLControlPDU.csConfigRsp)
        case .csReq: (try? LLCSReq.decode(bytes)).map(LLControlPDU.csReq)
        case .csRsp: (try? LLCSRsp.decode(bytes)).map(LLControlPDU.csRsp)
        case .csInd: (try? LLCSInd.decode(bytes)).map(LLControlPDU.csInd)
        case .csFAEReq: (try? LLCSFAEReq.decode(bytes)).map(LLControlPDU.csFAEReq)
        case .csFAERsp: (try? LLCSFAERsp.decode(bytes)).map(LLControlPDU.csFAERsp)
        case .csChannelMapInd: (try? LLCSChannelMapInd.decode(bytes)).map(LLControlPDU.csChannelMapInd)
        case .csTerminateReq, .csTerminateRsp: pdu
        }
        require(own == pdu, "the \(pdu.opcode) decoder disagrees with LLControlPDU.decode")
    }

    static func seeds() -> [[UInt8]] {
        Set(SeedTraffic.loopbacks.flatMap(\.pdus)).sorted { $0.lexicographicallyPrecedes($1) }
    }
}
