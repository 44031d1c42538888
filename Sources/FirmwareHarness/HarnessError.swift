/// Why the test image refused part of its input; sent back in an Error frame
/// (`code 1 | frame type 1 | detail 2`) so the host sees every refusal instead of a hang.
public enum HarnessError: UInt8, Error, Sendable, Equatable {
    /// Octets before a frame's magic (detail: how many).
    case garbage = 1
    /// A length above `FrameFormat.maxPayload` (detail: the length).
    case tooLong = 2
    /// The CRC did not match (detail: the CRC received).
    case badCRC = 3
    /// A frame type the image does not take.
    case unknownType = 4
    /// A payload of the wrong size or with a value out of range (detail: the octet offset).
    case badPayload = 5
    /// Run before the configuration, security material and receptions were all given.
    case incompleteVector = 6
}
