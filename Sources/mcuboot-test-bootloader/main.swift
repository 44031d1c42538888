import Glibc
import MCUboot
import SerialTransport

/// mcuboot-test-bootloader: a stand-in for a board in MCUboot serial recovery, on a
/// pseudo-terminal, for testing flash clients (`reflector-emu flash`, smpclient, mcumgr).
///
///     mcuboot-test-bootloader --link PATH [--fail-every N] [--drop-first K] [--garble N]
///                             [--alignment A] [--buffer BYTES]
///
/// It opens a pty, links PATH to its replica, prints `ready <replica path>` on stdout and serves
/// `SerialRecoveryServer` (echo, image list, upload into memory, reset) until SIGTERM, SIGINT,
/// or end of standard input (when stdin is a pipe or terminal). On exit it removes the link and
/// prints `received <n> bytes sha256 <hex> complete <yes|no> requests <r> reset <yes|no>`.
///
/// Faults: --fail-every N drops every Nth answer, --drop-first K the first K, --garble N damages
/// answer N (its CRC fails).

nonisolated(unsafe) var stopRequested: sig_atomic_t = 0

/// Writes one line to a file descriptor, unbuffered (stdout is read by the test as it comes).
func emit(_ line: String, to fd: Int32 = STDOUT_FILENO) {
    let bytes = Array((line + "\n").utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n <= 0 { if errno == EINTR { continue } else { return } }
        done += n
    }
}

func die(_ message: String) -> Never {
    emit("mcuboot-test-bootloader: \(message)", to: STDERR_FILENO)
    exit(2)
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

// MARK: Arguments

var linkPath: String?
var configuration = SerialRecoveryServer.Configuration()
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let flag = args.removeFirst()
    func number() -> Int {
        guard !args.isEmpty, let n = Int(args.removeFirst()), n >= 0 else { die("\(flag) needs a non-negative number") }
        return n
    }
    switch flag {
    case "--link":
        guard !args.isEmpty else { die("--link needs a path") }
        linkPath = args.removeFirst()
    case "--fail-every": configuration.faults.dropEvery = number()
    case "--drop-first": configuration.faults.dropFirst = number()
    case "--garble": configuration.faults.garble.insert(number())
    case "--alignment": configuration.writeAlignment = max(1, number())
    case "--buffer": configuration.receiveBufferSize = max(64, number())
    case "-h", "--help":
        emit("usage: mcuboot-test-bootloader --link PATH [--fail-every N] [--drop-first K] [--garble N] [--alignment A] [--buffer BYTES]")
        exit(0)
    default: die("unknown option '\(flag)'")
    }
}
guard let linkPath else { die("--link PATH is required") }

// MARK: The pty

// SerialTransport's pseudo-terminal: linked at PATH, its replica held open and raw (no echo,
// no newline translation) before any client opens it, so the master never sees a hang-up
// between clients.
let pty: PseudoTerminal
do {
    pty = try PseudoTerminal(linkPath: linkPath, keepsReplicaOpen: true)
} catch {
    die("cannot set up the pseudo-terminal: \(error)")
}

signal(SIGTERM) { _ in stopRequested = 1 }
signal(SIGINT) { _ in stopRequested = 1 }
signal(SIGPIPE, SIG_IGN)
// A parent may start us with these blocked (Foundation's Process does on Linux): unblock them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
sigprocmask(SIG_UNBLOCK, &stopSignals, nil)

var stdinStat = stat()
let watchStdin = fstat(STDIN_FILENO, &stdinStat) == 0 && (stdinStat.st_mode & S_IFMT == S_IFIFO || isatty(STDIN_FILENO) != 0)

emit("ready \(pty.replicaPath)")

// MARK: Serving

/// Whether standard input, if watched, has reached its end (the parent went away).
func stdinEnded() -> Bool {
    var p = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard poll(&p, 1, 0) > 0 else { return false }
    var b = [UInt8](repeating: 0, count: 256)
    return read(STDIN_FILENO, &b, b.count) <= 0
}

let link = SerialByteLink(pty)
var server = SerialRecoveryServer(configuration: configuration)
serve: while stopRequested == 0 {
    if watchStdin, stdinEnded() { break serve }
    do {
        let bytes = try link.read(max: 4096, timeoutMilliseconds: 500)
        if bytes.isEmpty { continue }
        let answer = server.receive(bytes)
        if !answer.isEmpty { try link.write(answer) }
    } catch {
        die("pty: \(error)")
    }
}

pty.close()
emit("received \(server.slot.count) bytes sha256 \(hex(SHA256.hash(server.slot))) complete \(server.uploadComplete ? "yes" : "no") requests \(server.requestCount) reset \(server.resetRequested ? "yes" : "no")")
exit(0)
