import Testing
@testable import MCUboot

/// A flash session against the simulated bootloader, in process, on a virtual clock: every
/// exchange takes `latency` ms; when no answer comes, time jumps to the session's deadline.
struct FlashBench {
    var session: FlashSession
    var server: SerialRecoveryServer
    var now: UInt64 = 1_000
    var latency: UInt64 = 10
    var events: [FlashEvent] = []
    var requests: [[UInt8]] = []

    init(image: [UInt8], session configuration: FlashSession.Configuration = .init(), server serverConfiguration: SerialRecoveryServer.Configuration = .init()) {
        session = FlashSession(image: image, configuration: configuration)
        server = SerialRecoveryServer(configuration: serverConfiguration)
    }

    mutating func run(maxSteps: Int = 10_000) {
        var out = session.start(now: now)
        for _ in 0..<maxSteps {
            events += out.events
            if session.isDone { return }
            if !out.bytes.isEmpty {
                requests.append(out.bytes)
                let answer = server.receive(out.bytes)
                now += latency
                if !answer.isEmpty {
                    out = session.receive(answer, now: now)
                    continue
                }
            }
            guard let d = session.deadline else { return }
            now = max(now, d)
            out = session.poll(now: now)
        }
    }

    var retries: [FlashEvent] { events.filter { if case .retry = $0 { return true } else { return false } } }
}

struct FlashSessionTests {
    static let image = TestImages.make(payload: TestImages.payload(5000, seed: 3))

    @Test func fullUpload() throws {
        var bench = FlashBench(image: Self.image)
        bench.run()
        #expect(bench.session.phase == .finished)
        #expect(bench.server.slot == Self.image)
        #expect(bench.server.announcedSHA == SHA256.hash(Self.image))
        #expect(bench.server.resetRequested)
        #expect(bench.session.totalRetries == 0)
        #expect(bench.events.first == .imageList([]))
        #expect(bench.events.last == .finished)
        #expect(bench.events.contains(.resetAnswered(rc: 0)))
        // 5552 octets: 430 in the first chunk, then 480 per chunk → 12 upload requests.
        #expect(bench.server.uploadRequests == 12)
        // Every request fits MCUboot's line and buffer limits.
        for r in bench.requests {
            let lines = r.split(separator: 0x0A)
            #expect(lines.allSatisfy { $0.count + 1 <= 127 })
            let text = lines.flatMap { $0.dropFirst(2) }
            #expect((Base64.decode(text)?.count ?? 9999) <= 512 - FlashSession.bufferMargin)
        }
    }

    @Test func chunkSizesFillTheBuffer() {
        let s = FlashSession(image: TestImages.make(payload: TestImages.payload(100_000)))
        // Budget 512 − 4 margin − 12 (length, header, CRC) = 496 CBOR octets. First chunk: map 1,
        // "image" 0 → 7, "len" → 4 + 5 (a 100 552-octet file), "sha" → 4 + 34, "off" 0 → 5,
        // "data" → 5 + 3 (bstr head) = 68, leaving 428; a file under 64 KiB has a 3-octet len: 430.
        #expect(s.maximumChunk(at: 0) == 428)
        #expect(FlashSession(image: Self.image).maximumChunk(at: 0) == 430)
        #expect(s.maximumChunk(at: 10) == 482)
        #expect(s.maximumChunk(at: 100) == 481)
        #expect(s.maximumChunk(at: 430) == 480)
        #expect(s.maximumChunk(at: 70_000) == 478)
        var c = FlashSession.Configuration()
        c.maximumChunkSize = 128
        #expect(FlashSession(image: Self.image, configuration: c).maximumChunk(at: 1000) == 128)
        #expect(s.maximumChunk(at: s.image.count - 5) == 5)
    }

    @Test func droppedAnswersAreRetried() {
        var sc = SerialRecoveryServer.Configuration()
        sc.faults = SerialRecoveryFaults(dropEvery: 3)
        var bench = FlashBench(image: Self.image, server: sc)
        bench.run()
        #expect(bench.session.phase == .finished)
        #expect(bench.server.slot == Self.image)
        #expect(bench.retries.count >= 4)
        #expect(bench.session.totalRetries == bench.retries.count)
    }

    @Test func garbledAnswersAreRecovered() {
        var sc = SerialRecoveryServer.Configuration()
        sc.faults = SerialRecoveryFaults(garble: [2, 5])
        var bench = FlashBench(image: Self.image, server: sc)
        let start = bench.now
        bench.run()
        #expect(bench.session.phase == .finished)
        #expect(bench.server.slot == Self.image)
        #expect(bench.retries.count == 2)
        if case .retry(_, let attempt, let reason) = bench.retries.first {
            #expect(attempt == 2)
            #expect(reason == "frame CRC mismatch")
        }
        // A garbled answer is retried at once, not after a timeout.
        #expect(bench.now - start < 1_000)
    }

