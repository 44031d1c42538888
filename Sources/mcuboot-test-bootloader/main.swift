import CPty
import Glibc
import MCUboot

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

var namebuf = [CChar](repeating: 0, count: 256)
let master = cpty_open(&namebuf, namebuf.count)
guard master >= 0 else { die("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))") }
let replica = String(decoding: namebuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
// Hold the replica open ourselves: the master then never sees a hang-up between clients, and
// the replica is raw (no echo, no newline translation) before any client opens it.
let held = open(replica, O_RDWR | O_NOCTTY)
guard held >= 0, cpty_make_raw(held, 0, 0) == 0 else { die("cannot set up \(replica): \(String(cString: strerror(errno)))") }
_ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

var st = stat()
if lstat(linkPath, &st) == 0 {
    guard st.st_mode & S_IFMT == S_IFLNK else { die("\(linkPath) exists and is not a symbolic link") }
    unlink(linkPath)
}
guard symlink(replica, linkPath) == 0 else { die("cannot link \(linkPath): \(String(cString: strerror(errno)))") }

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

emit("ready \(replica)")

// MARK: Serving

let link = FileDescriptorLink(fd: master, closeOnDeinit: false)
var server = SerialRecoveryServer(configuration: configuration)
var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0), pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
serve: while stopRequested == 0 {
    fds[0].revents = 0
    fds[1].revents = 0
    let r = poll(&fds, watchStdin ? 2 : 1, 500)
    if r < 0 {
        if errno == EINTR { continue }
        die("poll: \(String(cString: strerror(errno)))")
    }
    if watchStdin, fds[1].revents != 0 {
        var b = [UInt8](repeating: 0, count: 256)
        let n = read(STDIN_FILENO, &b, b.count)
        if n <= 0 { break serve }
    }
    if fds[0].revents != 0 {
        do {
            let bytes = try link.read(max: 4096, timeoutMilliseconds: 0)
            let answer = server.receive(bytes)
            if !answer.isEmpty { try link.write(answer) }
        } catch {
            die("pty: \(error)")
        }
    }
}

unlink(linkPath)
close(held)
close(master)
emit("received \(server.slot.count) bytes sha256 \(hex(SHA256.hash(server.slot))) complete \(server.uploadComplete ? "yes" : "no") requests \(server.requestCount) reset \(server.resetRequested ? "yes" : "no")")
exit(0)
