/// Where a command's output bytes go in the end: standard output, a file descriptor, memory.
public protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer)
}
