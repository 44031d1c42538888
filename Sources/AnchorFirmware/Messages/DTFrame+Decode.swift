import WireFormat

/// Parsing of a received DTM (layout in `DTFrame`): FCS first, so that noise is reported as a
/// checksum error, then every field in order, each error naming the field and its octet offset.
/// Decision: only 40-bit TX timestamps and short addresses are accepted, as this firmware's
/// anchors send; a 64-bit timestamp length is reported as an invalid message control value.
extension DTFrame {
    public static func decode(_ bytes: some Collection<UInt8>) throws(DTFrameError) -> DTFrame {
        let octets = Array(bytes)
        let fcsAt = octets.count - 2
        if octets.count < 9 { throw .truncated(field: octets.count < 2 ? .frameControl : .frameCheckSequence, offset: max(fcsAt, 0)) }
        let computed = FrameCheckSequence.crc16(octets[..<fcsAt])
        var fcs = ByteReader(octets[fcsAt...])
        let received = try fcs.u16(.frameCheckSequence)
        if computed != received { throw .checksumMismatch(offset: fcsAt, computed: computed, received: received) }

        // Everything before the FCS; the payload IE must end exactly there.
        var r = ByteReader(octets[..<fcsAt])
        let fc = try r.u16(.frameControl)
        if fc != frameControl { throw .invalidValue(field: .frameControl, offset: 0, value: UInt32(fc)) }
        let destination = try r.u16(.destinationAddress)
        let source = try r.u16(.sourceAddress)
        let scf = try r.u8(.securityControl)
        if scf & 0x07 != 0 { throw .invalidValue(field: .securityControl, offset: 6, value: UInt32(scf)) }

        // Header IEs up to HT1; the FiRa vendor IE gives the session ID.
        var session: (id: UInt32, sts: UInt32)?
        while true {
            let at = r.offset
            let descriptor = try r.u16(.headerTermination)
            if descriptor & 0x8000 != 0 { throw .invalidValue(field: .headerIE, offset: at, value: UInt32(descriptor)) }
            let length = Int(descriptor & 0x7F), element = descriptor >> 7 & 0xFF
            if element == 0x7E { break }
            if r.remaining < length { throw .truncated(field: .headerIE, offset: r.offset) }
            if element == 0x00, length == firaHeaderIELength, startsWithFiRaOUI(r) {
                try r.skip(11, .firaHeaderIE)
                session = (try r.u32(.firaHeaderIE), try r.u32(.firaHeaderIE))
            } else {
                try r.skip(length, .headerIE)
            }
        }
        guard let session else { throw .missing(field: .firaHeaderIE, offset: r.offset - 2) }

        let descriptorAt = r.offset
        let descriptor = try r.u16(.payloadIE)
        if descriptor >> 11 != 0x12 { throw .invalidValue(field: .payloadIE, offset: descriptorAt, value: UInt32(descriptor)) }
        let end = r.offset + Int(descriptor & 0x7FF)
        if end > fcsAt { throw .truncated(field: .payloadIE, offset: fcsAt) }
        if end < fcsAt { throw .trailingOctets(offset: end, count: fcsAt - end) }

        let ouiAt = r.offset
        let oui = UInt32(try r.uint(3, .oui))
        if oui != firaOUI { throw .invalidValue(field: .oui, offset: ouiAt, value: oui) }
        let idAt = r.offset
        let idOctet = try r.u8(.messageID)
        guard let type = DTMessageType(messageIDOctet: idOctet) else {
            throw .invalidValue(field: .messageID, offset: idAt, value: UInt32(idOctet))
        }
        let controlAt = r.offset
        let rawControl = UInt32(try r.uint(3, .messageControl))
        let control = DTMessageControl(rawValue: rawControl)
        if rawControl & DTMessageControl.reservedMask != 0 || control.timestampLength != 0 {
            throw .invalidValue(field: .messageControl, offset: controlAt, value: rawControl)
        }
        let round = try r.u8(.roundIndex)
        let block = try r.u16(.blockIndex)
        let tx = UWBTimestamp(ticks: try r.uint(5, .txTimestamp))

        let message: DTMessage
        switch type {
        case .poll:
            let count = Int(control.managementListLength)
            if count > AnchorConfiguration.maximumResponders {
                throw .invalidValue(field: .messageControl, offset: controlAt, value: rawControl)
            }
            var entries: [DTManagementEntry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let slot = control.slotIndexPresent ? try r.u8(.managementList) : nil
                let tof = control.finalPresent ? nil : Int16(bitPattern: try r.u16(.managementList))
                entries.append(DTManagementEntry(address: try r.u16(.managementList), slotIndex: slot, timeOfFlightTicks: tof))
            }
            let hop = control.hopCountPresent ? try r.u8(.hopCount) : nil
            let (location, rounds) = try decodeOptionals(control, &r)
            message = .poll(DTPoll(txTimestamp: tx, finalFollows: control.finalPresent, responders: entries,
                                   hopCount: hop, location: location, activeRounds: rounds))
        case .response:
            let cfo = control.cfoPresent ? Int16(bitPattern: try r.u16(.cfo)) : nil
            let reply = try r.u32(.replyTime)
            let tof = control.tofPresent ? Int16(bitPattern: try r.u16(.timeOfFlight)) : nil
            let (location, rounds) = try decodeOptionals(control, &r)
            message = .response(DTResponse(txTimestamp: tx, finalFollows: control.finalPresent, cfoQ610: cfo,
                                           replyTimeTicks: reply, timeOfFlightTicks: tof, location: location,
                                           activeRounds: rounds))
        case .final:
            let count = Int(control.replyTimeListLength)
            if count > AnchorConfiguration.maximumResponders {
                throw .invalidValue(field: .messageControl, offset: controlAt, value: rawControl)
            }
            var entries: [DTReplyTimeEntry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let address = try r.u16(.replyTimeList)
                entries.append(DTReplyTimeEntry(address: address, replyTimeTicks: try r.u32(.replyTimeList)))
            }
            message = .final(DTFinal(txTimestamp: tx, replyTimes: entries))
        }
        if r.remaining > 0 { throw .trailingOctets(offset: r.offset, count: r.remaining) }
        return DTFrame(sourceAddress: source, destinationAddress: destination, sessionID: session.id,
                       stsIndex: session.sts, roundIndex: round, blockIndex: block,
                       commonTimeBase: control.commonTimeBase, message: message)
    }

