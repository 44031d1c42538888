#if !FIRMWARE_IMAGE
import ReflectorFirmware
#endif
import WireFormat

/// The Step frame's payload: the planned step as both controllers derive it, what the
/// reflector's radio did in it, and the step's data exactly as LE CS Subevent Result reports it.
///
/// `index 2 | subevent 1 | kind 1 | mode 1 | channel 1 | flags 1 (bit 0 access addresses, bit 1
/// sounding marker, bit 2 second marker) | AA initiator 4 | AA reflector 4 | permutation index 1 |
/// tone extension 1 | marker positions 2 | marker signals 2 | start µs 4 | duration µs 4 |
/// antenna selections 1 + n | rotations 1 + n × (I f32, Q f32) | CS_SYNCs sent 1 | tones sent 1 |
/// Subevent Result step (mode 1, channel 1, length 1, Step_Data)`, little-endian.
public enum StepRecord {
    public static func encode(_ step: PlannedStep, radio: VectorRadio, report: [UInt8], into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        ByteWriter.append(to: &out) { w in
            w.u16(step.index)
            w.u8(step.subevent)
            w.u8(step.kind.rawValue)
            w.u8(step.mode.rawValue)
            w.u8(step.channel)
            let marker = step.soundingMarker
            var flags: UInt8 = step.accessAddresses == nil ? 0 : 1
            if marker != nil { flags |= 2 }
            if marker?.secondPosition != nil { flags |= 4 }
            w.u8(flags)
            w.u32(step.accessAddresses?.initiator ?? 0)
            w.u32(step.accessAddresses?.reflector ?? 0)
            w.u8(step.antennaPermutationIndex)
            w.u8(step.toneExtension.rawValue)
            w.u8(marker?.firstPosition ?? 0)
            w.u8(marker?.secondPosition ?? 0)
            w.u8(marker?.firstSignal ?? 0)
            w.u8(marker?.secondSignal ?? 0)
            w.u32(step.startMicroseconds)
            w.u32(step.durationMicroseconds)
            let selections = min(radio.antennaSwitch.count, VectorRadio.Switch.maxSelections)
            w.u8(UInt8(truncatingIfNeeded: radio.antennaSwitch.count))
            for k in 0..<selections { w.u8(radio.antennaSwitch.selections[k]) }
            w.u8(UInt8(truncatingIfNeeded: radio.rotationCount))
            for k in 0..<radio.rotationCount {
                w.u32(radio.rotations[k].i.bitPattern)
                w.u32(radio.rotations[k].q.bitPattern)
            }
            w.u8(UInt8(truncatingIfNeeded: radio.syncsSent))
            w.u8(UInt8(truncatingIfNeeded: radio.tonesSent))
            w.octets(report)
        }
    }
}
