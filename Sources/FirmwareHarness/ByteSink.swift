/// A sink that keeps the octets (the Linux runner and the tests).
public struct ByteSink: FrameSink {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public mutating func write(_ byte: UInt8) { bytes.append(byte) }
}
