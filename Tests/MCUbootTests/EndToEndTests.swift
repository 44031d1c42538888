import Testing
@testable import MCUboot
import TestSupport

/// The flash logic over a real pty against the `mcuboot-test-bootloader` process.
@Suite(.serialized) struct EndToEndTests {
    static func configuration() -> FlashSession.Configuration {
        var c = FlashSession.Configuration()
        c.timeoutMilliseconds = 300
        c.firstChunkTimeoutMilliseconds = 300
        c.retries = 4
        return c
    }

    @Test(.timeLimit(.minutes(1))) func uploadWithFaultsOverAPty() throws {
        let image = TestImages.make(payload: TestImages.payload(6000, seed: 11))
        let bootloader = try TestBootloaderProcess(arguments: ["--fail-every", "4", "--garble", "2", "--alignment", "8"])
        defer { bootloader.stop() }
        let link = try bootloader.openLink()
        var session = FlashSession(image: image, configuration: Self.configuration())
        var events: [FlashEvent] = []
        try FlashRunner.run(&session, over: link, clock: TestBootloaderProcess.milliseconds) { events.append($0) }
        #expect(session.phase == .finished)
        #expect(session.totalRetries >= 3)
        #expect(events.contains(.resetAnswered(rc: 0)))
        let summary = bootloader.stop()
        #expect(summary?.hasPrefix("received \(image.count) bytes sha256 \(Hex.string(SHA256.hash(image))) complete yes") == true, "\(summary ?? "no summary")")
        #expect(summary?.hasSuffix("reset yes") == true)
        #expect(!bootloader.process.isRunning)
    }

    /// After one upload, a second session's image list shows the uploaded image's hash.
    @Test(.timeLimit(.minutes(1))) func imageListReportsTheUpload() throws {
        let image = TestImages.make(payload: TestImages.payload(1000, seed: 12))
        let bootloader = try TestBootloaderProcess()
        defer { bootloader.stop() }
        let link = try bootloader.openLink()
        var c = Self.configuration()
        c.reset = false
        var first = FlashSession(image: image, configuration: c)
        try FlashRunner.run(&first, over: link, clock: TestBootloaderProcess.milliseconds)
        #expect(first.images == [])
        var second = FlashSession(image: image, configuration: c)
        try FlashRunner.run(&second, over: link, clock: TestBootloaderProcess.milliseconds)
        #expect(second.images == [MCUbootSlotInfo(slot: 0, version: "1.2.3.4", hash: try MCUbootImage(bytes: image).hash, flags: ["bootable"])])
    }

    /// A bootloader that never answers: the runner gives up with a typed error in bounded time.
    @Test(.timeLimit(.minutes(1))) func silentBootloaderTimesOut() throws {
        let bootloader = try TestBootloaderProcess(arguments: ["--drop-first", "1000"])
        defer { bootloader.stop() }
        let link = try bootloader.openLink()
        var c = Self.configuration()
        c.retries = 1
        var session = FlashSession(image: TestImages.make(payload: [1, 2, 3]), configuration: c)
        #expect(throws: FlashError.noResponse(command: "image list", attempts: 2)) {
            try FlashRunner.run(&session, over: link, clock: TestBootloaderProcess.milliseconds)
        }
    }
}
