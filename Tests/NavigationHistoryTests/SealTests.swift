import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct SealTests {
    let helpers = EventLogTests()

    func segments(_ path: String) throws -> [Int] { try Opening.segmentNumbers(path) }

    /// The events of segment `number` of the log in `path`.
    func events(ofSegment number: Int, in path: String) throws -> [NavigationEvent] {
        try helpers.readStrictly(path + "/" + Opening.segmentName(number)).events
    }

    @Test func sealingPutsEveryEventSoFarInASealedSegmentAndTheNextStartsWithTheState() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let input = helpers.drafts(30, seed: 11)
        let log = try EventLog(directory: path, options: .init(durability: .none))
        try log.append(contentsOf: input)
        let stateBefore = log.state
        #expect(try log.seal())
        #expect(try segments(path) == [1, 2])
        let sealed = try events(ofSegment: 1, in: path)
        #expect(helpers.withoutSnapshots(sealed) == input, "the sealed segment holds every event appended")
        let next = try events(ofSegment: 2, in: path)
        #expect(next.count == 1 && next[0].seq == sealed.last!.seq + 1)
        guard case .snapshot(let state) = next.first?.action else { Issue.record("no opening snapshot"); return }
        #expect(state == stateBefore && log.state == stateBefore, "a seal changes no state")
        #expect(next[0].session == input.last!.session && next[0].timestamp >= input.last!.timestamp)
        #expect(log.durableSeq == log.nextSeq - 1, "a seal makes everything durable, even with durability none")

        let more = helpers.drafts(5, seed: 12)
        try log.append(contentsOf: more)
        try log.close()
        #expect(try segments(path) == [1, 2], "what follows a seal goes into the new segment")
        #expect(helpers.withoutSnapshots(try helpers.readStrictly(path).events) == input + more)
    }

    @Test func sealingALogWithNoEventsOrAnEmptySegmentIsANoOp() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let log = try EventLog(directory: path)
        #expect(try !log.seal())
        #expect(try segments(path).isEmpty)
        try log.append(contentsOf: helpers.drafts(3))
        #expect(try log.seal())
        #expect(try !log.seal(), "the new segment holds only its opening snapshot")
        #expect(try segments(path) == [1, 2])
        try log.close()
        let reopened = try EventLog(directory: path)
        #expect(try !reopened.seal(), "also after reopening")
        try reopened.append(contentsOf: helpers.drafts(1, seed: 5))
        #expect(try reopened.seal())
        #expect(try segments(path) == [1, 2, 3])
        try reopened.close()
    }

    /// A crash, as the fault hooks simulate it, at each step of the rotation a seal makes (a failed
    /// sync is not a crash: it cuts what was never durable, as `EventLogTests` hold).
    @Test(arguments: [EventLog.FaultPoint.segmentTemporaryWritten, .segmentRenamed, .segmentDirectorySynced])
    func aCrashAtEveryStepOfASealLosesNothingAndTheSealCanBeDoneAgain(point: EventLog.FaultPoint) throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let input = helpers.drafts(40, seed: 13)
        do {
            let log = try EventLog(directory: path, options: .init(durability: .none))
            try log.append(contentsOf: input)
            log.faultHook = { if $0 == point { throw NavigationHistoryError(code: .io, message: "simulated crash") } }
            #expect(throws: NavigationHistoryError.self) { try log.seal() }
            #expect(throws: NavigationHistoryError.self, "a failed seal makes the log read-only") {
                try log.append(contentsOf: input.prefix(1))
            }
        }
        // Dropped without a close, as a crash drops it.
        let log = try EventLog(directory: path, options: .init(durability: .none))
        #expect(helpers.withoutSnapshots(try helpers.readStrictly(path).events) == input, "nothing appended is lost, \(point)")
        // A seal stopped before its rename is undone on reopening, and done again; one stopped
        // after it is done: the new segment holds only its snapshot.
        let renamed = point != .segmentTemporaryWritten
        #expect(try segments(path) == (renamed ? [1, 2] : [1]))
        #expect(try log.seal() == !renamed)
        #expect(try segments(path) == [1, 2])
        #expect(helpers.withoutSnapshots(try events(ofSegment: 1, in: path)) == input, "every event is in the sealed segment")
        try log.close()
        #expect(helpers.withoutSnapshots(try helpers.readStrictly(path).events) == input)
    }

    @Test func aRecorderSealsWhatWasRecordedBeforeTheCallWithoutBlockingRecord() async throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let input = helpers.drafts(200, seed: 14)
        let recorder = try await Recorder(directory: path, options: .init(durability: .batched(maxDelay: .seconds(5), maxEvents: 100_000)),
                                          session: "s")
        for draft in input.prefix(150) { recorder.record(draft.action, at: draft.timestamp) }
        #expect(try await recorder.seal())
        let sealed = try events(ofSegment: 1, in: path)
        #expect(helpers.withoutSnapshots(sealed).map(\.action) == input.prefix(150).map(\.action))
        for draft in input.suffix(50) { recorder.record(draft.action, at: draft.timestamp) }
        #expect(try await recorder.seal())
        #expect(try await !recorder.seal())
        try await recorder.close()
        #expect(try segments(path) == [1, 2, 3])
        #expect(helpers.withoutSnapshots(try helpers.readStrictly(path).events).map(\.action) == input.map(\.action))
        await #expect(throws: NavigationHistoryError.self) { try await recorder.seal() }
    }
}
