/// Where a payload was refused: the octet offset of the first field out of range.
public struct PayloadError: Error, Sendable, Equatable {
    public var offset: Int
    public init(offset: Int) { self.offset = offset }
}
