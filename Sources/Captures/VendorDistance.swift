/// The distance a vendor's own ranging library gave for a procedure, when its log carries one
/// (Silicon Labs' RTL library's `rtl_output`): `estimate` prints it beside ours, to compare.
public struct VendorDistance: Sendable, Equatable {
    /// The library's distance in metres (`distance`; the app logs it as its measurement result).
    public var distance: Double
    /// Its raw distance in metres (`distance_raw`), when the log gives one.
    public var raw: Double?

    public init(distance: Double, raw: Double?) {
        self.distance = distance
        self.raw = raw
    }
}
