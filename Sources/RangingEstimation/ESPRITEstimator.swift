import EmulatorMath
import Foundation

/// Super-resolution distance estimate: the round-trip tones are modelled as a sum of complex
/// exponentials, z_k = Σ_i c_i·e^{−j2π f_k τ_i}, and the **earliest significant** component is
/// taken as the direct path. With multipath H_k = Σ_l a_l e^{−j2π f_k τ_l}, the round-trip
/// H_k² has components at τ_l + τ_m (the "doubled multipath components", reference §3.1); the
/// earliest is 2τ_direct, so d = c·τ_earliest/2. This resolves a reflection a few metres longer
/// than the direct path, which merges into one lobe of the IFFT profile (Rayleigh ≈ c/(2B) ≈ 2 m;
/// reference §2.5, §3.3).
///
/// Steps:
/// 1. **Snapshots.** Good tones are averaged per channel on the 1 MHz grid. Every window of
///    `subarrayLength` consecutive channels that are all present is one snapshot (so channels
///    23–25, never sounded, and any missing channel are handled by using only complete windows:
///    nothing is interpolated; with no complete window at all, only the greedy start of step 3
///    is used). Sample covariance R = Σ x xᴴ / count, with forward-backward
///    averaging R ← (R + J·R*·J)/2 (J the exchange matrix). Spatial smoothing (many window
///    positions) and FB averaging decorrelate the coherent multipath components.
/// 2. **Eigenvectors** of R by Jacobi rotations.
/// 3. For each model order K = 1…`maxComponents`: **ESPRIT** (Roy & Kailath 1989, least-squares form): with E the K signal eigenvectors,
///    Ψ = (E₁ᴴE₁)⁻¹E₁ᴴE₂ for E₁/E₂ the first/last `subarrayLength − 1` rows; the eigenvalues of
///    Ψ are e^{−j2π·1 MHz·τ_i}.
///    **Refinement:** amplitudes by least squares over *all* good tones, then
///    Levenberg–Marquardt steps of the nonlinear least-squares fit of (τ_i, c_i) to all tones,
///    which is the maximum-likelihood estimate under white Gaussian noise and uses the full
///    74 MHz aperture (the ESPRIT windows alone see only `subarrayLength` MHz).
/// 4. **Order** by minimum description length on the refined fits:
///    MDL(K) = N·ln(‖residual‖² + 10⁻¹²‖z‖²) + `mdlPenalty`·K·ln(2N). Eigenvalue thresholds
///    do not work here: the three round-trip components of a two-ray channel 1.5 m apart are
///    far below the Rayleigh limit of a 16-channel window, so the third eigenvalue sits in the
///    noise, while the full-aperture fit still separates them.
///    Then the **round-trip structure** is tried: a two-path channel gives exactly
///    z = (b₀e^{−jv₀f} + b₁e^{−jv₁f})², three components with the cross term midway and its
///    amplitude 2b₀b₁. That model (initialised from the earliest and latest significant free
///    components, and from a pair ±1.5 m around the strongest one) is refined the same way and replaces the free fit when its MDL is lower.
/// 5. **First path.** Components with |c_i| ≥ `significance`·max|c| are significant; of those
///    lying at most `searchWindow` metres before the strongest (on the 149.9 m circle), the
///    earliest is the result, mapped into [0, 149.9).
///
/// Quality = (1 − ‖z − model‖²/‖z‖²) × good-channel fraction.
public struct ESPRITEstimator: DistanceEstimator {
    public var subarrayLength: Int
    public var maxComponents: Int
    /// Weight of the MDL penalty per component (1.5 = three real parameters per component).
    public var mdlPenalty: Double
    public var significance: Double
    public var searchWindow: Double
    public var refinementIterations: Int
    public var minimumChannels: Int
    public var combining: PathCombining
    private let fft = FFT(size: 512)

    public init(subarrayLength: Int = 16, maxComponents: Int = 4, mdlPenalty: Double = 1.5,
                significance: Double = 0.25, searchWindow: Double = 30, refinementIterations: Int = 20,
                minimumChannels: Int = 15, combining: PathCombining = .default) {
        self.subarrayLength = subarrayLength
        self.maxComponents = maxComponents
        self.mdlPenalty = mdlPenalty
        self.significance = significance
        self.searchWindow = searchWindow
        self.refinementIterations = refinementIterations
        self.minimumChannels = minimumChannels
        self.combining = combining
    }

    public func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? {
        ChannelGrid.withAveragedTones(tones) { f, z in
            let n = z.count
            guard n >= max(4, minimumChannels) else { return nil }
            let freqs = Array(f)
            let values = Array(z)
            return estimate(freqs: freqs, values: values, diagnostics: diagnostics)
        }
    }

