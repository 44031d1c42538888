import ReflectorFirmware

/// The vendor log readers by name, for callers outside this module that must pick one
/// themselves (the fuzz targets); `CaptureReader` picks by content.
public enum VendorLogReaders {
    /// An nRF Connect SDK sample log (`NCSSampleLog`).
    public static func ncs(_ bytes: [UInt8], defaultRole: CSRole) -> CaptureProcedures { NCSSampleLog.read(bytes, defaultRole: defaultRole) }
    /// A Silicon Labs step-data dump (`SiliconLabsStepLog`).
    public static func siliconLabs(_ bytes: [UInt8]) -> CaptureProcedures { SiliconLabsStepLog.read(bytes) }
}
