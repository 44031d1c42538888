/// The transmitter SNR levels a controller can be asked to add noise for (`TX_SNR_Capability`,
/// Core 6.0 Vol 4 Part E §7.8.130): bits 0...4 = 18, 21, 24, 27, 30 dB, the same indices as
/// `SNR_Control_Initiator/Reflector` in Set Procedure Parameters.
public struct TxSNRCapability: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let snr18dB = TxSNRCapability(rawValue: 1 << 0)
    public static let snr21dB = TxSNRCapability(rawValue: 1 << 1)
    public static let snr24dB = TxSNRCapability(rawValue: 1 << 2)
    public static let snr27dB = TxSNRCapability(rawValue: 1 << 3)
    public static let snr30dB = TxSNRCapability(rawValue: 1 << 4)

    /// Whether SNR control index `index` (0...4) is supported; `false` for other indices.
    public func supports(index: UInt8) -> Bool {
        index <= 4 && rawValue & (1 << index) != 0
    }

    /// The SNR in dB of control index 0...4, `nil` otherwise.
    public static func decibels(index: UInt8) -> UInt8? {
        switch index {
        case 0: return 18
        case 1: return 21
        case 2: return 24
        case 3: return 27
        case 4: return 30
        default: return nil
        }
    }
}
