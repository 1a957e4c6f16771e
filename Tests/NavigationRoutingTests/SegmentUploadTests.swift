import Foundation
import Testing
import NavigationHistory
import RecipeApp

/// The recipe app's uploader against a real HTTP server on the loopback address: only a 2xx
/// acknowledges a segment, the first failure stops the run, and what is left ships next time.
@Suite struct SegmentUploadTests {
    /// A recorder whose log holds `segments` sealed segments, each of a few events.
    func recorder(sealing segments: Int, in log: TemporaryLog) async throws -> Recorder {
        let recorder = try await Recorder(directory: log.path)
        recorder.record(.sceneOpen(scene: "main", kind: nil))
        for segment in 1...segments {
            for step in 1...4 {
                recorder.record(.push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "r\(segment)-\(step)")))
            }
            #expect(try await recorder.seal())
        }
        return recorder
    }

    /// The bytes of each pending segment, by file name, read from the files themselves (as
    /// `Data`, which a failed expectation prints as its size).
    func pendingFiles(_ recorder: Recorder, in log: TemporaryLog) async throws -> [(name: String, bytes: Data)] {
        try await recorder.pendingShipments().shipments.map { shipment in
            (shipment.fileName, try Data(contentsOf: URL(fileURLWithPath: log.path + "/" + shipment.fileName)))
        }
    }

    func pendingNames(_ recorder: Recorder) async throws -> [String] {
        try await recorder.pendingShipments().shipments.map(\.fileName)
    }

    @Test func onA201EverySegmentArrivesAtItsPathWithItsExactBytesAndIsAcknowledged() async throws {
        let log = try TemporaryLog()
        let recorder = try await recorder(sealing: 3, in: log)
        let files = try await pendingFiles(recorder, in: log)
        let digests = try await recorder.pendingShipments().shipments.map { try $0.contents().sha256 }
        #expect(files.map(\.name) == ["00000001.jsonl", "00000002.jsonl", "00000003.jsonl"])
        let server = try LoopbackHTTPServer { _, _ in .status(201) }
        defer { server.stop() }

        let uploader = SegmentUploader(base: server.url.appending(path: "logs"), device: "device-1", timeout: 5)
        let report = await uploader.ship(from: recorder)

        #expect(report == UploadReport(shipped: files.map(\.name), failure: nil))
        let requests = server.requests
        #expect(requests.map(\.method) == ["PUT", "PUT", "PUT"])
        #expect(requests.map(\.path) == files.map { "/logs/device-1/\($0.name)" }, "oldest first, each under its own name")
        #expect(requests.map { Data($0.body) } == files.map(\.bytes), "exactly the segment's bytes")
        #expect(requests.map { $0.headers["content-type"] } == Array(repeating: "application/x-ndjson", count: 3))
        #expect(requests.map { $0.headers["x-content-sha256"] } == digests)
        #expect(try await pendingNames(recorder).isEmpty, "every segment acknowledged")
        try await recorder.close()
    }

    @Test func aRedactingUploaderSendsTheRedactedCopyAndNoRawIdReachesTheServer() async throws {
        let log = try TemporaryLog()
        let recorder = try await recorder(sealing: 2, in: log)
        let copies = try await recorder.pendingShipments().shipments.map { try $0.redacted([.ids], salt: "pepper") }
        let server = try LoopbackHTTPServer { _, _ in .status(201) }
        defer { server.stop() }

        let uploader = SegmentUploader(base: server.url, device: "device-1", timeout: 5, redactions: [.ids], salt: "pepper")
        let report = await uploader.ship(from: recorder)

        #expect(report.shipped == ["00000001.jsonl", "00000002.jsonl"] && report.failure == nil)
        let requests = server.requests
        #expect(requests.map(\.body) == copies.map(\.bytes), "the redacted copies, byte for byte")
        #expect(requests.map { $0.headers["x-content-sha256"] } == copies.map(\.sha256))
        let sent = String(decoding: requests.flatMap(\.body), as: UTF8.self)
        #expect(!sent.contains("r1-1") && !sent.contains("r2-4") && sent.contains("\"screen\":\"recipe\""))
        try await recorder.close()
    }

    /// Uploads the 2 sealed segments of a new log to a server answering `answer`, and checks
    /// that nothing is acknowledged; returns the report.
    func uploadAcknowledgingNothing(answer: LoopbackHTTPServer.Answer, timeout: TimeInterval = 5) async throws -> UploadReport {
        let log = try TemporaryLog()
        let recorder = try await recorder(sealing: 2, in: log)
        let before = try await pendingNames(recorder)
        let server = try LoopbackHTTPServer { _, _ in answer }
        defer { server.stop() }

        let report = await SegmentUploader(base: server.url, device: "d", timeout: timeout).ship(from: recorder)

        #expect(report.shipped.isEmpty)
        #expect(report.failure?.fileName == "00000001.jsonl", "the run stops at the first segment")
        #expect(Set(server.requests.map(\.path)) == ["/d/00000001.jsonl"], "nothing after the failure is sent")
        #expect(try await pendingNames(recorder) == before, "nothing acknowledged")
        try await recorder.close()
        return report
    }

    @Test func aServerErrorAcknowledgesNothingAndTheReportGivesTheStatus() async throws {
        let report = try await uploadAcknowledgingNothing(answer: .status(500))
        #expect(report.failure?.reason == .status(500))
        #expect(report.failure?.description == "00000001.jsonl: the server answered 500")
    }

    @Test func aClientErrorAnswerAcknowledgesNothingEither() async throws {
        let report = try await uploadAcknowledgingNothing(answer: .status(404))
        #expect(report.failure?.reason == .status(404))
    }

    @Test func aDroppedConnectionAcknowledgesNothingAndTheReportSaysTheConnectionFailed() async throws {
        let report = try await uploadAcknowledgingNothing(answer: .drop)
        guard case .connection(let detail) = report.failure?.reason else {
            Issue.record("not a connection failure: \(String(describing: report.failure))")
            return
        }
        #expect(!detail.isEmpty)
    }

    @Test func aServerThatNeverAnswersTimesOutAndAcknowledgesNothing() async throws {
        // The reason says the request's own timeout ended the wait. How long the wait took is
        // not asserted: in the whole suite on 2 cores, with every test running at once, a 1 s
        // timeout once took 200 s to end the upload (alone, 1.05 s).
        let report = try await uploadAcknowledgingNothing(answer: .silence, timeout: 1)
        #expect(report.failure?.reason == .timedOut)
    }

    @Test func onlyTheSegmentsAnswered2xxBeforeTheFirstFailureAreAcknowledgedAndTheRestShipNextTime() async throws {
        let log = try TemporaryLog()
        let recorder = try await recorder(sealing: 3, in: log)
        let files = try await pendingFiles(recorder, in: log)
        let flaky = try LoopbackHTTPServer { number, _ in number == 0 ? .status(201) : .status(500) }
        defer { flaky.stop() }

        let first = await SegmentUploader(base: flaky.url, device: "d", timeout: 5).ship(from: recorder)

        #expect(first.shipped == ["00000001.jsonl"])
        #expect(first.failure == UploadFailure(fileName: "00000002.jsonl", reason: .status(500)))
        #expect(flaky.requests.map(\.path) == ["/d/00000001.jsonl", "/d/00000002.jsonl"])
        #expect(try await pendingNames(recorder) == ["00000002.jsonl", "00000003.jsonl"])

        recorder.record(.push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "later")))
        #expect(try await recorder.seal())
        let healthy = try LoopbackHTTPServer { _, _ in .status(200) }
        defer { healthy.stop() }

        let second = await SegmentUploader(base: healthy.url, device: "d", timeout: 5).ship(from: recorder)

        #expect(second == UploadReport(shipped: ["00000002.jsonl", "00000003.jsonl", "00000004.jsonl"], failure: nil))
        #expect(healthy.requests.map(\.path) == ["/d/00000002.jsonl", "/d/00000003.jsonl", "/d/00000004.jsonl"],
                "only what was left, and what was sealed since")
        #expect(healthy.requests.prefix(2).map { Data($0.body) } == files.dropFirst().map(\.bytes))
        #expect(try await pendingNames(recorder).isEmpty)
        try await recorder.close()
    }

    @Test func aRunWithNothingPendingSendsNothing() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path)
        recorder.record(.sceneOpen(scene: "main", kind: nil))
        let server = try LoopbackHTTPServer { _, _ in .status(201) }
        defer { server.stop() }

        let report = await SegmentUploader(base: server.url, device: "d", timeout: 5).ship(from: recorder)

        #expect(report == UploadReport(shipped: [], failure: nil), "the current segment is not sealed: nothing ships")
        #expect(server.requests.isEmpty)
        try await recorder.close()
    }

    @Test func theInstallIDIsMadeOnceAndKeptAcrossLaunches() throws {
        let log = try TemporaryLog()
        let file = URL(fileURLWithPath: log.path).appending(path: "app/install-id")
        let id = try InstallID.load(from: file)
        #expect(UUID(uuidString: id) != nil)
        #expect(try InstallID.load(from: file) == id, "read back, not made anew")
        try Data("not an id".utf8).write(to: file)
        #expect(try InstallID.load(from: file) != id, "a file holding no UUID is replaced")
    }
}