    /// The bootloader writes whole 64-octet units only; the session continues from its "off".
    @Test func followsPartialWrites() {
        var sc = SerialRecoveryServer.Configuration()
        sc.writeAlignment = 64
        var bench = FlashBench(image: Self.image, server: sc)
        bench.run()
        #expect(bench.session.phase == .finished)
        #expect(bench.server.slot == Self.image)
    }

    /// A bootloader that already holds part of the image answers the first chunk with a later
    /// offset; the next request resumes there.
    @Test func resumesFromTheReportedOffset() throws {
        var c = FlashSession.Configuration()
        c.queryImageList = false
        var session = FlashSession(image: Self.image, configuration: c)
        var d = SMPConsoleDecoder()
        guard case .packet(let first) = d.feed(session.start(now: 0).bytes).first else { Issue.record("no request"); return }
        #expect(try first.body()["off"]?.intValue == 0)
        #expect(try first.body()["len"]?.intValue == Self.image.count)
        let answer = SMPPacket(op: .writeResponse, command: .imageUpload, sequence: first.sequence, body: .map(["rc": .int(0), "off": .int(3000)]))
        let out = session.receive(SMPConsoleEncoder.encode(answer), now: 5)
        guard case .packet(let next) = d.feed(out.bytes).first else { Issue.record("no next request"); return }
        let body = try next.body()
        #expect(body["off"]?.intValue == 3000)
        #expect(body["len"] == nil)
        #expect(body["data"]?.bytesValue == Array(Self.image[3000..<3480]))
        #expect(session.offset == 3000)
    }

    /// Nothing ever answers: the image-list request is sent 1 + retries times, then it fails.
    @Test func silentBootloaderFails() {
        var sc = SerialRecoveryServer.Configuration()
        sc.faults = SerialRecoveryFaults(dropFirst: 1_000)
        var bench = FlashBench(image: Self.image, server: sc)
        let start = bench.now
        bench.run()
        #expect(bench.session.phase == .failed(.noResponse(command: "image list", attempts: 4)))
        #expect(bench.requests.count == 4)
        #expect(bench.now - start >= 4 * 3_000)
        #expect(bench.events.last == .failed(.noResponse(command: "image list", attempts: 4)))
    }

    @Test func refusalStops() {
        var sc = SerialRecoveryServer.Configuration()
        sc.slotSize = 4096
        var bench = FlashBench(image: Self.image, server: sc)
        bench.run()
        #expect(bench.session.phase == .failed(.refused(command: "image upload at offset 0", rc: 3)))
        #expect(FlashError.refused(command: "image upload at offset 0", rc: 3).description == "the bootloader refused image upload at offset 0: EINVAL (rc 3)")
    }

    /// An answer with an old sequence number (a late duplicate) changes nothing.
    @Test func staleAnswersAreIgnored() {
        var c = FlashSession.Configuration()
        c.queryImageList = false
        var session = FlashSession(image: Self.image, configuration: c)
        var server = SerialRecoveryServer()
        let answer1 = server.receive(session.start(now: 0).bytes)
        let out = session.receive(answer1, now: 1)
        #expect(session.offset == 430)
        #expect(!out.bytes.isEmpty)
        let again = session.receive(answer1, now: 2)
        #expect(again == FlashSession.Output())
        #expect(session.offset == 430)
    }

    @Test func progressUsesInjectedTime() {
        var c = FlashSession.Configuration()
        c.reset = false
        c.queryImageList = false
        var bench = FlashBench(image: Self.image, session: c)
        bench.latency = 100
        bench.run()
        guard case .uploadComplete(let response, let progress) = bench.events.first(where: { if case .uploadComplete = $0 { return true } else { return false } }) else {
            Issue.record("no completion")
            return
        }
        #expect(response["off"]?.intValue == Self.image.count)
        #expect(progress.acknowledged == Self.image.count)
        #expect(progress.elapsedMilliseconds == 1_200)  // 12 exchanges of 100 ms
        #expect(abs(progress.bytesPerSecond - Double(Self.image.count) / 1.2) < 0.001)
        #expect(!bench.server.resetRequested)
        #expect(bench.events.last == .finished)
    }

    /// The server's image list reports the uploaded image's hash and version.
    @Test func serverListsTheUploadedImage() throws {
        var bench = FlashBench(image: Self.image)
        bench.run()
        let image = try MCUbootImage(bytes: Self.image)
        #expect(bench.server.listEntries() == [MCUbootSlotInfo(slot: 0, version: "1.2.3.4", hash: image.hash, flags: ["bootable"])])
    }
}
