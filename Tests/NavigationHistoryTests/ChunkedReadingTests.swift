import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// Reading a log in chunks at once: where chunks begin and end, and what each is handed.
@Suite struct ChunkedReadingTests {
    /// The events each chunk was handed, with whether each ends the chunk.
    static func chunks(_ path: String, count: Int, splitBytes: Int = LogReader.splitBytes, slowingFirst: Bool = false)
        throws -> (parts: [[(event: NavigationEvent, endsChunk: Bool)]], report: ReadReport)? {
        try chunksWithPositions(path, count: count, splitBytes: splitBytes, slowingFirst: slowingFirst).map { read in
            (read.parts.map { $0.map { ($0.event, $0.endsChunk) } }, read.report)
        }
    }

    /// The events each chunk was handed, with their positions as a reading in order numbers them;
    /// `slowingFirst` makes the first chunk's thread take 20 µs an event until the others have made
    /// two chunks more than `count` of what it had left (or for 10 s): so they do, however busy the
    /// machine is.
    static func chunksWithPositions(_ path: String, count: Int, splitBytes: Int = LogReader.splitBytes, slowingFirst: Bool = false)
        throws -> (parts: [[(event: NavigationEvent, position: EventPosition, endsChunk: Bool)]], report: ReadReport)? {
        typealias Part = (slow: Bool, events: [(event: NavigationEvent, position: EventPosition, endsChunk: Bool)])
        let (files, segmented) = try LogFiles.resolve(path)
        let made = Tally()
        let slowUntil = ContinuousClock.now + .seconds(10)
        let read = try LogReader(path: path).readInChunks(files: files, segmented: segmented, count: count, minimumBytes: 0,
                                                          splitBytes: splitBytes, make: { beginsLog in
            made.add()
            return Part(slow: slowingFirst && beginsLog, events: [])
        }) { part, event, position, endsChunk in
            if part.slow, made.count < count + 2, ContinuousClock.now < slowUntil { usleep(20) }
            part.events.append((event, position, endsChunk))
        }
        return read.map { read in
            (read.chunks.map { chunk in chunk.part.events.map { ($0.event, chunk.position($0.position), $0.endsChunk) } }, read.report)
        }
    }

    @Test(arguments: [2, 3, 8])
    func chunksBeginAtASessionStartAndEndAtTheNextChunksFirstEvent(count: Int) throws {
        let directory = try ScratchDirectory()
        let events = generatedEvents(3000, seed: 7)
        let path = directory.file("log.jsonl", logBytes(events))
        let read = try #require(try Self.chunks(path, count: count))
        // A range may have no session start in its first quarter: then it joins the one before.
        #expect(read.parts.count > count / 2 && read.parts.count <= count)
        try Self.expectReadAsInOrder(read, events: events, path: path)
    }

    @Test(arguments: [2, 3], [false, true])
    func aThreadDoneWithItsChunkReadsTheRestOfAnotherFromASessionStart(count: Int, segmented: Bool) throws {
        // The first chunk's thread is slowed: the others, done long before, ask it for part of
        // what it has left, again and again, and read it as chunks of their own.
        let directory = try ScratchDirectory()
        let events = generatedEvents(6000, seed: 5)
        let path = segmented ? directory.path + "/log" : directory.file("log.jsonl", logBytes(events))
        if segmented {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for (k, start) in stride(from: 0, to: events.count, by: 700).enumerated() {
                _ = directory.file(String(format: "log/%08d.jsonl", k + 1), logBytes(Array(events[start..<min(start + 700, events.count)])))
            }
        }
        let read = try #require(try Self.chunks(path, count: count, splitBytes: 16 << 10, slowingFirst: true))
        #expect(read.parts.count >= count + 2, "\(read.parts.map(\.count))")
        try Self.expectReadAsInOrder(read, events: events, path: path)
        // Each split gives away the later half of what is left: the first chunk ends within the
        // first half of the log, however many times it was asked.
        #expect(read.parts[0].count < events.count / 2)
    }

