// TEMPORARY until the timing module lands (replaced at merge).
extension CSTiming {
    public func stepDuration(mode: CSMode, antennaPaths: Int, phy: CSSyncPHY, rttType: RTTType) -> UInt32 {
        let seqBits = mode == .mode0 ? 0 : rttType.sequenceOctets * 8
        let tSY: UInt32 = phy == .le1M ? 44 + UInt32(seqBits) : 26 + UInt32((seqBits + 1) / 2)
        let tones = (UInt32(tSW) + UInt32(tPM)) * UInt32(antennaPaths + 1)
        switch mode {
        case .mode0: return 2 * (tSY + 5) + UInt32(tIP1) + 10 + 80 + UInt32(tFCS)
        case .mode1: return 2 * (tSY + 5) + UInt32(tIP1) + UInt32(tFCS)
        case .mode2: return 2 * (tones + 5) + UInt32(tIP2) + UInt32(tFCS)
        case .mode3: return 2 * (tSY + 10 + tones + 5) + UInt32(tIP2) + UInt32(tFCS)
        }
    }
}
