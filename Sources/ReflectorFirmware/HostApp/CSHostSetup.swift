import WireFormat

/// The general commands a host sends its controller before Channel Sounding, in either role
/// (Core 6.0 Vol 4 Part E §7.3.2 Reset, §7.3.1 Set Event Mask, §7.8.1 LE Set Event Mask,
/// §7.8.115 LE Set Host Feature): the accessory's host (`ReflectorHost`) and the phone's
/// (BLEHost's `InitiatorHost`) open with the same four.
public enum CSHostSetup {
    public static var reset: HCIPacket { Reset().packet }

    /// The default event mask plus the LE Meta event.
    public static var setEventMask: HCIPacket {
        SetEventMask(mask: EventMasks.defaultEvents | EventMasks.bit(forEvent: HCIEventCode.leMeta)).packet
    }

    /// The default LE events plus every CS event (0x2C...0x33) and the v2 capabilities event (0x38).
    public static var leSetEventMask: HCIPacket {
        let v2 = EventMasks.bit(forLESubevent: LESubeventCode.csReadRemoteSupportedCapabilitiesCompleteV2)
        return LESetEventMask(mask: EventMasks.defaultLEEvents | EventMasks.channelSoundingLEEvents | v2).packet
    }

    /// LE Set Host Feature: bit 47, Channel Sounding host support, on.
    public static var setCSHostSupport: HCIPacket {
        LESetHostFeature(bit: channelSoundingHostSupportBit, enabled: true).packet
    }

    /// LE feature bit 47: Channel Sounding (Host Support).
    public static let channelSoundingHostSupportBit: UInt8 = 47

}
