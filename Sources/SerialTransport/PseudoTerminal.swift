/// The master side of a new pseudo-terminal: how a virtual board appears to other programs as a
/// serial port. A host (Bumble's `serial:` transport, this tool, a terminal) opens the replica
/// path, or a stable symbolic link to it, as if it were `/dev/ttyACM0`.
///
/// Created with the C shim `cpty_open` (`posix_openpt(O_RDWR | O_NOCTTY)`, `grantpt`,
/// `unlockpt`, `ptsname_r`, master put in raw mode, since a cooked pty turns 0x0A into 0D 0A
/// and echoes), then made nonblocking. Reads are `poll(2)` + `read(2)` with deadlines.
///
/// **The far end closing.** Linux reports the last replica fd closing on the master as POLLHUP
/// (it stays set) and `read` fails with EIO; bytes the client wrote before closing are still
/// returned first. This link reports that as `.peerClosed`, distinct from `.timeout`. Until a
/// client has opened the replica once, the master just sees silence (timeouts). With
/// `keepsReplicaOpen` the link holds a replica fd itself, as Bumble's `pty:` transport does, so
/// clients can come and go without any hangup (and `.peerClosed` is never reported).
public final class PseudoTerminal: SerialLink {
    /// The replica's device path (`/dev/pts/N`, the "slave" side).
    public let replicaPath: String
    /// The symbolic link to `replicaPath`, if one was asked for; removed again by `close()`.
    public let linkPath: String?
    private var master: DescriptorLink
    private var heldReplica: Int32 = -1

    /// The path clients should open: the link if there is one, else the replica.
    public var path: String { linkPath ?? replicaPath }

    /// Creates a pseudo-terminal.
    ///
    /// - Parameters:
    ///   - linkPath: if given, a symbolic link created at this path pointing at the replica
    ///     (an existing symbolic link there is replaced atomically; anything else is refused
    ///     with `.linkPathOccupied`).
    ///   - keepsReplicaOpen: hold a replica fd (raw mode) for the pty's lifetime, so a client
    ///     closing does not hang up the master.
    public init(linkPath: String? = nil, keepsReplicaOpen: Bool = false) throws(SerialError) {
        let created: (master: Int32, replicaPath: String)
        switch SystemCalls.openPseudoTerminal() {
        case .success(let c): created = c
        case .failure(let e): throw SerialError.mapping(e, during: .createPseudoTerminal, path: "")
        }
        replicaPath = created.replicaPath
        master = DescriptorLink(fd: created.master, path: linkPath ?? created.replicaPath, hangup: .peerClosed(path: linkPath ?? created.replicaPath))
        self.linkPath = linkPath
        do throws(SerialError) {
            if case .failure(let e) = SystemCalls.setNonblocking(master.fd) {
                throw SerialError.mapping(e, during: .createPseudoTerminal, path: replicaPath)
            }
            if keepsReplicaOpen {
                let fd: Int32
                switch SystemCalls.openTerminal(replicaPath) {
                case .success(let d): fd = d
                case .failure(let e): throw SerialError.mapping(e, during: .open, path: replicaPath)
                }
                heldReplica = fd
                if case .failure(let e) = SystemCalls.makeRaw(fd, baud: 0, rtsCts: false) {
                    throw SerialError.mapping(e, during: .configure, path: replicaPath)
                }
            }
            if let linkPath { try SymbolicLink.replace(at: linkPath, target: replicaPath) }
        } catch {
            releaseDescriptors()
            throw error
        }
    }

    deinit { close() }

    public var readinessDescriptor: Int32? { master.readinessDescriptor }

    public func write(_ bytes: [UInt8], timeout milliseconds: Int) throws(SerialError) {
        try master.write(bytes, timeout: milliseconds)
    }

    /// Reads what a client wrote. Throws `.peerClosed` once the last client closed the replica
    /// (after everything it wrote was returned); a caller serving clients one after another
    /// should then back off and try again later rather than spin (POLLHUP stays set until a
    /// client opens the replica again).
    public func read(max: Int, timeout milliseconds: Int) throws(SerialError) -> [UInt8] {
        try master.read(max: max, timeout: milliseconds)
    }

    /// Closes the master (clients then see a hangup) and removes the symbolic link, if it still
    /// points at this pty's replica.
    public func close() {
        guard master.isOpen else { return }
        releaseDescriptors()
        if let linkPath { SymbolicLink.remove(at: linkPath, ifPointingAt: replicaPath) }
    }

    private func releaseDescriptors() {
        if heldReplica >= 0 { SystemCalls.close(heldReplica) }
        heldReplica = -1
        master.close()
    }
}
