import CPty
import Glibc
import Testing

/// The C shim opens a pseudo-terminal whose two ends pass bytes unchanged in raw mode.
struct PtyShimTests {
    @Test func bytesCrossThePtyUnchanged() throws {
        var path = [CChar](repeating: 0, count: 256)
        let master = cpty_open(&path, path.count)
        #expect(master >= 0)
        defer { close(master) }
        let slavePath = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(slavePath.hasPrefix("/dev/pts/"))
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        #expect(slave >= 0)
        defer { close(slave) }
        #expect(cpty_make_raw(slave, 1_000_000, 0) == 0)
        let bytes: [UInt8] = [0x01, 0x03, 0x0C, 0x00, 0x0A, 0x0D, 0x11, 0x13, 0xFF]
        #expect(write(slave, bytes, bytes.count) == bytes.count)
        var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 2000) == 1)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(master, &buffer, buffer.count)
        #expect(Array(buffer.prefix(n)) == bytes)
    }
}
