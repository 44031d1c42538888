import Foundation

/// The libm functions the Air uses beyond those the estimators name, kept in one place.
@inline(__always) func _pow10(_ x: Double) -> Double { pow(10, x) }
@inline(__always) func _log10(_ x: Double) -> Double { log10(x) }
@inline(__always) func _rint(_ x: Double) -> Double { x.rounded(.toNearestOrEven) }
