/// The 16-bit GATT UUIDs of the Ranging Service (RAS) and its characteristics (Bluetooth
/// Assigned Numbers; nRF `ras.h`), which a reflector exposes to relay its step data.
public enum RASUUID {
    public static let rangingService: UInt16 = 0x185B
    public static let features: UInt16 = 0x2C14
    public static let realTimeRangingData: UInt16 = 0x2C15
    public static let onDemandRangingData: UInt16 = 0x2C16
    public static let controlPoint: UInt16 = 0x2C17
    public static let rangingDataReady: UInt16 = 0x2C18
    public static let rangingDataOverwritten: UInt16 = 0x2C19
}