    private func estimate(freqs: [Double], values: [Complex], diagnostics: Bool) -> DistanceEstimate? {
        let n = freqs.count
        // Window starts whose `m` channels are all present.
        var m = min(subarrayLength, n - 1)
        var starts: [Int] = []
        while m >= 3 {
            starts.removeAll(keepingCapacity: true)
            var runStart = 0
            for i in 0..<n {
                if i > 0 && freqs[i] - freqs[i - 1] != 1 { runStart = i }
                if i - runStart + 1 >= m { starts.append(i - m + 1) }
            }
            if starts.count >= 2 { break }
            m -= 1
        }
        let haveWindows = m >= 3 && starts.count >= 1

        var vectors: ComplexMatrix?
        if haveWindows {
            // Forward-backward smoothed covariance.
            var r = ComplexMatrix(rows: m, cols: m)
            for s in starts {
                for i in 0..<m {
                    let xi = values[s + i]
                    for j in i..<m { r[i, j] += xi * values[s + j].conjugate }
                }
            }
            for i in 0..<m { for j in 0..<i { r[i, j] = r[j, i].conjugate } }
            var fb = ComplexMatrix(rows: m, cols: m)
            let scale = 0.5 / Double(starts.count)
            for i in 0..<m {
                for j in 0..<m { fb[i, j] = (r[i, j] + r[m - 1 - i, m - 1 - j].conjugate) * scale }
            }
            vectors = ComplexMatrix.hermitianEigen(fb).vectors
        }

        var fm = 0.0
        for x in freqs { fm += x }
        fm /= Double(n)
        let fc = freqs.map { $0 - fm }
        var energy = 0.0
        for v in values { energy += v.magnitudeSquared }
        guard energy > 0 else { return nil }

        // For each order K: ESPRIT poles from the K dominant eigenvectors, least-squares
        // amplitudes, LM refinement on all tones; keep the K with the smallest MDL.
        var best: (w: [Double], c: [Complex], cost: Double, mdl: Double)?
        let floor = 1e-12 * energy
        // At most `LevenbergMarquardt.maxParameters` / 3 components: three real parameters each.
        let maxOrder = max(1, min(vectors == nil ? min(maxComponents, n / 4) : min(maxComponents, m - 1), LevenbergMarquardt.maxParameters / 3))
        for k in 1...maxOrder {
            var fit: (w: [Double], c: [Complex], cost: Double)?
            // Start 1: ESPRIT poles (eigenvalue e^{jω}, ω = −2π·1 MHz·τ; keep w = −ω rad/MHz).
            if let vectors {
                var e1 = ComplexMatrix(rows: m - 1, cols: k), e2 = ComplexMatrix(rows: m - 1, cols: k)
                for i in 0..<(m - 1) {
                    for j in 0..<k {
                        e1[i, j] = vectors[i, j]
                        e2[i, j] = vectors[i + 1, j]
                    }
                }
                if let psi = ComplexMatrix.solve(ComplexMatrix.adjointProduct(e1, e1), ComplexMatrix.adjointProduct(e1, e2)) {
                    fit = fitFrom(ComplexMatrix.eigenvalues(psi).map { -$0.phase }, fc, values)
                }
            }
            // Start 2: the previous order's fit plus one component at the peak of the residual's
            // delay profile (a RELAX/OMP-style step). Closely spaced components the window
            // ESPRIT cannot see are found this way, and it needs no complete windows at all
            // (sparse channel maps). The better of the two fits is kept.
            if best != nil || vectors == nil {
                let prevW = best?.w ?? [], prevC = best?.c ?? []
                let w2 = prevW + [residualPeak(freqs: freqs, fc: fc, values: values, w: prevW, c: prevC)]
                if let f2 = fitFrom(w2, fc, values), fit == nil || f2.cost < fit!.cost { fit = f2 }
            }
            guard let (w, c, cost) = fit else { continue }
            // Reject degenerate fits: components ≥ 4× stronger (rms) than the data, cancelling each other.
            var power = 0.0
            for x in c { power += x.magnitudeSquared }
            if k > 1 && power > 16 * energy / Double(n) { continue }
            let mdl = Double(n) * log(cost + floor) + mdlPenalty * Double(k) * log(Double(2 * n))
            if best == nil || mdl < best!.mdl { best = (w, c, cost, mdl) }
        }
        guard var (w, c, cost, bestMDL) = best else { return nil }

        // Round-trip structure: a two-path channel gives exactly z = (b₀e^{−jv₀f} + b₁e^{−jv₁f})²,
        // three components with the cross term midway. Fitting that model (6 real parameters
        // instead of 9) is far better conditioned; it replaces the free fit when its MDL is lower.
        if refinementIterations > 0 {
            let twoPi = 2 * Double.pi
            let wrap2pi = { (x: Double) in (x.truncatingRemainder(dividingBy: twoPi) + twoPi).truncatingRemainder(dividingBy: twoPi) }
            let order = (0..<w.count).sorted { wrap2pi(w[$0]) < wrap2pi(w[$1]) }
            let amps = c.map(\.magnitude)
            var strongest = 0
            for i in 0..<w.count where amps[i] > amps[strongest] { strongest = i }
            let sig = order.filter { amps[$0] >= significance * amps[strongest] }
            // Starts: (earliest, latest) significant free components; and a pair ±1.5 m around
            // the strongest one (the cross term of an unresolved pair). Both signs of b₁.
            var starts: [([Double], [Complex])] = []
            if sig.count >= 2, let i0 = sig.first, let i1 = sig.last {
                starts.append(([wrap2pi(w[i0]) / 2, wrap2pi(w[i1]) / 2], [Self.sqrt(c[i0]), Self.sqrt(c[i1])]))
            }
            let dv = 1.5 * 2 * Double.pi * Ranging.toneSpacing / Ranging.speedOfLight
            let vs = wrap2pi(w[strongest]) / 2, bs = Self.sqrt(c[strongest] * 0.5)
            starts.append(([vs - dv, vs + dv], [bs, bs]))
            for (v, b) in starts {
                for sign in [1.0, -1.0] {
                    guard let (vr, br, costr) = Self.refine(fc, values, v, [b[0], b[1] * sign], squared: true, iterations: refinementIterations)
                    else { continue }
                    let mdl = Double(n) * log(costr + floor) + mdlPenalty * 2 * log(Double(2 * n))
                    if mdl < bestMDL {
                        bestMDL = mdl
                        cost = costr
                        // Expand into the three round-trip components.
                        w = [2 * vr[0], vr[0] + vr[1], 2 * vr[1]]
                        c = [br[0] * br[0], br[0] * br[1] * 2, br[1] * br[1]]
                    }
                }
            }
        }
        let k = w.count

        // Components as distances; earliest significant one before the strongest.
        let metresPerRadian = Ranging.speedOfLight / (4 * Double.pi * Ranging.toneSpacing)
        let dist = w.map { Ranging.wrap($0 * metresPerRadian) }
        let amps = c.map(\.magnitude)
        var strongest = 0
        for i in 1..<k where amps[i] > amps[strongest] { strongest = i }
        var bestOffset = 0.0
        for i in 0..<k where amps[i] >= significance * amps[strongest] {
            let o = Ranging.circularDifference(dist[i], dist[strongest])
            if o < bestOffset && o >= -searchWindow { bestOffset = o }
        }
        let d = Ranging.wrap(dist[strongest] + bestOffset)
        let q = max(0, 1 - cost / energy) * ChannelGrid.goodFraction(n)
        var est = DistanceEstimate(distance: d, quality: q, method: .esprit, toneCount: n)
        if diagnostics {
            var diag = EstimationDiagnostics()
            diag.components = zip(dist, amps).map { .init(distance: $0, amplitude: $1) }.sorted { $0.distance < $1.distance }
            est.diagnostics = diag
        }
        return est
    }

