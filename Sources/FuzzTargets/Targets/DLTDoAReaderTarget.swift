import AnchorFirmware
import DLTDoA

/// The phone's DL-TDoA receiving chain for frames heard over the air: the measurement reader
/// (`DLTDOAMeasurementReader`: frames to measurements), then the app-side positioner
/// (`DLTDOAPositioner`: rounds, the solver, the tracker).
///
/// Input: the network identifier's low octet, then frames as `length (2, LE) | flags | rx time (5,
/// LE) | octets`; flag bit 0: append the right FCS to the octets.
///
/// Checks: frames the reader drops are counted once; every measurement belongs to the network
/// and has finite times; every fix the positioner gives is finite.
enum DLTDoAReaderTarget {
    static let target = FuzzTarget("dltdoa-reader", "DLTDOAMeasurementReader and DLTDOAPositioner: heard UWB frames", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let network = 0x1200 | UInt32(input.byte())
        var reader = DLTDOAMeasurementReader(networkIdentifier: network)
        var positioner = DLTDOAPositioner()
        var time = 0.0
        var frames = 0
        var measurements = 0
        for chunk in input.chunks() {
            var record = FuzzInput(chunk)
            let flags = record.byte()
            var rx: UInt64 = 0
            for k in 0..<5 { rx |= UInt64(record.byte()) << (8 * k) }
            var octets = record.rest()
            if flags & 1 != 0 { FrameCheckSequence.append(to: &octets) }
            time += 0.001 + Double(flags >> 1) * 1e-4
            frames += 1
            guard let m = reader.read(HeardUWBFrame(octets: octets, rawReceiveTime: rx, signalStrength: -70, carrierFrequencyOffset: 0, trueTime: time)) else { continue }
            measurements += 1
            require(m.receiveTime.isFinite && m.transmitTime.isFinite, "a measurement with non-finite times")
            for fix in positioner.add(m) {
                let p = fix.fix.position
                require(p.x.isFinite && p.y.isFinite && p.z.isFinite, "a fix that is not finite")
            }
        }
        require(reader.undecodableFrames + reader.otherNetworkFrames + measurements <= frames, "frames counted twice")
        _ = positioner.flush()
    }

    static func seeds() -> [[UInt8]] {
        let heard = SeedVectors.heardFrames
        func record(_ h: HeardUWBFrame) -> [UInt8] {
            [0] + (0..<5).map { UInt8(truncatingIfNeeded: h.rawReceiveTime >> (8 * $0)) } + h.octets
        }
        return [[0x34] + FuzzInput.chunks(heard.prefix(60).map(record)), [0x34] + FuzzInput.chunks(heard.prefix(8).map(record))]
    }
}