    /// Expects the chunks to be handed every event of the log once, but for the event beginning
    /// each chunk after the first, which ends the chunk before; and the report of a reading in order.
    static func expectReadAsInOrder(_ read: (parts: [[(event: NavigationEvent, endsChunk: Bool)]], report: ReadReport),
                                    events: [NavigationEvent], path: String) throws {
        var joined: [NavigationEvent] = []
        for (k, part) in read.parts.enumerated() {
            if k > 0 {
                #expect(part.first?.event.isSessionStart == true)
                #expect(read.parts[k - 1].last?.event == part.first?.event)
            }
            #expect(part.dropLast().allSatisfy { !$0.endsChunk })
            #expect(part.last?.endsChunk == (k < read.parts.count - 1))
            joined += part.dropLast(k < read.parts.count - 1 ? 1 : 0).map(\.event)
        }
        #expect(joined == events)
        let inOrder = try LogReader(path: path).read { _ in }
        #expect(read.report.events == inOrder.events)
        #expect(read.report.sessions == inOrder.sessions)
        #expect(read.report.bytes == inOrder.bytes)
        #expect(read.report.segments == inOrder.segments)
        #expect(read.report.firstSeq == events.first?.seq && read.report.lastSeq == events.last?.seq)
    }

    @Test(arguments: [2, 5])
    func sessionIdsSeenByManyChunksAreCountedOnce(count: Int) throws {
        // Five ids, used again and again: every chunk sees most of them.
        var ids: [String: String] = [:]
        let events = generatedEvents(3000, seed: 7).map { event in
            var event = event
            event.session = ids[event.session] ?? { ids[event.session] = "s\(ids.count % 5)"; return ids[event.session]! }()
            return event
        }
        let directory = try ScratchDirectory()
        let path = directory.file("log.jsonl", logBytes(events))
        let read = try #require(try Self.chunks(path, count: count))
        #expect(read.parts.count > 1)
        #expect(read.report.sessions == 5)
        #expect(try LogReader(path: path).read { _ in }.sessions == 5)
    }

    @Test func aSessionIdUsedAgainChunksLaterIsCountedOnce() throws {
        // The last session takes the first one's id: the chunks between never see it.
        var events = generatedEvents(3000, seed: 7)
        let first = events[0].session, last = events[events.count - 1].session
        for k in events.indices where events[k].session == last { events[k].session = first }
        let directory = try ScratchDirectory()
        let path = directory.file("log.jsonl", logBytes(events))
        let read = try #require(try Self.chunks(path, count: 4))
        #expect(read.parts.count >= 3)
        #expect(!read.parts[1].contains { $0.event.session == first })
        #expect(read.report.sessions == Set(events.map(\.session)).count)
    }

    @Test func positionsAreNumberedAsInOrderAcrossSegments() throws {
        let directory = try ScratchDirectory()
        var generator = LogGenerator(seed: 3)
        try generator.writeLog(to: directory.path + "/log", events: 4000, segmentSize: 64 << 10, snapshotInterval: 500)
        var inOrder: [EventPosition] = []
        let source = try LogSource(path: directory.path + "/log")
        _ = try LogReader(path: source.path).scan(files: source.files, segmented: true) { _, position in
            inOrder.append(position)
            return true
        }
        let read = try #require(try Self.chunksWithPositions(directory.path + "/log", count: 5))
        #expect(read.parts.count == 5)
        let positions = read.parts.enumerated().flatMap { k, part in part.dropLast(k < read.parts.count - 1 ? 1 : 0).map(\.position) }
        #expect(positions == inOrder)
        #expect(Set(positions.map(\.file)).count > 5, "the log has many segments")
    }

