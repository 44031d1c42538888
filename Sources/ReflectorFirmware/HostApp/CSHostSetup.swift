import WireFormat

/// The general commands a host sends its controller before Channel Sounding, in either role
/// (Core 6.0 Vol 4 Part E §7.3.2 Reset, §7.3.1 Set Event Mask, §7.8.1 LE Set Event Mask,
/// §7.8.115 LE Set Host Feature): the accessory's host (`ReflectorHost`) and the phone's
/// (BLEHost's `InitiatorHost`) open with the same four.
public enum CSHostSetup {
    public static var reset: HCIPacket { HCIPacket(opcode: HCIOpcode.reset, parameters: []) }

    /// The default event mask plus the LE Meta event.
    public static var setEventMask: HCIPacket {
        HCIPacket(opcode: HCIOpcode.setEventMask,
                         parameters: mask(EventMasks.defaultEvents | EventMasks.bit(forEvent: HCIEventCode.leMeta)))
    }

    /// The default LE events plus every CS event (0x2C...0x33) and the v2 capabilities event (0x38).
    public static var leSetEventMask: HCIPacket {
        let v2 = EventMasks.bit(forLESubevent: LESubeventCode.csReadRemoteSupportedCapabilitiesCompleteV2)
        return HCIPacket(opcode: HCIOpcode.leSetEventMask,
                                parameters: mask(EventMasks.defaultLEEvents | EventMasks.channelSoundingLEEvents | v2))
    }

    /// LE Set Host Feature: bit 47, Channel Sounding host support, on.
    public static var setCSHostSupport: HCIPacket {
        HCIPacket(opcode: HCIOpcode.leSetHostFeature, parameters: [channelSoundingHostSupportBit, 1])
    }

    /// LE feature bit 47: Channel Sounding (Host Support).
    public static let channelSoundingHostSupportBit: UInt8 = 47

    /// An 8-octet little-endian event mask.
    static func mask(_ v: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 8)
        w.u64(v)
        return w.bytes
    }
}
