/// An open descriptor as a `SerialLink`'s reads and writes: `DescriptorIO` with the link's path
/// and what a hangup means for it, refused with `.closed` once the descriptor is closed. The
/// pseudo-terminal's master and a terminal device each hold one.
struct DescriptorLink {
    private(set) var fd: Int32
    let path: String
    /// `vanished` for a device, `peerClosed` for a pty master.
    let hangup: SerialError

    var isOpen: Bool { fd >= 0 }

    var readinessDescriptor: Int32? { isOpen ? fd : nil }

    func write(_ bytes: [UInt8], timeout milliseconds: Int) throws(SerialError) {
        guard isOpen else { throw .closed(path: path) }
        try io.write(bytes, timeout: milliseconds)
    }

    func read(max: Int, timeout milliseconds: Int) throws(SerialError) -> [UInt8] {
        guard isOpen else { throw .closed(path: path) }
        return try io.read(max: max, timeout: milliseconds)
    }

    /// Closes the descriptor; closing again does nothing.
    mutating func close() {
        guard isOpen else { return }
        SystemCalls.close(fd)
        fd = -1
    }

    private var io: DescriptorIO { DescriptorIO(path: path, hangup: hangup, primitives: .descriptor(fd)) }
}
