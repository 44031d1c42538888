/// How the tool's text names a quantile, so that a reader knows which one it is: every
/// percentile the tool prints is EmulatorMath's `Quantile` (linear interpolation between order
/// statistics, NumPy's and R's default), and its label says so. (The JSON keys stay as they
/// were, `p90_...`: they name fields of an interface, documented as this definition.)
enum QuantileLabel {
    static let p90 = "90th percentile (interpolated)"
}
