/// Filters outliers and smooths a stream of distance estimates, as iOS says it does for
/// Channel Sounding results: a constant-velocity Kalman filter (distance and radial speed)
/// with innovation gating. An estimate more than `gate` standard deviations from the
/// prediction is treated as an outlier and skipped; after `resetAfter` outliers in a row the
/// filter trusts the new data (the accessory really moved) and restarts from the median of them.
public struct DistanceTracker: Sendable {
    /// Standard deviation of one estimate, metres: indoors, multipath, not noise, sets it (decimetres).
    public var measurementSigma: Double
    /// Random acceleration of a walking person or a moving object, m/s².
    public var acceleration: Double
    public var gate: Double
    public var resetAfter: Int

    public private(set) var distance: Double?
    public private(set) var velocity = 0.0
    private var p00 = 0.0, p01 = 0.0, p11 = 0.0
    private var lastTime: Double?
    private var rejected: [Double] = []

    public init(measurementSigma: Double = 0.3, acceleration: Double = 0.5, gate: Double = 4, resetAfter: Int = 3) {
        self.measurementSigma = measurementSigma
        self.acceleration = acceleration
        self.gate = gate
        self.resetAfter = resetAfter
    }

    /// Adds an estimate taken at `time` seconds; returns the smoothed distance (nil before the
    /// first estimate). A nil estimate (a failed procedure) only advances the prediction.
    @discardableResult
    public mutating func update(_ estimate: Double?, at time: Double) -> Double? {
        guard let d0 = distance, let t0 = lastTime else {
            if let estimate { start(at: estimate, time: time) }
            return distance
        }
        // Predict.
        let dt = max(0, time - t0)
        let q = acceleration * acceleration
        var d = d0 + velocity * dt
        p00 += dt * (2 * p01 + dt * p11) + q * dt * dt * dt * dt / 4
        p01 += dt * p11 + q * dt * dt * dt / 2
        p11 += q * dt * dt
        lastTime = time
        guard let z = estimate else {
            distance = d
            return distance
        }
        let r = measurementSigma * measurementSigma
        let s = p00 + r
        let innovation = z - d
        if innovation * innovation > gate * gate * s {
            rejected.append(z)
            if rejected.count >= resetAfter {
                start(at: rejected.sorted()[rejected.count / 2], time: time)
            } else {
                distance = d
            }
            return distance
        }
        rejected.removeAll()
        let k0 = p00 / s, k1 = p01 / s
        d += k0 * innovation
        velocity += k1 * innovation
        let (n00, n01, n11) = (p00 - k0 * p00, p01 - k0 * p01, p11 - k1 * p01)
        p00 = n00; p01 = n01; p11 = n11
        distance = max(0, d)
        return distance
    }

    private mutating func start(at d: Double, time: Double) {
        distance = d
        velocity = 0
        p00 = measurementSigma * measurementSigma
        p01 = 0
        p11 = 1  // (1 m/s)² of unknown speed
        lastTime = time
        rejected.removeAll()
    }
}
