import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// The index file of version 4: a header, blobs, a table, meta and sessions, opened rather than
/// parsed; rebuilt when damaged, never misread; extended in place as the log grows.
@Suite struct SnapshotIndexFileTests {
    /// The states after each event of the log at `path` and its sessions, from a fold from the
    /// start and an index built in memory only: what every timeline is checked against.
    static func reference(_ path: String) throws -> (states: [NavigationState], sessions: [SessionSummary]) {
        (try TimelineTests.states(path), try Timeline(path: path, interval: 7, indexFile: false).sessions)
    }

    /// Expects a timeline on the log to land on `states` at `seqs` (and at its last seq).
    static func expectStates(_ timeline: Timeline, _ states: [NavigationState], at seqs: [Int], _ what: String) throws {
        #expect(timeline.lastSeq == (states.isEmpty ? nil : states.count), "\(what)")
        for seq in seqs + [states.count] where seq >= 1 && seq <= states.count {
            try timeline.seek(to: seq)
            #expect(timeline.state == states[seq - 1], "\(what), seq \(seq)")
        }
    }

    @Test(.timeLimit(.minutes(2))) func anIndexDamagedAtAnyByteOfItsHeaderOrTableIsRebuiltNeverMisread() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        _ = try TimelineTests.log(path, events: 700, seed: 21)
        let (states, sessions) = try Self.reference(path)
        let index = path + ".navidx"
        _ = try Timeline(path: path, interval: 64)
        let good = try #require(FileManager.default.contents(atPath: index))
        let header = try #require(Layout.Header(Array(good.prefix(Layout.headerSize))))
        #expect(header.entries == 11)
        let damaged = Array(0..<Layout.headerSize) + Array(header.tableOffset..<header.metaOffset)
        for (n, at) in damaged.enumerated() {
            var bad = good
            bad[at] ^= n % 2 == 0 ? 0x01 : 0xA5
            try bad.write(to: URL(fileURLWithPath: index))
            #expect(SnapshotIndex.open(index, atMost: 1 << 20) == nil, "byte \(at)")
            let timeline = try Timeline(path: path, interval: 64)
            #expect(timeline.indexRebuilt, "byte \(at)")
            try Self.expectStates(timeline, states, at: [1, 64 + (at % 64), 640 + at % 60], "byte \(at)")
        }
        // The last rebuild saved the index again, whole.
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == good)
        #expect(try Timeline(path: path, interval: 64).sessions == sessions)
    }

    @Test func aDamagedBlobMetaOrSessionIsFoundWhenUsedAndTheIndexRebuilt() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        _ = try TimelineTests.log(path, events: 700, seed: 22)
        let (states, sessions) = try Self.reference(path)
        let index = path + ".navidx"
        let built = try Timeline(path: path, interval: 64)
        #expect(built.sessions == sessions)
        let good = try #require(FileManager.default.contents(atPath: index))
        let opened = try #require(SnapshotIndex.open(index, atMost: 1 << 20))
        let header = try #require(Layout.Header(Array(good.prefix(Layout.headerSize))))
        // A byte of each entry's blob: a seek from that entry rebuilds the index and lands right.
        // A seek that begins after the entry, at an event that replaces the whole state, does not
        // use the blob.
        var events: [NavigationEvent] = []
        try LogReader(path: path).read { events.append($0) }
        var rebuilt = 0
        for entry in opened.entries {
            var bad = good
            bad[entry.blobOffset + entry.blobLength / 2] ^= 0x04
            try bad.write(to: URL(fileURLWithPath: index))
            let timeline = try Timeline(path: path, interval: 64)
            try timeline.seek(to: entry.seq + 3)
            #expect(timeline.state == states[entry.seq + 2], "blob of the entry at \(entry.seq)")
            let beganAfterEntry = events[(entry.seq - 1)...(entry.seq + 2)].contains(where: \.setsWholeState)
            #expect(timeline.indexRebuilt || beganAfterEntry, "blob of the entry at \(entry.seq)")
            if timeline.indexRebuilt { rebuilt += 1 }
        }
        #expect(rebuilt >= opened.entries.count / 2, "most seeks used their entry's blob")
        // Meta and the last sessions are read at opening; the sessions before, when listed.
        let regions = [("meta", header.metaOffset), ("a session before the last entry", header.sessionsOffset + 1),
                       ("a session after it", header.fileSize - 3)]
        for (what, at) in regions {
            var bad = good
            bad[at] ^= 0x10
            try bad.write(to: URL(fileURLWithPath: index))
            let timeline = try Timeline(path: path, interval: 64)
            #expect(timeline.sessions == sessions, "\(what)")
            try Self.expectStates(timeline, states, at: [100, 500], what)
            #expect(timeline.indexRebuilt, "\(what)")
        }
    }

    @Test(arguments: [0, 1, 4096, 8192, 12288, 8193])
    func aLogOfZeroOneOrManyIntervalsOfEventsSeeksRightThroughItsIndex(events: Int) throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        if events == 0 {
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        } else {
            _ = try TimelineTests.log(path, events: events, seed: UInt64(30 + events))
        }
        let (states, sessions) = try Self.reference(path)
        let first = try Timeline(path: path)
        #expect(first.indexRebuilt)
        #expect(first.firstSeq == (events == 0 ? nil : 1) && first.lastSeq == (events == 0 ? nil : events))
        let boundaries = stride(from: 1, through: events, by: 4096).flatMap { [$0 - 1, $0, $0 + 1, $0 + 4095] }
        try Self.expectStates(first, states, at: boundaries, "built")
        #expect(first.sessions == sessions)
        let again = try Timeline(path: path)
        #expect(again.indexRebuilt == (events == 0), "an index with entries is opened, not rebuilt")
        try Self.expectStates(again, states, at: boundaries.reversed(), "opened")
        #expect(again.sessions == sessions)
    }

    @Test func theIndexIsExtendedInPlaceAcrossAppendsToTheStore() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        _ = try TimelineTests.log(path, events: 1000, seed: 40, segmentSize: 30_000)
        let index = path + "/index.navidx"
        #expect(try Timeline(path: path, interval: 128).indexRebuilt)
        let inode = try FileManager.default.attributesOfItem(atPath: index)[.systemFileNumber] as? Int
        var generator = LogGenerator(seed: 41)
        var random = SeededRandom(seed: 42)
        // Rounds of a few events (no new entry), of about an interval, and of many.
        for (round, count) in [3, 1, 130, 500, 2, 900].enumerated() {
            let log = try EventLog(directory: path, options: .init(segmentSize: 30_000, durability: .none))
            try log.append(contentsOf: (0..<count).map { _ in generator.next() })
            try log.close()
            let (states, sessions) = try Self.reference(path)
            let timeline = try Timeline(path: path, interval: 128)
            #expect(!timeline.indexRebuilt, "round \(round)")
            #expect(timeline.indexSaveError == nil)
            let seqs = (0..<20).map { _ in Int(random.next() % UInt64(states.count)) + 1 }
            try Self.expectStates(timeline, states, at: seqs, "round \(round)")
            #expect(timeline.sessions == sessions, "round \(round)")
            let reopened = try Timeline(path: path, interval: 128)
            #expect(!reopened.indexRebuilt, "round \(round), reopened")
            for id in Set(sessions.map(\.id)) {
                #expect(reopened.sessions(withID: id) == sessions.filter { $0.id == id }, "round \(round), session \(id)")
            }
            #expect(reopened.sessions == sessions, "round \(round), reopened")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: index)[.systemFileNumber] as? Int == inode, "extended in place")
    }

    @Test func theIndexOfASingleFileIsExtendedAsTheFileGrows() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let events = generatedEvents(3000, seed: 43)
        var written = 0
        var random = SeededRandom(seed: 44)
        for (round, upTo) in [1, 2, 300, 301, 1500, 3000].enumerated() {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: written == 0 ? dir.file("log.jsonl", []) : path))
            try handle.seekToEnd()
            try handle.write(contentsOf: logBytes(Array(events[written..<upTo])))
            try handle.close()
            written = upTo
            let (states, sessions) = try Self.reference(path)
            let timeline = try Timeline(path: path, interval: 100)
            #expect(timeline.indexRebuilt == (round == 0), "round \(round)")
            let seqs = (0..<15).map { _ in Int(random.next() % UInt64(states.count)) + 1 }
            try Self.expectStates(timeline, states, at: seqs, "round \(round)")
            #expect(timeline.sessions == sessions, "round \(round)")
        }
    }

    @Test func aCrashWhileExtendingLeadsToARebuildNeverAWrongState() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        let events = generatedEvents(2000, seed: 45)
        _ = dir.file("log.jsonl", logBytes(Array(events[..<1000])))
        let index = path + ".navidx"
        _ = try Timeline(path: path, interval: 64)
        let before = try #require(FileManager.default.contents(atPath: index))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: logBytes(Array(events[1000...])))
        try handle.close()
        let (states, _) = try Self.reference(path)
        #expect(try !Timeline(path: path, interval: 64).indexRebuilt)
        let after = try #require(FileManager.default.contents(atPath: index))
        #expect(after.count > before.count && after.prefix(Layout.headerSize) != before.prefix(Layout.headerSize))
        // What a crash may leave: the new data under the old header (stopped before the header),
        // or the new header over data only partly written (written out of order, no sync).
        let oldHeaderTableOffset = try #require(Layout.Header(Array(before.prefix(Layout.headerSize)))).tableOffset
        let torn: [(String, Data)] = [
            ("new data, old header", before.prefix(Layout.headerSize) + after.dropFirst(Layout.headerSize)),
            ("new header, old data", after.prefix(Layout.headerSize) + before.dropFirst(Layout.headerSize)),
            ("new header, data cut", after.prefix(Layout.headerSize) + after.dropFirst(Layout.headerSize).prefix(oldHeaderTableOffset)),
            ("new header and blobs, old table", after.prefix(oldHeaderTableOffset + 500) + before.dropFirst(oldHeaderTableOffset + 500)),
        ]
        for (what, bytes) in torn {
            try bytes.write(to: URL(fileURLWithPath: index))
            let timeline = try Timeline(path: path, interval: 64)
            try Self.expectStates(timeline, states, at: [5, 999, 1001, 1500, 1999], what)
            #expect(timeline.indexRebuilt, "\(what)")
        }
    }

    @Test func aSessionIsFoundByItsIdReadingOnlyItsLinesAndADamagedIdTableIsRebuilt() throws {
        let dir = try ScratchDirectory()
        // Ids used again and again, as a device whose id source was reset makes them.
        let events = generatedEvents(3000, seed: 46).map { event in
            var event = event
            event.session = "device-" + String(event.session.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % 4)
            return event
        }
        let path = dir.file("log.jsonl", logBytes(events))
        let (states, sessions) = try Self.reference(path)
        #expect(Set(sessions.map(\.id)).count == 4 && sessions.count > 8)
        _ = try Timeline(path: path, interval: 100)
        let timeline = try Timeline(path: path, interval: 100)
        #expect(!timeline.indexRebuilt)
        for id in Set(sessions.map(\.id)) + ["no-such-session"] {
            #expect(timeline.sessions(withID: id) == sessions.filter { $0.id == id }, "\(id)")
        }
        let index = path + ".navidx"
        let good = try #require(FileManager.default.contents(atPath: index))
        let header = try #require(Layout.Header(Array(good.prefix(Layout.headerSize))))
        for at in [header.idsOffset, header.idsOffset + 5, header.tailOffset - 1] {
            var bad = good
            bad[at] ^= 0x40
            try bad.write(to: URL(fileURLWithPath: index))
            let damaged = try Timeline(path: path, interval: 100)
            #expect(damaged.sessions(withID: "device-1") == sessions.filter { $0.id == "device-1" }, "ids byte \(at)")
            #expect(damaged.indexRebuilt, "ids byte \(at)")
            try Self.expectStates(damaged, states, at: [1500], "ids byte \(at)")
        }
    }
}
