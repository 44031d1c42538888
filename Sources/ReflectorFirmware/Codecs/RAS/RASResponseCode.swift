/// The Response Code Value that a RAS Control Point Response Code indication carries
/// (RAS 1.0 Table 3.12; nRF `ras_internal.h` `rascp_rsp_code`). 0x00 is reserved.
public enum RASResponseCode: UInt8, Sendable, Equatable, CaseIterable {
    case success = 0x01
    case opcodeNotSupported = 0x02
    case invalidParameter = 0x03
    case successPersisted = 0x04
    case abortUnsuccessful = 0x05
    case procedureNotCompleted = 0x06
    case serverBusy = 0x07
    case noRecordsFound = 0x08
}
