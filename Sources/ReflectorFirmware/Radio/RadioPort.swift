/// The radio as the CS step engine drives it: tune, send and receive CS_SYNC packets, send and
/// measure tones, at given times on the controller's microsecond clock. The loopback simulator's
/// Air implements it in software; a board driver implements it on the radio peripheral. It is a
/// generic constraint, never an existential, so the per-step path stays static and allocation-free.
public protocol RadioPort {
    associatedtype Antennas: AntennaSwitch
    /// The board's antenna switch, driven by the step engine.
    var antennaSwitch: Antennas { get set }

    /// Tunes to CS channel `channel` (RF 2402 + channel MHz) for the step that starts at `time`;
    /// the synthesizer settles within the previous step's T_FCS.
    mutating func tune(channel: UInt8, at time: UInt64)

    /// Sends a CS_SYNC packet (preamble, `accessAddress`, `sequenceBits` of sounding or random
    /// sequence, trailer) starting at `time`.
    mutating func transmitSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64)

    /// Listens for a CS_SYNC packet with `accessAddress` expected to start at `time`.
    mutating func receiveSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) -> SyncReception

    /// Sends an unmodulated tone on the tuned channel for `duration` µs from `time`, its phase
    /// rotated by `rotation` (a unit phasor; `.one` for an ordinary tone, the measured phase
    /// under inline PCT transfer).
    mutating func transmitTone(rotation: IQSample, at time: UInt64, duration: UInt32)

    /// Measures the tone received over `duration` µs from `time`.
    mutating func receiveTone(at time: UInt64, duration: UInt32) -> ToneReception

    /// Moves this radio's carrier by `ppm` (relative to its own crystal) from now on: the
    /// initiator compensates the frequency offset it measured in mode-0 steps, so the tones of
    /// both sides meet on the same frequency (Core 6.0 Vol 6 Part H §3.x, Frequency_Compensation).
    mutating func compensateFrequency(ppm: Float)
}
