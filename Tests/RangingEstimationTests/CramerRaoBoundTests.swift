@testable import RangingEstimation
import Testing

struct CramerRaoBoundTests {
    let freqs = CramerRaoBound.allowedChannelFrequencies

    @Test func frequencySpreadOfTheCSChannelSet() {
        #expect(freqs.count == 72)
        // §2.5: Σ(f − f̄)² = 34,445 MHz².
        #expect(abs(CramerRaoBound.frequencySpread(freqs) / 1e12 - 34_445) < 1)
    }

    @Test func worked20dBNumbers() {
        let two = CramerRaoBound.distanceStandardDeviation(frequencies: freqs, snrDB: 20)
        let one = CramerRaoBound.distanceStandardDeviation(frequencies: freqs, snrDB: 20, noise: .oneSided)
        #expect(abs(two - 0.0129) < 0.00005)
        #expect(abs(one - 0.0091) < 0.00005)
        // The explicit two-ended form with equal SNRs is the two-sided one.
        let rho = CramerRaoBound.linear(dB: 20)
        let ends = CramerRaoBound.distanceStandardDeviation(frequencies: freqs, initiatorSNR: rho, reflectorSNR: rho)
        #expect(abs(ends - two) < 1e-12)
    }

    @Test func otherSNRsAndPaths() {
        #expect(abs(CramerRaoBound.distanceStandardDeviation(frequencies: freqs, snrDB: 10) - 0.041) < 0.0005)
        #expect(abs(CramerRaoBound.distanceStandardDeviation(frequencies: freqs, snrDB: 10, noise: .oneSided) - 0.029) < 0.0005)
        #expect(abs(CramerRaoBound.distanceStandardDeviation(frequencies: freqs, snrDB: 30) - 0.0041) < 0.00005)
        // M = 4 paths: 0.64 cm at 20 dB.
        #expect(abs(CramerRaoBound.distanceStandardDeviation(frequencies: freqs, snrDB: 20, paths: 4) - 0.0064) < 0.00005)
    }

    @Test func perToneVariancesReduceToTheUniformCase() {
        let v = CramerRaoBound.phaseVariance(snr: 100)
        let a = CramerRaoBound.distanceStandardDeviation(frequencies: freqs, phaseVariances: Array(repeating: v, count: 72))
        let b = CramerRaoBound.distanceStandardDeviation(frequencies: freqs, phaseVariance: v)
        #expect(abs(a - b) < 1e-12)
        #expect(CramerRaoBound.distanceStandardDeviation(frequencies: [2.44e9], phaseVariance: v) == .infinity)
    }
}