    @Test(arguments: [(2, false, 256), (3, true, 256), (6, false, 1), (4, true, 1)])
    func anIndexBuiltInChunksIsTheIndexBuiltInOrder(count: Int, segmented: Bool, interval: Int) throws {
        let directory = try ScratchDirectory()
        // Pops of more than a stack holds, here and there: anomalies, counted across chunks.
        let events = generatedEvents(6000, seed: 11).map { event in
            guard event.seq % 997 == 0 else { return event }
            var anomalous = event
            anomalous.action = .pop(scene: "main", stack: "nowhere", count: 3)
            return anomalous
        }
        let path: String
        if segmented {
            path = directory.path + "/log"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for (k, start) in stride(from: 0, to: events.count, by: 1000).enumerated() {
                let segment = events[start..<min(start + 1000, events.count)].flatMap { LineEncoder.encode($0) }
                _ = directory.file(String(format: "log/%08d.jsonl", k + 1), segment)
            }
        } else {
            path = directory.file("log.jsonl", logBytes(events))
        }
        let source = try LogSource(path: path)
        // At interval 1 the event that begins each chunk has an entry too.
        let inOrder = try SnapshotIndex.updated(source, interval: interval, save: false, threads: 1)
        let chunked = try SnapshotIndex.updated(source, interval: interval, save: false, threads: count, chunkedFrom: 0)
        #expect(inOrder.chunks == 1)
        #expect(chunked.chunks == count)
        Self.expectSameIndex(chunked, inOrder)
        // Chunks split for threads done early, as they come.
        let split = try SnapshotIndex.updated(source, interval: interval, save: false, threads: count, chunkedFrom: 0, splitBytes: 8 << 10)
        #expect(split.chunks >= count)
        Self.expectSameIndex(split, inOrder)
    }

    /// Expects an index built in chunks to be the one built in order, to the bytes.
    static func expectSameIndex(_ chunked: SnapshotIndex.Update, _ inOrder: SnapshotIndex.Update) {
        #expect(inOrder.index.firstAnomaly != nil && inOrder.index.entries.last!.anomaliesBefore > 2)
        // The first entry and session that differ, rather than thousands of them.
        #expect(chunked.index.entries.count == inOrder.index.entries.count)
        #expect(zip(chunked.index.entries, inOrder.index.entries).first { $0 != $1 }.map(\.0) == nil)
        let (chunkedSessions, inOrderSessions) = (chunked.index.sessions() ?? [], inOrder.index.sessions() ?? [])
        #expect(chunkedSessions.count == inOrderSessions.count)
        #expect(zip(chunkedSessions, inOrderSessions).first { $0 != $1 }.map(\.0) == nil)
        #expect(chunked.index.firstAnomaly == inOrder.index.firstAnomaly)
        #expect(chunked.report.events == inOrder.report.events && chunked.report.bytes == inOrder.report.bytes)
        let sameBytes = chunked.index.encoded() == inOrder.index.encoded()
        #expect(sameBytes, "the index files are the same bytes")
    }

