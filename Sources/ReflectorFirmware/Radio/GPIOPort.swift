/// The pins a board's RF switch hangs on. A board driver writes them (on nRF54 through the
/// radio's DFE GPIO patterns, elsewhere through a timer-triggered GPIO write); tests record them.
public protocol GPIOPort {
    /// Sets the pins in `mask` to the bits of `pattern` at `time` (µs on the controller clock).
    mutating func write(pattern: UInt32, mask: UInt32, at time: UInt64)
}
