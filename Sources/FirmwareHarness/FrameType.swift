/// The type octet of a harness frame: what the host sends the firmware test image (a test
/// vector, then Run) and what the image sends back (each step, each procedure's end, Done, and
/// Error for input it refused). The layouts are in docs/firmware.md, "The framed format".
public enum FrameType: UInt8, Sendable, Equatable {
    // Host to image.
    case configuration = 0x01
    case security = 0x02
    case receptions = 0x03
    case run = 0x04
    // Image to host.
    case step = 0x81
    case procedureEnd = 0x82
    case done = 0x8F
    case error = 0xE0
}
