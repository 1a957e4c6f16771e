import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct RecorderTests {
    func nonSnapshotEvents(_ path: String) throws -> [NavigationEvent] {
        var events = [NavigationEvent]()
        let report = try LogReader(path: path, mode: .absolute).read { event in
            if case .snapshot = event.action { return }
            events.append(event)
        }
        #expect(report.isClean)
        return events
    }

    @MainActor @Test func recordedEventsAreWrittenInOrderAndFlushReturnsTheLastDurableSeq() async throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        var generator = LogGenerator(seed: 21)
        let drafts = (0..<3000).map { _ in generator.next() }
        let recorder = try await Recorder(directory: path, options: .init(segmentSize: 100_000), session: "app-run-1")
        for draft in drafts[..<1500] { recorder.record(draft.action, at: draft.timestamp) }
        let durable = try await recorder.flush()
        #expect(await recorder.durableSeq == durable)
        for draft in drafts[1500...] { recorder.record(draft.action, at: draft.timestamp) }
        let last = try await recorder.close()
        let events = try nonSnapshotEvents(path)
        #expect(events.map(\.action) == drafts.map(\.action))
        #expect(events.map(\.timestamp) == drafts.map(\.timestamp))
        #expect(events.allSatisfy { $0.session == "app-run-1" })
        #expect(durable >= events[1499].seq && durable < events[1500].seq)
        #expect(last == events.last?.seq)
        let status = await recorder.status
        #expect(status.recorded == 3000 && status.refused == 0 && status.failure == nil)
    }

    @Test func aBatchedRecorderMakesEventsDurableWithinItsDelayWithoutAFlush() async throws {
        let dir = try ScratchDirectory()
        let options = EventLog.Options(durability: .batched(maxDelay: .milliseconds(20), maxEvents: 1000))
        let recorder = try await Recorder(directory: dir.path + "/log", options: options)
        recorder.record(.sceneOpen(scene: "main", kind: nil))
        recorder.record(.tabSelect(scene: "main", tab: "home"))
        var durable = 0
        for _ in 0..<200 where durable < 3 {
            try await Task.sleep(for: .milliseconds(10))
            durable = await recorder.durableSeq
        }
        #expect(durable == 3, "the snapshot starting the segment and both events")
        try await recorder.close()
    }

    @Test func aSecondRecorderOnTheSameLogIsRefused() async throws {
        let dir = try ScratchDirectory()
        let first = try await Recorder(directory: dir.path + "/log")
        await #expect { _ = try await Recorder(directory: dir.path + "/log") } throws: {
            ($0 as? NavigationHistoryError)?.code == .locked
        }
        try await first.close()
        let second = try await Recorder(directory: dir.path + "/log")
        try await second.close()
    }

    @Test func anEventTheFormatCannotHoldIsRefusedAloneAndCounted() async throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let recorder = try await Recorder(directory: path, options: .init(durability: .everyEvent))
        recorder.record(.sceneOpen(scene: "main", kind: nil))
        recorder.record(.push(scene: "main", stack: "home", route: Route(screen: "r", id: String(repeating: "x", count: 70_000))))
        recorder.record(.tabSelect(scene: "main", tab: "home"))
        try await recorder.close()
        let status = await recorder.status
        #expect(status.refused == 1)
        #expect(status.lastRefusal?.code == .invalidEvent)
        #expect(try nonSnapshotEvents(path).map(\.type) == ["scene.open", "tab.select"])
    }

    @Test func reopeningARecorderStartsFromTheStateWhereTheLastOneLeftOff() async throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let first = try await Recorder(directory: path)
        first.record(.sceneOpen(scene: "main", kind: nil))
        first.record(.push(scene: "main", stack: "main", route: Route(screen: "recipe", id: "42")))
        try await first.close()
        let second = try await Recorder(directory: path)
        #expect(second.stateAtOpen.scenes["main"]?.stacks["main"] == [Route(screen: "recipe", id: "42")])
        #expect(second.recovery.isClean)
        try await second.close()
    }

    @Test func eventsRecordedAfterCloseAreCountedAndAFlushForThemThrows() async throws {
        let dir = try ScratchDirectory()
        let recorder = try await Recorder(directory: dir.path + "/log")
        recorder.record(.sceneOpen(scene: "main", kind: nil))
        let closed = try await recorder.close()
        recorder.record(.tabSelect(scene: "main", tab: "home"))
        await #expect { try await recorder.flush() } throws: { ($0 as? NavigationHistoryError)?.code == .readOnly }
        let status = await recorder.status
        #expect(status.droppedAfterClose == 1)
        #expect(status.durableSeq == closed)
        #expect(try nonSnapshotEvents(dir.path + "/log").map(\.type) == ["scene.open"])
    }

    @Test func aRecorderReleasedWithoutCloseWritesWhatItRecordedAndReleasesTheLog() async throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        do {
            let recorder = try await Recorder(directory: path, options: .init(durability: .batched(maxDelay: .seconds(60), maxEvents: 1000)))
            recorder.record(.sceneOpen(scene: "main", kind: nil))
            recorder.record(.tabSelect(scene: "main", tab: "home"))
        }
        var reopened: EventLog?
        for _ in 0..<200 where reopened == nil {
            reopened = try? EventLog(directory: path)
            if reopened == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let log = try #require(reopened, "the lock was released")
        #expect(log.nextSeq == 4)
        try log.close()
    }

    @Test func anEmptySessionIdIsRefused() async throws {
        let dir = try ScratchDirectory()
        await #expect(throws: NavigationHistoryError.self) { _ = try await Recorder(directory: dir.path + "/log", session: "") }
    }
}
