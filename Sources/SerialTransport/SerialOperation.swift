/// What the program was doing when a system call failed. The same `errno` means different
/// things at different moments: EIO while opening is a plain failure, EIO while reading a port
/// that worked a moment ago means the device was unplugged; ENOENT on open means a wrong path.
enum SerialOperation: String, Sendable {
    /// Finding or opening the device (`stat`, `open`, `sp_get_port_by_name`, `sp_open`).
    case open
    /// Taking the exclusive lock (`flock(LOCK_EX | LOCK_NB)`).
    case lock
    /// Applying baud rate, framing and flow control (`tcsetattr`, `sp_set_*`).
    case configure
    /// Waiting for or reading received bytes (`poll`, `read`, `sp_nonblocking_read`).
    case read
    /// Handing bytes to the driver (`write`, `sp_blocking_write`).
    case write
    /// Creating or removing the symbolic link that names a pseudo-terminal.
    case link
    /// Creating a pseudo-terminal (`posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r`).
    case createPseudoTerminal = "create pseudo-terminal"
    /// Listing ports (`sp_list_ports`).
    case list
}
