/// A point or direction in 3D, metres. World frame: x east, y north, z up. Phone frame (as
/// ARKit's camera and Nearby Interaction use): x right, y up, −z out of the back camera.
public struct Vector3: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    @inline(__always) public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inline(__always) public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inline(__always) public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inline(__always) public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inline(__always) public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }
    @inline(__always) public var length: Double { dot(self).squareRoot() }
    public var normalized: Vector3 { let l = length; return l > 0 ? self * (1 / l) : self }
}
