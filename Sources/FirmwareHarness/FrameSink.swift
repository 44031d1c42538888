/// Where frames go: the image's UART, or a byte buffer on Linux.
public protocol FrameSink {
    mutating func write(_ byte: UInt8)
}