    @Test func anIndexWhoseFirstLineIsSkippedInSalvageIsBuiltAsInOrder() throws {
        // Store segments must carry a crc: in salvage the first line, without one, is skipped, and
        // the entries fall every interval from the second event on.
        let directory = try ScratchDirectory()
        let path = directory.path + "/log"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var lines = generatedEvents(4000, seed: 13).map { String(decoding: LineEncoder.encode($0), as: UTF8.self) }
        lines[0] = lines[0].replacing(/,"crc":"[0-9a-f]{8}"\}/, with: "}")
        _ = directory.file("log/00000001.jsonl", Array(lines.joined().utf8))
        let source = try LogSource(path: path)
        let inOrder = try SnapshotIndex.updated(source, interval: 100, mode: .salvage, save: false, threads: 1)
        let chunked = try SnapshotIndex.updated(source, interval: 100, mode: .salvage, save: false, threads: 3, chunkedFrom: 0)
        #expect(inOrder.report.defects.map(\.line) == [1])
        #expect(inOrder.index.entries.first?.seq == 2)
        #expect(chunked.index.entries.map(\.seq) == inOrder.index.entries.map(\.seq))
        let sameBytes = chunked.index.encoded() == inOrder.index.encoded()
        #expect(sameBytes, "the index files are the same bytes")
    }

    @Test func aLogWithOneSessionIsLeftToAReadingInOrder() throws {
        let directory = try ScratchDirectory()
        let events = generatedEvents(3000, seed: 7).enumerated().map { k, event in
            var event = event
            if k > 0, event.isSessionStart { event.action = .sessionEnd(reason: nil) }
            return event
        }
        let path = directory.file("log.jsonl", logBytes(events))
        #expect(try Self.chunks(path, count: 4) == nil)
        #expect(try Self.chunks(directory.file("empty.jsonl", []), count: 4) == nil)
    }

    @Test func aRangeWhoseSessionStartComesLateJoinsTheRangeBefore() throws {
        // Session starts only in the first tenth of the log and in its last third: of four ranges,
        // the second has none, and the third has one only past its first quarter.
        let directory = try ScratchDirectory()
        let events = generatedEvents(4000, seed: 7).enumerated().map { k, event in
            var event = event
            if k > 400, k < 2700, event.isSessionStart { event.action = .sessionEnd(reason: nil) }
            return event
        }
        let path = directory.file("log.jsonl", logBytes(events))
        let read = try #require(try Self.chunks(path, count: 4))
        #expect(read.parts.count == 2)
        #expect(read.parts[1].first!.event.seq > 2700)
        #expect(read.parts[0].count + read.parts[1].count - 1 == events.count)
    }

    /// A log with snapshots every 250 events, the one after event 2600 wrong when asked, and events
    /// that fit no state (a pop in a scene never opened) every 97.
    static func logWithSnapshots(wrongSnapshot: Bool) -> [NavigationEvent] {
        var state = NavigationState()
        var events: [NavigationEvent] = []
        for (k, generated) in generatedEvents(4000, seed: 23).enumerated() {
            var event = generated
            if k % 97 == 50 { event.action = .pop(scene: "ghost", stack: "x", count: 1) }
            Projection.fold(&state, event)
            events.append(event)
            if k % 250 == 100 {
                var snapshot = state
                if wrongSnapshot, k == 2600 { snapshot.scenes["ghost"] = SceneState() }
                events.append(NavigationEvent(seq: 0, timestamp: event.timestamp, session: event.session, action: .snapshot(state: snapshot)))
            }
        }
        for k in events.indices { events[k].seq = k + 1 }
        return events
    }

    /// The report of a verification in chunks, and of a reading in order, snapshots checked.
    static func verified(_ path: String, mode: RecoveryMode, threads: Int) throws -> (chunked: ReadReport?, inOrder: ReadReport) {
        var reader = LogReader(path: path, mode: mode, threads: threads)
        reader.checksSnapshots = true
        let chunked = try reader.verifiedInChunks(files: [path], segmented: false, minimumBytes: 0)
        return (chunked, try reader.scan { _ in })
    }

    @Test(arguments: [2, 3], [RecoveryMode.tolerateTornTail, .salvage])
    func aVerificationInChunksReportsTheSnapshotsAndAnomaliesAReadingInOrderFinds(threads: Int, mode: RecoveryMode) throws {
        let directory = try ScratchDirectory()
        let path = directory.file("log.jsonl", logBytes(Self.logWithSnapshots(wrongSnapshot: false)))
        let chunks = try #require(try LogReader(path: path).readInChunks(files: [path], segmented: false, count: threads, minimumBytes: 0,
                                                                         make: { _ in () }, { _, _, _, _ in }))
        #expect(chunks.chunks.count > 1)
        let (chunked, inOrder) = try Self.verified(path, mode: mode, threads: threads)
        let report = try #require(chunked)
        #expect(inOrder.isClean && inOrder.anomalies > 30, "\(inOrder)")
        #expect(String(describing: report) == String(describing: inOrder))
    }

    @Test func aWrongSnapshotIsLeftToAReadingInOrderButInSalvage() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("log.jsonl", logBytes(Self.logWithSnapshots(wrongSnapshot: true)))
        let stopping = try Self.verified(path, mode: .tolerateTornTail, threads: 2)
        #expect(stopping.chunked == nil)
        #expect(stopping.inOrder.defects.map(\.kind) == [.snapshotMismatch])
        var reader = LogReader(path: path, threads: 2)
        reader.checksSnapshots = true
        #expect(try String(describing: reader.verify()) == String(describing: stopping.inOrder))
        let salvaged = try Self.verified(path, mode: .salvage, threads: 2)
        #expect(salvaged.inOrder.defects.map(\.kind) == [.snapshotMismatch])
        #expect(String(describing: try #require(salvaged.chunked)) == String(describing: salvaged.inOrder))
    }

    @Test func aChunkThatMeetsADefectLeavesTheLogToAReadingInOrder() throws {
        let directory = try ScratchDirectory()
        var events = generatedEvents(3000, seed: 7)
        events.remove(at: 2500)   // a seq gap in the last chunk
        let path = directory.file("log.jsonl", logBytes(events))
        #expect(try Self.chunks(path, count: 2) == nil)
    }
}

/// A count that several threads add to.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
}
