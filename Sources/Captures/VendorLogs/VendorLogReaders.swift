import ReflectorFirmware

/// The vendor log readers by name, for callers outside this module that must pick one
/// themselves (the fuzz targets); `CaptureReader` picks by content.
public enum VendorLogReaders {
    /// An nRF Connect SDK sample log (`NCSSampleLog`).
    public static func ncs(_ bytes: [UInt8], defaultRole: CSRole) -> CaptureProcedures { NCSSampleLog.read(bytes, defaultRole: defaultRole) }
    /// A Silicon Labs step-data dump (`SiliconLabsStepLog`).
    public static func siliconLabs(_ bytes: [UInt8]) -> CaptureProcedures { SiliconLabsStepLog.read(bytes) }
    /// What Silicon Labs' tools capture from the initiator's serial port (`SiliconLabsSerialLog`).
    public static func siliconLabsSerial(_ bytes: [UInt8]) -> CaptureProcedures { SiliconLabsSerialLog.read(bytes) }
    /// The JSON of Silicon Labs' `cs_step_data_parser` (`SiliconLabsStepJSON`).
    public static func siliconLabsJSON(_ bytes: [UInt8]) -> CaptureProcedures { SiliconLabsStepJSON.read(bytes) }
    /// `capture` written as `cs_step_data_parser`'s JSON (for tests and seeds).
    public static func siliconLabsJSON(writing capture: CaptureProcedures) -> String { SiliconLabsStepJSON.encode(capture) }
}
