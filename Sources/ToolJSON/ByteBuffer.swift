/// Growable bytes behind a raw pointer: the buffer a command's output and the JSON writer fill.
/// A class so that one buffer has one owner; `JSONWriter` mirrors its pointer and count while
/// it writes and hands them back (`JSONWriter.commit`), so the hot path touches no class field.
public final class ByteBuffer {
    public private(set) var base: UnsafeMutablePointer<UInt8>
    public var count = 0
    public private(set) var capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for at least `minimum` bytes in all (the first `count` kept).
    public func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        let grown = max(minimum, capacity * 2)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        new.update(from: base, count: count)
        base.deallocate()
        base = new
        capacity = grown
    }

    public func append(_ bytes: some Collection<UInt8>) {
        reserve(count + bytes.count)
        var p = base + count
        for b in bytes {
            p.pointee = b
            p += 1
        }
        count += bytes.count
    }

    /// The bytes written so far.
    public var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// A copy of the bytes written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