    /// The w (radians per MHz) of the largest peak of the residual's delay profile, by an
    /// inverse FFT of the residual on the channel grid.
    private func residualPeak(freqs: [Double], fc: [Double], values: [Complex], w: [Double], c: [Complex]) -> Double {
        let size = fft.size
        var re = [Double](repeating: 0, count: size), im = re
        for r in 0..<freqs.count {
            var mdl = Complex.zero
            for i in 0..<w.count { mdl += c[i] * Complex(phase: -w[i] * fc[r]) }
            let x = values[r] - mdl
            re[Int(freqs[r])] = x.re
            im[Int(freqs[r])] = x.im
        }
        fft.transform(re: &re, im: &im, inverse: true)
        var bestBin = 0, bestValue = -1.0
        for b in 0..<size {
            let v = re[b] * re[b] + im[b] * im[b]
            if v > bestValue { bestValue = v; bestBin = b }
        }
        return 2 * Double.pi * Double(bestBin) / Double(size)
    }

    /// Least-squares amplitudes for the start `w`, then LM refinement.
    private func fitFrom(_ w0: [Double], _ fc: [Double], _ values: [Complex]) -> (w: [Double], c: [Complex], cost: Double)? {
        guard let c0 = Self.amplitudes(fc, values, w0) else { return nil }
        guard refinementIterations > 0 else { return (w0, c0, Self.residualEnergy(fc, values, w0, c0)) }
        return Self.refine(fc, values, w0, c0, squared: false, iterations: refinementIterations)
    }