    /// Whether the octets `r` has not read yet start with FiRa's OUI (the vendor header IE).
    static func startsWithFiRaOUI(_ r: ByteReader) -> Bool {
        var ahead = r
        return (try? ahead.uint(3, "OUI")) == UInt64(firaOUI)
    }

    static func decodeOptionals(_ control: DTMessageControl, _ r: inout ByteReader)
        throws(DTFrameError) -> (AnchorCoordinates?, [UInt8]?) {
        var location: AnchorCoordinates?
        if control.locationPresent {
            let typeAt = r.offset
            let raw = try r.u8(.locationType)
            guard let type = AnchorCoordinatesType(rawValue: raw) else {
                throw .invalidValue(field: .locationType, offset: typeAt, value: UInt32(raw))
            }
            location = AnchorCoordinates(type: type, firaOctets: try r.octets(type.encodedLength, .location))
        }
        var rounds: [UInt8]?
        if control.activeRoundsPresent {
            let lengthAt = r.offset
            let count = Int(try r.u8(.activeRounds))
            if count > AnchorConfiguration.maximumActiveRounds {
                throw .invalidValue(field: .activeRounds, offset: lengthAt, value: UInt32(count))
            }
            rounds = Array(try r.octets(count, .activeRounds))
        }
        return (location, rounds)
    }
}
