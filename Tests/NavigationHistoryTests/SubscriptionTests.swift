import Foundation
@testable import NavigationHistory
import NavigationSimulation
import TestSupport
import Testing

/// Runs `body`, cancelling it after `seconds`: a subscription that never delivers then ends (its
/// iterator returns nil) and the test fails on what it did not get, instead of hanging.
func withDeadline<T: Sendable>(_ seconds: Int = 120, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let result { return result }
            group.cancelAll()
        }
        throw CancellationError()
    }
}

/// Appends `count` generated drafts to `log` (seeded by `seed`).
func appendGenerated(_ log: EventLog, _ count: Int, seed: UInt64) throws {
    var generator = LogGenerator(seed: seed, crashRate: 0)
    try log.append(contentsOf: (0..<count).map { _ in generator.next() })
}

@Suite struct SubscriptionTests {
    @Test func catchesUpThenFollowsAppendsAcrossRotationAndRetentionDeletion() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let path = scratch.path + "/app.navlog"
            let log = try EventLog(directory: path, options: .init(segmentSize: 8_000, durability: .none,
                                                                   retention: Retention(maxBytes: 40_000)))
            try appendGenerated(log, 600, seed: 1)
            let first = try #require(readAll(path).events.first?.seq)
            #expect(first > 1, "retention deleted the first segments")
            var iterator = LogFollower(path: path).events().makeAsyncIterator()
            var seen: [Int] = []
            while seen.last != log.nextSeq - 1, let event = try await iterator.next() { seen.append(event.seq) }
            #expect(seen.first == first)
            // Live: each batch rotates segments and makes retention delete old ones while followed.
            for round in 0..<12 {
                try appendGenerated(log, 97, seed: UInt64(10 + round))
                while seen.last != log.nextSeq - 1, let event = try await iterator.next() { seen.append(event.seq) }
            }
            #expect(seen == Array(first...(log.nextSeq - 1)))
            let onDisk = readAll(path).events
            #expect(onDisk.first!.seq > first, "segments were deleted while followed")
            try log.close()
        }
    }

    @Test func aStartOlderThanTheOldestRetainedSegmentFailsNamingTheFirstSeqStillThere() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let path = scratch.path + "/app.navlog"
            let log = try EventLog(directory: path, options: .init(segmentSize: 8_000, durability: .none,
                                                                   retention: Retention(maxBytes: 30_000)))
            try appendGenerated(log, 800, seed: 2)
            try log.close()
            let first = try #require(readAll(path).events.first?.seq)
            var iterator = LogFollower(path: path).events(from: .seq(first - 1)).makeAsyncIterator()
            do {
                _ = try await iterator.next()
                Issue.record("a deleted start was not refused")
            } catch let error as NavigationHistoryError {
                #expect(error.code == .notRetained)
                #expect(error.firstRetainedSeq == first)
                #expect(error.message.contains("the first seq still there is \(first)"))
            }
            var from = LogFollower(path: path).events(from: .seq(first + 5)).makeAsyncIterator()
            #expect(try await from.next()?.seq == first + 5)
        }
    }

    @Test func aWatcherStartedBeforeTheLogExistsSeesItsFirstEvents() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let path = scratch.path + "/later.navlog"
            async let followed: [Int] = {
                var seqs: [Int] = []
                for try await event in LogFollower(path: path).events() {
                    seqs.append(event.seq)
                    if seqs.count == 50 { break }
                }
                return seqs
            }()
            try await Task.sleep(for: .milliseconds(50))   // not needed for correctness: lets it start first
            let log = try EventLog(directory: path, options: .init(durability: .none))
            for round in 0..<7 {
                try appendGenerated(log, 7, seed: UInt64(round))   // with the first segment's snapshot: 50 events
            }
            #expect(try await followed == Array(1...50))
            try log.close()
        }
    }

    @Test func aLineBeingWrittenIsNeverHandedOverAtAnyOffset() throws {
        let scratch = try ScratchDirectory()
        let events = generatedEvents(3)
        let bytes = logBytes(events)
        let lengths = events.map { LineEncoder.encode($0).count }
        // Every offset into the second and third lines: the cursor hands over only whole lines.
        for cut in lengths[0]..<bytes.count {
            let path = scratch.file("torn-\(cut).jsonl", Array(bytes[..<cut]))
            let cursor = FollowCursor(path: path, beginning: .oldest)
            var seqs = try cursor.poll().map(\.seq)
            let complete = cut >= lengths[0] + lengths[1] ? 2 : 1
            #expect(seqs == Array(1...complete), "cut at \(cut)")
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data(bytes[cut...]))
            try handle.close()
            seqs += try cursor.poll().map(\.seq)
            #expect(seqs == [1, 2, 3], "cut at \(cut)")
        }
    }

    @Test func aTornTailWrittenWhileWatchedIsWaitedForThenHandedOverWhole() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let events = generatedEvents(40)
            let path = scratch.file("live.jsonl", [])
            async let followed: [NavigationEvent] = {
                var got: [NavigationEvent] = []
                for try await event in LogFollower(path: path).events() {
                    got.append(event)
                    if got.count == events.count { break }
                }
                return got
            }()
            let handle = try #require(FileHandle(forWritingAtPath: path))
            for event in events {
                // Each line in three writes, the follower woken by each.
                let line = LineEncoder.encode(event)
                for part in [line[..<7], line[7..<(line.count - 1)], line[(line.count - 1)...]] {
                    handle.write(Data(part))
                    await Task.yield()
                }
            }
            try handle.close()
            #expect(try await followed == events)
        }
    }

    @Test func aCompleteBadLastLineIsHeldUntilARepairCutsItOrALineFollowsIt() throws {
        let scratch = try ScratchDirectory()
        let events = generatedEvents(3)
        var bad = LineEncoder.encode(events[1])
        bad[bad.count - 4] ^= 0x01   // a crc digit: the line is complete, and fails its check
        let path = scratch.file("held.jsonl", LineEncoder.encode(events[0]) + bad)
        let cursor = FollowCursor(path: path, beginning: .oldest)
        #expect(try cursor.poll().map(\.seq) == [1])
        #expect(try cursor.poll().isEmpty, "held, as a crashed writer's tail")
        // A repair cuts it, and the writer goes on.
        let good = LineEncoder.encode(events[0])
        try FileSystem.write(path, at: 0, good, truncatingTo: good.count)
        try FileSystem.write(path, at: good.count, LineEncoder.encode(events[1]) + LineEncoder.encode(events[2]))
        #expect(try cursor.poll().map(\.seq) == [2, 3])

        let other = scratch.file("defect.jsonl", LineEncoder.encode(events[0]) + bad)
        let second = FollowCursor(path: other, beginning: .oldest)
        _ = try second.poll()
        try FileSystem.write(other, at: good.count + bad.count, LineEncoder.encode(events[2]))
        #expect(throws: NavigationHistoryError.self) { try second.poll() }
    }

    @Test func aLogCutUnderneathItsFollowerEndsTheSequenceWithAClearError() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let events = generatedEvents(10)
            let path = scratch.file("cut.jsonl", logBytes(events))
            var iterator = LogFollower(path: path).events().makeAsyncIterator()
            for _ in 0..<10 { _ = try await iterator.next() }
            let half = logBytes(Array(events[..<5]))
            try FileSystem.write(path, at: 0, half, truncatingTo: half.count)
            do {
                _ = try await iterator.next()
                Issue.record("a cut log was followed on")
            } catch let error as NavigationHistoryError {
                #expect(error.code == .rewritten)
                #expect(error.description.contains("cut.jsonl: the log changed underneath its reader"))
            }
        }
    }

    @Test func aRecordersSubscriptionCatchesUpThenTakesItsEventsUntilItCloses() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let path = scratch.path + "/app.navlog"
            let seed = try EventLog(directory: path, options: .init(segmentSize: 6_000))
            try appendGenerated(seed, 100, seed: 3)
            try seed.close()
            let recorder = try await Recorder(directory: path, options: .init(segmentSize: 6_000), session: "live")
            async let followed: [NavigationEvent] = {
                var got: [NavigationEvent] = []
                for try await event in recorder.events(from: .seq(90)) { got.append(event) }
                return got
            }()
            var generator = LogGenerator(seed: 4, crashRate: 0)
            for _ in 0..<300 { recorder.record(generator.next().action) }
            let last = try await recorder.close()
            let got = try await followed   // the sequence ends with the recorder
            #expect(got.map(\.seq) == Array(90...last))
            #expect(got == readAll(path).events.filter { $0.seq >= 90 })
        }
    }

    @Test func aSubscriberFallingFarBehindTheWriterReadsTheFilesAndMissesNothing() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let path = scratch.path + "/app.navlog"
            let log = try EventLog(directory: path, options: .init(segmentSize: 1 << 20, durability: .none))
            try appendGenerated(log, 10, seed: 7)
            var iterator = log.events().makeAsyncIterator()
            var seen: [Int] = []
            while seen.last != log.nextSeq - 1, let event = try await iterator.next() { seen.append(event.seq) }
            // Live now; then more events than its mailbox holds come while it does not read.
            for round in 0..<8 { try appendGenerated(log, Mailbox.capacity / 6, seed: UInt64(30 + round)) }
            while seen.last != log.nextSeq - 1, let event = try await iterator.next() { seen.append(event.seq) }
            #expect(seen == Array(1...(log.nextSeq - 1)))
            try log.close()
        }
    }

    @Test func anEventLogsStatefulSubscriptionFromTheEndFoldsAsTheLogDoes() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let path = scratch.path + "/app.navlog"
            let log = try EventLog(directory: path, options: .init(segmentSize: 10_000, durability: .everyEvent))
            try appendGenerated(log, 200, seed: 5)
            var iterator = log.events(from: .end).withStates().makeAsyncIterator()
            let from = log.nextSeq
            var generator = LogGenerator(seed: 6, crashRate: 0)
            var steps: [FollowedEvent] = []
            for _ in 0..<150 {
                try log.append(contentsOf: [generator.next()])
                // A step is handed over once it is durable: here, at once.
                while steps.last?.event.seq != log.nextSeq - 1, let step = try await iterator.next() { steps.append(step) }
            }
            #expect(steps.first?.event.seq == from)
            #expect(steps.last?.state == log.state)
            try log.close()
            #expect(try await iterator.next() == nil)
        }
    }
}
