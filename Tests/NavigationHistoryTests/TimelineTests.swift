import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct TimelineTests {
    /// Writes `count` generated events as a segmented log (or a single file) and returns the states
    /// after each event, folded from the start: the reference every seek is checked against.
    static func log(_ path: String, events count: Int, seed: UInt64, segmentSize: Int = 40_000) throws -> [NavigationState] {
        var generator = LogGenerator(seed: seed)
        try generator.writeLog(to: path, events: count, segmentSize: segmentSize)
        return try states(path)
    }

    /// A 1,200-event log file in `dir`, its index built at interval 100, and its events: for
    /// changing the log behind the index's back with ``rewrite(_:_:)``.
    static func indexedLog(in dir: ScratchDirectory, seed: UInt64) throws -> (path: String, events: [NavigationEvent]) {
        let path = dir.path + "/log.jsonl"
        _ = try log(path, events: 1200, seed: seed)
        _ = try Timeline(path: path, interval: 100)
        let events = try Self.events(path)
        return (path, events)
    }

    /// An indexed log whose line at seq 701, an entry's, changes behind the index's back, keeping
    /// its length: the first and last entries still name their lines, that one does not. Returns
    /// the log, its events now and the state after each.
    static func logWithStaleEntry(in dir: ScratchDirectory, seed: UInt64) throws
        -> (path: String, events: [NavigationEvent], states: [NavigationState]) {
        var (path, events) = try indexedLog(in: dir, seed: seed)
        events[700].timestamp.millisecondsSince1970 += 1
        try rewrite(path, events)
        return (path, events, try states(path))
    }

    /// Writes `events` as the log at `path`.
    static func rewrite(_ path: String, _ events: some Sequence<NavigationEvent>) throws {
        try Data(events.flatMap { LineEncoder.encode($0) }).write(to: URL(fileURLWithPath: path))
    }

    /// The log's events, as a reading in order hands them over.
    static func events(_ path: String) throws -> [NavigationEvent] {
        var events: [NavigationEvent] = []
        try LogReader(path: path).read { events.append($0) }
        return events
    }

    /// Where a seek to `target` may fold from at best, in a log of `events` whose index has an
    /// entry every `interval` events from the first: the entry before it, and the last event from
    /// there through `target` that sets the whole state (the entry when none does).
    static func foldStart(of target: Int, in events: [NavigationEvent], interval: Int) -> (entry: Int, start: Int) {
        let entry = (target - 1) / interval * interval + 1
        return (entry, events[(entry - 1)..<target].last(where: \.setsWholeState)?.seq ?? entry)
    }

    static func states(_ path: String) throws -> [NavigationState] {
        var states: [NavigationState] = []
        var state = NavigationState()
        try LogReader(path: path).read { event in
            Projection.fold(&state, event)
            states.append(state)
        }
        return states
    }

    @Test(arguments: [(1, 1), (7, 2), (64, 3), (1000, 4), (4096, 5)])
    func theStateAtAnySeqThroughTheIndexEqualsAFullFoldFromTheStart(interval: Int, seed: UInt64) throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let states = try Self.log(path, events: 3000, seed: seed)
        let timeline = try Timeline(path: path, interval: interval)
        #expect(timeline.firstSeq == 1 && timeline.lastSeq == 3000)
        var random = SeededRandom(seed: seed)
        for _ in 0..<120 {
            let seq = Int(random.next() % 3000) + 1
            try timeline.seek(to: seq)
            #expect(timeline.state == states[seq - 1], "seq \(seq), interval \(interval)")
            #expect(timeline.seq == seq && timeline.event?.seq == seq)
        }
        try timeline.seek(to: 0)
        #expect(timeline.state == NavigationState() && timeline.event == nil)
        #expect(throws: NavigationHistoryError.self) { try timeline.seek(to: 3001) }
    }

    @Test(.timeLimit(.minutes(1))) func anIndexFileFarLargerThanTheLogIsRebuiltNotLoaded() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let states = try Self.log(path, events: 500, seed: 4)
        let index = path + "/index.navidx"
        #expect(FileManager.default.createFile(atPath: index, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: index))
        try handle.truncate(atOffset: 64 << 30)   // sparse: 64 GiB that take no disk
        try handle.close()
        let timeline = try Timeline(path: path, interval: 100)
        try timeline.seek(to: 250)
        #expect(timeline.state == states[249])
        #expect(FileSystem.status(index)!.size < 1 << 20, "the index was rebuilt")
    }

    @Test func savingTheIndexRemovesTheTemporaryFilesOfProcessesNoLongerRunning() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        _ = try Self.log(path, events: 500, seed: 3)
        // A process that ran and ended: its pid is not running now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/sh")
        ended.arguments = ["-c", "exit 0"]
        try ended.run()
        ended.waitUntilExit()
        let stale = path + "/index.navidx.tmp.\(ended.processIdentifier)"
        let running = path + "/index.navidx.tmp.\(getppid())"
        for file in [stale, running] { #expect(FileManager.default.createFile(atPath: file, contents: Data("half".utf8))) }
        _ = try Timeline(path: path, interval: 100)
        #expect(FileManager.default.fileExists(atPath: path + "/index.navidx"))
        #expect(!FileManager.default.fileExists(atPath: stale), "a killed process's temporary file is removed")
        #expect(FileManager.default.fileExists(atPath: running), "a running process's is left to it")
    }

    @Test func steppingBackReadsOnlyFromTheNearestStateAndMatchesTheFullFold() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let states = try Self.log(path, events: 5000, seed: 6)
        let timeline = try Timeline(path: path, interval: 256)
        try timeline.seek(to: 4000)
        let readBefore = timeline.eventsRead
        for seq in stride(from: 3999, through: 3500, by: -1) {
            try timeline.stepBackward()
            #expect(timeline.seq == seq)
            #expect(timeline.state == states[seq - 1], "seq \(seq)")
        }
        // The seek to 4000 may have begun at a session's start after its entry: the events before
        // that, back to the entry, are read once more.
        #expect(timeline.eventsRead - readBefore <= 3 * 257 + 1, "each interval read once, never from the start")
        for seq in 3501...3800 {
            try timeline.stepForward()
            #expect(timeline.state == states[seq - 1], "seq \(seq)")
        }
        try timeline.seek(to: 1)
        #expect(try timeline.stepBackward() && timeline.seq == 0)
        #expect(try !timeline.stepBackward())
    }

    @Test func aReplayWhoseStepsSeekTheSameTimelineFoldsRightAndSoDoTheSeeks() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let states = try Self.log(path, events: 6000, seed: 9)
        let timeline = try Timeline(path: path, interval: 1000)
        var random = SeededRandom(seed: 9)
        var replayed = 0
        // Both readings decode on several cores at once: the seeks' parts and the replay's.
        try timeline.replay(from: 1, through: 6000) { step in
            #expect(step.after == states[step.event.seq - 1], "replayed seq \(step.event.seq)")
            replayed += 1
            guard step.event.seq % 500 == 0 else { return }
            let seq = Int(random.next() % 6000) + 1
            try timeline.seek(to: seq)
            #expect(timeline.state == states[seq - 1], "seq \(seq), sought at step \(step.event.seq)")
        }
        #expect(replayed == 6000)
        try timeline.seek(to: 4321)
        #expect(timeline.state == states[4320])
    }

    @Test func aJumpFoldsFromTheLastSessionStartBeforeItWhenOneFollowsTheEntry() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let states = try Self.log(path, events: 9000, seed: 31)
        let events = try Self.events(path)
        let timeline = try Timeline(path: path, interval: 4096)
        var random = SeededRandom(seed: 31)
        var fromSessionStart = 0
        for _ in 0..<200 {
            let target = Int(random.next() % 9000) + 1
            let read = timeline.eventsRead
            try timeline.seek(to: target)
            #expect(timeline.state == states[target - 1], "seq \(target)")
            #expect(timeline.seq == target && timeline.event == events[target - 1])
            // The entries are at 1, 4097 and 8193; each interval has many sessions.
            let (entry, start) = Self.foldStart(of: target, in: events, interval: 4096)
            #expect(timeline.eventsRead - read <= target - start + 1, "seq \(target): read from \(start) on at most")
            if start > entry { fromSessionStart += 1 }
        }
        #expect(fromSessionStart > 150, "most jumps began at a session's start")
        // Steps on either side of a session's start, from a jump's window and back past it.
        let start = try #require(events[5000...].first { $0.isSessionStart }).seq
        try timeline.seek(to: start + 2)
        for seq in stride(from: start + 1, through: start - 40, by: -1) {
            try timeline.stepBackward()
            #expect(timeline.seq == seq && timeline.state == states[seq - 1], "step back to \(seq)")
        }
        for seq in (start - 39)...(start + 60) {
            try timeline.stepForward()
            #expect(timeline.seq == seq && timeline.state == states[seq - 1], "step on to \(seq)")
        }
    }

    @Test func aJumpPastASegmentsStartFoldsFromItsSnapshot() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        // Segments of about 3,000 events, each begun with a snapshot.
        let states = try Self.log(path, events: 12_000, seed: 38, segmentSize: 500_000)
        let events = try Self.events(path)
        let source = try LogSource(path: path)
        let firsts = source.names.dropFirst().compactMap { source.event(file: $0, offset: 0) }
        #expect(firsts.count >= 3 && firsts.allSatisfy(\.setsWholeState))
        let timeline = try Timeline(path: path, interval: 4096)
        var crossed = 0
        for first in firsts {
            let (entry, _) = Self.foldStart(of: first.seq, in: events, interval: 4096)
            // Only where the segment before holds the entry, the interval going on into this one.
            guard entry < first.seq, firsts.allSatisfy({ $0.seq <= entry || $0.seq >= first.seq }) else { continue }
            for target in [first.seq, first.seq + 5] {
                let read = timeline.eventsRead
                try timeline.seek(to: target)
                #expect(timeline.state == states[target - 1], "seq \(target)")
                let start = events[(first.seq - 1)..<target].last(where: \.setsWholeState)!.seq
                #expect(timeline.eventsRead - read <= target - start + 1, "seq \(target): read from \(start) on at most")
            }
            crossed += 1
        }
        #expect(crossed >= 2)
    }

    @Test func theAnomaliesThroughASeqAreTheFullFoldsWhereverASeekBegins() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        _ = try Self.log(path, events: 6000, seed: 32)
        let generated = try Self.events(path)
        // A pop beyond the root after every 700th event, in the sessions between: anomalies in
        // some intervals of the index, none in others.
        var events: [NavigationEvent] = []
        for event in generated {
            events.append(event)
            if event.seq % 700 == 0, event.seq < 3000 || event.seq > 4500 {
                events.append(NavigationEvent(seq: 0, timestamp: event.timestamp, session: event.session,
                                              action: .pop(scene: "main", stack: "home", count: 999)))
            }
        }
        for k in events.indices { events[k].seq = k + 1 }
        try Self.rewrite(path, events)
        var state = NavigationState()
        var anomalies: [Projection.Anomaly] = []
        var counts: [Int] = []
        for event in events {
            if let anomaly = Projection.fold(&state, event) { anomalies.append(anomaly) }
            counts.append(anomalies.count)
        }
        #expect(anomalies.count >= 5)
        let timeline = try Timeline(path: path, interval: 1024)
        var random = SeededRandom(seed: 32)
        for _ in 0..<300 {
            let target = Int(random.next() % UInt64(events.count)) + 1
            try timeline.seek(to: target)
            #expect(timeline.anomalies == counts[target - 1], "seq \(target)")
            #expect(timeline.firstAnomalyThroughSeq == anomalies.first.flatMap { $0.seq <= target ? $0 : nil }, "seq \(target)")
        }
    }

    @Test func aReplayOfASessionReadsItAndTheSessionBeforeNotTheIntervalBefore() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let states = try Self.log(path, events: 9000, seed: 35)
        let events = try Self.events(path)
        let timeline = try Timeline(path: path, interval: 4096)
        // A session some way after the entry at 4097, and the one before it.
        let begin = try #require(events[6000...].first { $0.isSessionStart }).seq
        let end = (events[begin...].first { $0.isSessionStart }?.seq ?? 9001) - 1
        let before = try #require(events[..<(begin - 1)].last { $0.isSessionStart }).seq
        #expect(before > 4097)
        let read = timeline.eventsRead
        var steps: [ReplayStep] = []
        try timeline.replay(from: begin, through: end) { steps.append($0) }
        #expect(steps.map(\.event) == Array(events[(begin - 1)..<end]))
        #expect(steps.map(\.after) == Array(states[(begin - 1)..<end]))
        #expect(steps.first?.before == states[begin - 2], "the state before the session's start is the one before's")
        // From the session before's start through the event after the last replayed.
        #expect(timeline.eventsRead - read == end + 1 - before + 1)
    }

    @Test func aJumpWhoseSessionStartIsDamagedFoldsFromTheEntryAndLandsRight() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        _ = try Self.log(path, events: 3000, seed: 34)
        let events = try Self.events(path)
        let damaged = try #require(events[1500...].first { $0.isSessionStart })
        // Its crc's last digit changed: the line still begins as a session.start's.
        var lines = events.map { LineEncoder.encode($0) }
        let last = lines[damaged.seq - 1].count - 3
        lines[damaged.seq - 1][last] = lines[damaged.seq - 1][last] == 0x30 ? 0x31 : 0x30
        try Data(lines.joined()).write(to: URL(fileURLWithPath: path))
        var state = NavigationState()
        var states: [Int: NavigationState] = [:]
        try LogReader(path: path, mode: .salvage).read { event in
            Projection.fold(&state, event)
            states[event.seq] = state
        }
        let timeline = try Timeline(path: path, interval: 1000, mode: .salvage)
        for target in (damaged.seq + 1)...(damaged.seq + 5) {
            try timeline.seek(to: target)
            #expect(timeline.state == states[target], "seq \(target)")
        }
    }

    @Test func aJumpToALogInAnotherLayoutLandsRight() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let states = try Self.log(path, events: 3000, seed: 33)
        let events = try Self.events(path)
        // Spaces after every colon, and no crc: no line begins in the store's layout.
        let spaced = events.flatMap { LineEncoder.encode($0) }.split(separator: 0x0A).map { line in
            let text = String(decoding: line.dropLast(#","crc":"00000000"}"#.utf8.count), as: UTF8.self) + "}"
            return text.replacingOccurrences(of: "\":", with: "\": ") + "\n"
        }.joined()
        try Data(spaced.utf8).write(to: URL(fileURLWithPath: path))
        let timeline = try Timeline(path: path, interval: 1000)
        for target in [1, 999, 1000, 1001, 1777, 2999, 3000] {
            try timeline.seek(to: target)
            #expect(timeline.state == states[target - 1], "seq \(target)")
        }
    }

    @Test func seekingToATimeLandsAfterTheLastEventAtOrBeforeIt() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let states = try Self.log(path, events: 2000, seed: 8)
        let events = try Self.events(path)
        let timeline = try Timeline(path: path, interval: 100)
        for k in [0, 17, 999, 1500, 1999] {
            let time = events[k].timestamp
            let expected = events.lastIndex { $0.timestamp <= time }!
            try timeline.seek(toTime: time)
            #expect(timeline.seq == events[expected].seq, "time of event \(k)")
            #expect(timeline.state == states[expected])
        }
        try timeline.seek(toTime: Timestamp(millisecondsSince1970: 0))
        #expect(timeline.seq == 0)
    }

    @Test func aSeekToATimeFoldsFromTheLastSessionStartBeforeIt() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let states = try Self.log(path, events: 9000, seed: 36)
        let events = try Self.events(path)
        let timeline = try Timeline(path: path, interval: 4096)
        var random = SeededRandom(seed: 36)
        var fromSessionStart = 0
        for round in 0..<200 {
            // An event's own time, or a millisecond before the next event's.
            let k = Int(random.next() % 9000)
            var time = events[k].timestamp
            if round % 2 == 1, k + 1 < events.count { time = Timestamp(millisecondsSince1970: events[k + 1].timestamp.millisecondsSince1970 - 1) }
            let target = try #require(events.last { $0.timestamp <= time }).seq
            let read = timeline.eventsRead
            try timeline.seek(toTime: time)
            #expect(timeline.seq == target && timeline.state == states[target - 1], "time of event \(k + 1)")
            // The entries are at 1, 4097 and 8193, each at or before the time it is sought by.
            let (entry, start) = Self.foldStart(of: target, in: events, interval: 4096)
            // Through the event after the target, which ends the reading.
            #expect(timeline.eventsRead - read <= target - start + 2, "time of event \(k + 1): read from \(start) on at most")
            if start > entry { fromSessionStart += 1 }
        }
        #expect(fromSessionStart > 150, "most seeks began at a session's start")
    }

    @Test func aSeekToATimeStopsWhereAReadingFromTheEntryStopsWhenTheClockWentBack() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        _ = try Self.log(path, events: 6000, seed: 37)
        var events = try Self.events(path)
        // An event of the second interval happened, by its clock, a day after the log's last; the
        // sessions after it begin before that time.
        let late = 4500
        events[late - 1].timestamp.millisecondsSince1970 = events[events.count - 1].timestamp.millisecondsSince1970 + 86_400_000
        try Self.rewrite(path, events)
        let states = try Self.states(path)
        let timeline = try Timeline(path: path, interval: 4096)
        let start = try #require(events[(late + 10)...].first { $0.isSessionStart })
        for time in [start.timestamp, events[5900].timestamp] {
            // From the entry at 4097, a reading stops at the late event.
            try timeline.seek(toTime: time)
            #expect(timeline.seq == late - 1 && timeline.state == states[late - 2], "time \(time)")
        }
        // Before the late event, the session starts before the time are where seeks begin.
        let before = try #require(events[4200..<(late - 20)].last { $0.isSessionStart })
        let time = events[late - 10].timestamp
        let target = try #require(events[..<(late - 1)].last { $0.timestamp <= time }).seq
        let read = timeline.eventsRead
        try timeline.seek(toTime: time)
        #expect(timeline.seq == target && timeline.state == states[target - 1])
        #expect(timeline.eventsRead - read <= target - before.seq + 2)
    }

    @Test func theIndexIsExtendedAsTheLogGrowsAndRebuiltWhenDeletedDamagedOrStale() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let indexPath = path + "/index.navidx"
        var states = try Self.log(path, events: 2000, seed: 9)
        var timeline = try Timeline(path: path, interval: 128)
        #expect(timeline.indexRebuilt && FileManager.default.fileExists(atPath: indexPath))

        // Appends through the store: the index is extended, not rebuilt.
        let log = try EventLog(directory: path, options: .init(segmentSize: 40_000, durability: .none))
        var generator = LogGenerator(seed: 10)
        try log.append(contentsOf: (0..<1500).map { _ in generator.next() })
        try log.close()
        states = try Self.states(path)
        timeline = try Timeline(path: path, interval: 128)
        #expect(!timeline.indexRebuilt)
        #expect(timeline.lastSeq == states.count)
        for seq in [1, 1999, 2001, 2500, states.count] {
            try timeline.seek(to: seq)
            #expect(timeline.state == states[seq - 1], "after appends, seq \(seq)")
        }

        let good = try #require(FileManager.default.contents(atPath: indexPath))
        let damages: [(String, Data?)] = [
            ("deleted", nil),
            ("cut off", good.prefix(good.count / 2)),
            ("a flipped byte in the header", { var bad = good; bad[40] ^= 0x20; return bad }()),
            ("a flipped byte in the last session", { var bad = good; bad[bad.count - 2] ^= 0x20; return bad }()),
            ("garbage", Data("not an index\n".utf8)),
        ]
        for (what, bytes) in damages {
            try? FileManager.default.removeItem(atPath: indexPath)
            if let bytes { #expect(FileManager.default.createFile(atPath: indexPath, contents: bytes)) }
            let reopened = try Timeline(path: path, interval: 128)
            #expect(reopened.indexRebuilt, "\(what)")
            try reopened.seek(to: 2222)
            #expect(reopened.state == states[2221], "\(what)")
        }
        #expect(try !Timeline(path: path, interval: 128).indexRebuilt, "the rebuilt index was saved")
        #expect(try Timeline(path: path, interval: 64).indexRebuilt, "another interval rebuilds")

        // The log replaced by another one (a stale index): rebuilt, and never trusted blindly.
        try FileManager.default.removeItem(atPath: path + "/00000001.jsonl")
        try FileManager.default.removeItem(atPath: path + "/00000002.jsonl")
        let other = dir.path + "/other"
        _ = try Self.log(other, events: 3500, seed: 11)
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasSuffix(".jsonl") {
            try FileManager.default.removeItem(atPath: path + "/" + name)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: other) where name.hasSuffix(".jsonl") {
            try FileManager.default.copyItem(atPath: other + "/" + name, toPath: path + "/" + name)
        }
        let otherStates = try Self.states(other)
        let stale = try Timeline(path: path, interval: 64)
        #expect(stale.indexRebuilt)
        try stale.seek(to: 3000)
        #expect(stale.state == otherStates[2999])
    }

    @Test func aStaleEntryFoundDuringASeekRebuildsTheIndexAndTheSeekStillLandsRight() throws {
        let dir = try ScratchDirectory()
        let (path, events, states) = try Self.logWithStaleEntry(in: dir, seed: 12)
        let timeline = try Timeline(path: path, interval: 100)
        #expect(!timeline.indexRebuilt, "the first and last entries still match")
        try timeline.seek(to: 750)
        #expect(timeline.state == states[749])
        #expect(timeline.indexRebuilt, "the entry at seq 701 no longer named its line")
        // A jump that could begin at a session's start after that entry finds it out all the same.
        let start = try #require(events[701..<799].last { $0.isSessionStart }).seq
        var original = events
        original[700].timestamp.millisecondsSince1970 -= 1
        try Self.rewrite(path, original)
        try FileSystem.remove(path + ".navidx")
        _ = try Timeline(path: path, interval: 100)
        try Self.rewrite(path, events)
        let stale = try Timeline(path: path, interval: 100)
        #expect(!stale.indexRebuilt)
        try stale.seek(to: start + 1)
        #expect(stale.state == states[start])
        #expect(stale.indexRebuilt, "the entry at seq 701 no longer named its line")
    }

    @Test func aStaleEntryFoundDuringAReplayRebuildsTheIndexAndTheReplayFoldsRight() throws {
        let dir = try ScratchDirectory()
        let (path, events, states) = try Self.logWithStaleEntry(in: dir, seed: 13)
        let timeline = try Timeline(path: path, interval: 100)
        #expect(!timeline.indexRebuilt, "the first and last entries still match")
        var replayed: [(NavigationEvent, NavigationState, NavigationState)] = []
        try timeline.replay(from: 701, through: 730) { step in replayed.append((step.event, step.before, step.after)) }
        #expect(timeline.indexRebuilt, "the entry at seq 701 no longer named its line")
        #expect(replayed.map(\.0) == Array(events[700..<730]))
        #expect(replayed.map(\.1) == Array(states[699..<729]))
        #expect(replayed.map(\.2) == Array(states[700..<730]))
    }

    @Test func aReplayThatRebuildsTheIndexLeavesTheTimelineOnTheNewLog() throws {
        let dir = try ScratchDirectory()
        var (path, events) = try Self.indexedLog(in: dir, seed: 14)
        let timeline = try Timeline(path: path, interval: 100)
        #expect(!timeline.indexRebuilt)
        try timeline.seek(to: 750)   // its window holds the events from the entry at seq 701 on
        // Behind its back, the entry's line changes and so does a route in the window, each keeping
        // its length.
        events[700].timestamp.millisecondsSince1970 += 1
        func state(at seq: Int, of log: [NavigationEvent]) -> NavigationState {
            var state = NavigationState()
            for event in log.prefix(seq) { Projection.fold(&state, event) }
            return state
        }
        // A push whose route is still on its stack at seq 740, so that the change shows there.
        let rewritten = (702..<739).lazy.compactMap { k -> [NavigationEvent]? in
            guard case .push(let scene, let stack, var route) = events[k].action, let id = route.id, !id.isEmpty else { return nil }
            route.id = String(id.dropLast()) + (id.last == "x" ? "y" : "x")
            var log = events
            log[k].action = .push(scene: scene, stack: stack, route: route)
            return state(at: 740, of: log) != state(at: 740, of: events) ? log : nil
        }.first
        events = try #require(rewritten)
        try Self.rewrite(path, events)
        let states = try Self.states(path)
        try timeline.replay(from: 701, through: 705) { _ in }
        #expect(timeline.indexRebuilt)
        #expect(timeline.seq == 750 && timeline.state == states[749])
        try timeline.seek(to: 740)   // not from the window of the log before the change
        #expect(timeline.state == states[739])
    }

    @Test func aReplayFromAnEntryTheLogNoLongerReachesRebuildsTheIndex() throws {
        let dir = try ScratchDirectory()
        let (path, events) = try Self.indexedLog(in: dir, seed: 15)
        let timeline = try Timeline(path: path, interval: 100)
        #expect(!timeline.indexRebuilt)
        // The log is cut to its first 600 events behind the timeline's back.
        try Self.rewrite(path, events.prefix(600))
        var replayed = 0
        try timeline.replay(from: 905, through: 910) { _ in replayed += 1 }   // from the entry at 901
        #expect(timeline.indexRebuilt)
        #expect(timeline.lastSeq == 600)
        #expect(replayed == 0)
        #expect(throws: NavigationHistoryError.self) { try timeline.seek(to: 905) }
    }

    @Test func sessionsAreCleanUncleanOrOpenAndCountTheirEventsAndScenes() throws {
        let dir = try ScratchDirectory()
        let ts = Timestamp("2026-11-29T12:00:00.000Z")!
        let actions: [(String, NavigationAction)] = [
            ("a", .sessionStart(app: "1.0", launch: .cold, meta: nil)), ("a", .sceneOpen(scene: "main", kind: nil)),
            ("a", .sceneOpen(scene: "w2", kind: nil)), ("a", .sessionEnd(reason: nil)),
            ("b", .sessionStart(app: "1.1", launch: .cold, meta: nil)), ("b", .sceneOpen(scene: "main", kind: nil)),
            ("c", .sessionStart(app: nil, launch: .warm, meta: nil)), ("c", .sceneOpen(scene: "main", kind: nil)),
        ]
        let events = actions.enumerated().map { k, pair in
            NavigationEvent(seq: k + 1, timestamp: Timestamp(millisecondsSince1970: ts.millisecondsSince1970 + Int64(k) * 1000),
                            session: pair.0, action: pair.1)
        }
        let path = dir.file("log.jsonl", logBytes(events))
        let sessions = try Timeline(path: path).sessions
        #expect(sessions.map(\.id) == ["a", "b", "c"])
        #expect(sessions.map(\.ending) == [.clean, .unclean, .open])
        #expect(sessions.map(\.events) == [4, 2, 2])
        #expect(sessions.map(\.scenes) == [2, 1, 1])
        #expect(sessions.map(\.app) == ["1.0", "1.1", nil])
        #expect(sessions.map(\.firstSeq) == [1, 5, 7] && sessions.map(\.lastSeq) == [4, 6, 8])
    }

    @Test func theDiffNamesWhatEachStackLostAndGained() {
        let before = NavigationState(active: "main", scenes: ["main": SceneState(tab: "home", stacks: [
            "home": [Route(screen: "category", id: "d"), Route(screen: "recipe", id: "1"), Route(screen: "reviews", id: "1")],
        ])])
        var after = before
        after.scenes["main"]!.stacks["home"] = [Route(screen: "category", id: "d"), Route(screen: "recipe", id: "2")]
        after.scenes["main"]!.tab = "search"
        after.scenes["main"]!.sheets = [Sheet(id: "share", root: Route(screen: "share"), stack: [Route(screen: "contacts")])]
        after.scenes["w2"] = SceneState()
        after.active = "w2"
        let changes = StateDiff(from: before, to: after).changes
        #expect(changes == [
            .tab(scene: "main", from: "home", to: "search"),
            .stack(scene: "main", stack: "home", removed: [Route(screen: "reviews", id: "1"), Route(screen: "recipe", id: "1")],
                   added: [Route(screen: "recipe", id: "2")]),
            .sheetPresented(scene: "main", sheet: Sheet(id: "share", root: Route(screen: "share"), stack: [Route(screen: "contacts")])),
            .stack(scene: "main", stack: "share", removed: [], added: [Route(screen: "contacts")]),
            .sceneOpened(scene: "w2"),
            .activeScene(from: "main", to: "w2"),
        ])
        #expect(StateDiff(from: after, to: after).isEmpty)
    }

    @Test func anIndexBuiltSkippingDamageIsNotUsedInAStricterModeAndHugeIntervalsAreCapped() throws {
        let dir = try ScratchDirectory()
        var lines = generatedEvents(400, seed: 17).map { LineEncoder.encode($0) }
        lines[99][30] ^= 0x01
        let path = dir.file("log.jsonl", lines.flatMap { $0 })
        let salvaged = try Timeline(path: path, interval: 50, mode: .salvage)
        #expect(salvaged.report.defectCount == 1)
        #expect(throws: NavigationHistoryError.self, "the strict reading still sees the damage") {
            _ = try Timeline(path: path, interval: 50, mode: .tolerateTornTail)
        }
        let clean = dir.path + "/clean.jsonl"
        _ = try Self.log(clean, events: 300, seed: 18)
        let capped = try Timeline(path: clean, interval: Int.max)
        try capped.seek(to: 10)
        #expect(capped.seq == 10 && capped.interval == 1_000_000)
    }
}