    /// Principal complex square root.
    static func sqrt(_ z: Complex) -> Complex {
        let r = z.magnitude.squareRoot()
        return Complex(phase: z.phase / 2) * r
    }

    /// c = argmin ‖z − A(w)c‖², A_ki = e^{−j w_i f_k}.
    static func amplitudes(_ f: [Double], _ z: [Complex], _ w: [Double]) -> [Complex]? {
        let k = w.count
        var a = ComplexMatrix(rows: f.count, cols: k)
        for r in 0..<f.count { for i in 0..<k { a[r, i] = Complex(phase: -w[i] * f[r]) } }
        var zm = ComplexMatrix(rows: f.count, cols: 1)
        for r in 0..<f.count { zm[r, 0] = z[r] }
        guard let x = ComplexMatrix.solve(ComplexMatrix.adjointProduct(a, a), ComplexMatrix.adjointProduct(a, zm))
        else { return nil }
        return (0..<k).map { x[$0, 0] }
    }

    static func residualEnergy(_ f: [Double], _ z: [Complex], _ w: [Double], _ c: [Complex]) -> Double {
        var e = 0.0
        for r in 0..<f.count {
            var mdl = Complex.zero
            for i in 0..<w.count { mdl += c[i] * Complex(phase: -w[i] * f[r]) }
            e += (z[r] - mdl).magnitudeSquared
        }
        return e
    }

    /// The nonlinear least-squares fit of the sum of exponentials h_k = Σ_i c_i·e^{−j w_i f_k}
    /// to all tones, or with `squared` of its square h_k² (the round-trip model of two one-way
    /// paths, step 4, with c the one-way amplitudes b_l and w their v_l), over the real
    /// parameters (w_i, Re c_i, Im c_i): the maximum-likelihood estimate under white Gaussian
    /// noise. `LevenbergMarquardt` on the residuals model − z (real and imaginary parts as two
    /// rows) and their dense Jacobian: ∂h/∂w_i = −j f c_i e_i, ∂h/∂Re c_i = e_i,
    /// ∂h/∂Im c_i = j e_i (e_i = e^{−j w_i f}), times 2h for the square. The damping grows by 4
    /// on a refused step, as this refinement was tuned: these fits have many local minima, and
    /// the default 10 settles in others (light multipath's P90 0.187 m instead of 0.204 m, a
    /// reflection 3 m longer 0.098 m instead of 0.089 m in `bench accuracy`). Nil when the start
    /// is not finite.
    static func refine(_ f: [Double], _ z: [Complex], _ w0: [Double], _ c0: [Complex], squared: Bool,
                       iterations: Int) -> (w: [Double], c: [Complex], cost: Double)? {
        let k = w0.count, p = 3 * k
        var theta = w0 + c0.map(\.re) + c0.map(\.im)
        var normal = [Double](repeating: 0, count: p * p)
        var e = [Complex](repeating: .zero, count: k)
        let result = LevenbergMarquardt.minimize(&theta, n: p, m: 2 * f.count, iterations: iterations, dampingIncrease: 4,
                                                   normal: &normal) { t, r, jac in
            for row in 0..<f.count {
                let fk = f[row]
                var h = Complex.zero
                for i in 0..<k {
                    e[i] = Complex(phase: -t[i] * fk)
                    h += Complex(t[k + i], t[2 * k + i]) * e[i]
                }
                let residual = (squared ? h * h : h) - z[row]
                guard residual.re.isFinite, residual.im.isFinite else { return false }
                r[2 * row] = residual.re
                r[2 * row + 1] = residual.im
                guard let jac else { continue }
                let outer = squared ? h * 2 : Complex.one
                let re = jac + 2 * row * p, im = re + p
                for i in 0..<k {
                    let ce = Complex(t[k + i], t[2 * k + i]) * e[i]
                    let dw = outer * Complex(ce.im * fk, -ce.re * fk), dc = outer * e[i]
                    re[i] = dw.re; im[i] = dw.im
                    re[k + i] = dc.re; im[k + i] = dc.im
                    re[2 * k + i] = -dc.im; im[2 * k + i] = dc.re
                }
            }
            return true
        }
        guard let result else { return nil }
        return (Array(theta[0..<k]), (0..<k).map { Complex(theta[k + $0], theta[2 * k + $0]) }, result.cost)
    }
}
