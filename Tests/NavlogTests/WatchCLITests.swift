import Foundation
@testable import NavigationHistory
import NavigationSimulation
import TestSupport
import Testing

/// The seqs of `navlog watch`'s text lines (its "session" lines left out).
private func seqs(_ lines: [String]) -> [Int] {
    lines.compactMap { line in line.hasPrefix("session ") ? nil : Int(line.prefix { $0 != " " }) }
}

@Suite struct WatchCLITests {
    @Test func watchCatchesUpThenPrintsAppendsAcrossRotationAndRetentionAndExitsZeroOnCtrlC() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/app.navlog"
        let log = try EventLog(directory: path, options: .init(segmentSize: 8_000, durability: .none,
                                                               retention: Retention(maxBytes: 40_000)))
        try appendGenerated(log, 300, seed: 1)
        let first = try #require(readAll(path).events.first?.seq)
        let watch = try WatchProcess([path])
        var last = log.nextSeq - 1
        #expect(seqs(watch.lines { seqs($0).last == last }) == Array(first...last))
        for round in 0..<8 {
            try appendGenerated(log, 83, seed: UInt64(20 + round))   // rotates, and retention deletes segments
            last = log.nextSeq - 1
            #expect(seqs(watch.lines { seqs($0).last == last }).last == last)
        }
        let (status, stderr) = watch.interrupt()
        #expect(status == 0)
        #expect(stderr.isEmpty)
        #expect(seqs(watch.lines { _ in true }) == Array(first...last))
        // The screen after each event is the fold's: the last line shows the log's visible screen.
        let state = log.state
        let lastLine = try #require(watch.lines { _ in true }.last)
        if let scene = state.active, let visible = state.scenes[scene]?.visibleScreen.route {
            #expect(lastLine.hasSuffix("→  \(scene): \(visible.text)") || lastLine.contains("[anomaly"))
        }
        try log.close()
    }

    @Test func watchFromASeqRetentionDeletedExits65NamingTheFirstSeqStillThere() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/app.navlog"
        let log = try EventLog(directory: path, options: .init(segmentSize: 8_000, retention: Retention(maxBytes: 30_000)))
        try appendGenerated(log, 600, seed: 2)
        try log.close()
        let first = try #require(readAll(path).events.first?.seq)
        let run = try NavlogRun("watch", path, "--from", "1")
        #expect(run.status == 65)
        #expect(run.stderr.contains("navlog watch: error: \(path): seq 1 is no longer in the log"))
        #expect(run.stderr.contains("the first seq still there is \(first)"))
    }

    @Test func watchStartedBeforeTheLogExistsSaysOnceThatItWaitsThenPrintsJSONLinesOfItsFirstEvents() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/later.navlog"
        let watch = try WatchProcess([path, "--format", "json"])
        let notice = "navlog watch: \(path): no log here yet; waiting for it to appear"
        #expect(watch.errorLines { !$0.isEmpty } == [notice])
        let log = try EventLog(directory: path, options: .init(durability: .none))
        try appendGenerated(log, 40, seed: 3)
        let lines = watch.lines { $0.count == 41 }
        let (status, stderr) = watch.interrupt()
        #expect(status == 0)
        #expect(stderr == notice + "\n")
        #expect(lines.count == 41)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0["seq"] as? Int } == (1...41).map { $0 })
        #expect(objects.allSatisfy { $0["format"] as? Int == 2 && $0["record"] is [String: Any] })
        try log.close()
    }

    @Test func watchPrintsALineWrittenInPiecesOnlyOnceItIsWhole() throws {
        let scratch = try ScratchDirectory()
        let events = generatedEvents(30)
        let path = scratch.file("live.jsonl", [])
        let watch = try WatchProcess([path])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        for event in events {
            let line = LineEncoder.encode(event)
            handle.write(Data(line[..<(line.count / 2)]))
            handle.write(Data(line[(line.count / 2)...]))
        }
        try handle.close()
        let lines = watch.lines { seqs($0).last == 30 }
        let (status, stderr) = watch.interrupt()
        #expect(status == 0)
        #expect(stderr.isEmpty)
        #expect(seqs(lines) == Array(1...30))
    }

    @Test func watchOfALogCutUnderneathItExits65SayingSo() throws {
        let scratch = try ScratchDirectory()
        let events = generatedEvents(20)
        let path = scratch.file("cut.jsonl", events.flatMap { LineEncoder.encode($0) })
        let watch = try WatchProcess([path])
        #expect(seqs(watch.lines { seqs($0).last == 20 }) == Array(1...20))
        let half = events.prefix(10).flatMap { LineEncoder.encode($0) }
        try FileSystem.write(path, at: 0, half, truncatingTo: half.count)
        let (status, stderr) = watch.finish()
        #expect(status == 65)
        #expect(stderr.contains("navlog watch: error: \(path): the log changed underneath its reader"))
    }

    @Test(arguments: LogKind.allCases, [false, true])
    func watchOfALogRemovedAndWrittenAnewInItsPlaceExits65NamingThePath(kind: LogKind, afterItSaysItWaits: Bool) throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + kind.name
        let last = try writeLog(kind, at: path, seed: 1)
        let watch = try WatchProcess([path])
        #expect(seqs(watch.lines { seqs($0).last == last }) == Array(1...last))
        try FileManager.default.removeItem(atPath: path)
        if afterItSaysItWaits {
            #expect(watch.errorLines { !$0.isEmpty } == [removedNotice(path)])
        }
        _ = try writeLog(kind, at: path, seed: 2)
        let (status, stderr) = watch.finish()
        #expect(status == 65)
        #expect(stderr.contains("navlog watch: error: \(path): the log changed underneath its reader: it was removed and another written in its place"))
        #expect(seqs(watch.lines { _ in true }) == Array(1...last), "nothing of the new log is printed")
    }

    @Test(arguments: LogKind.allCases)
    func watchOfALogRemovedAndNotWrittenAgainSaysOnceThatItWaitsAndExitsZeroOnCtrlC(kind: LogKind) throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + kind.name
        let last = try writeLog(kind, at: path, seed: 1)
        let watch = try WatchProcess([path])
        #expect(seqs(watch.lines { seqs($0).last == last }) == Array(1...last))
        try FileManager.default.removeItem(atPath: path)
        #expect(watch.errorLines { !$0.isEmpty } == [removedNotice(path)])
        // Changes beside the path wake the watch; it says nothing more.
        for k in 0..<5 { try FileManager.default.removeItem(atPath: scratch.file("other-\(k).txt", [0x41])) }
        Thread.sleep(forTimeInterval: 0.3)   // not needed for the result: lets the watch look at them
        let (status, stderr) = watch.interrupt()
        #expect(status == 0)
        #expect(stderr == removedNotice(path) + "\n")
    }

    @Test func watchRefusesStandardInputAndBothStarts() throws {
        #expect(try NavlogRun("watch", "-").status == 64)
        #expect(try NavlogRun("watch", "x.navlog", "--from", "3", "--from-end").status == 64)
    }
}

/// What a watched log is: a log directory or a single `.jsonl` file.
enum LogKind: CaseIterable, Sendable {
    case directory, file

    /// The name of a log of this kind in a directory, with its slash.
    var name: String { self == .directory ? "/app.navlog" : "/app.jsonl" }
}

/// Writes a log of `kind` at `path` (its events generated from `seed`); returns its last seq.
private func writeLog(_ kind: LogKind, at path: String, seed: UInt64) throws -> Int {
    switch kind {
    case .directory:
        let log = try EventLog(directory: path, options: .init(durability: .none))
        try appendGenerated(log, 30, seed: seed)
        let last = log.nextSeq - 1
        try log.close()
        return last
    case .file:
        let created = FileManager.default.createFile(atPath: path, contents: Data(generatedEvents(30).flatMap { LineEncoder.encode($0) }))
        #expect(created)
        return 30
    }
}

/// What `navlog watch` says once when the log it follows is removed.
private func removedNotice(_ path: String) -> String {
    "navlog watch: \(path): the log was removed; waiting for it to come back (a log written anew in its place ends the watch)"
}

/// Appends `count` generated drafts to `log` (seeded by `seed`).
private func appendGenerated(_ log: EventLog, _ count: Int, seed: UInt64) throws {
    var generator = LogGenerator(seed: seed, crashRate: 0)
    try log.append(contentsOf: (0..<count).map { _ in generator.next() })
}

/// `count` generated events, numbered from 1.
private func generatedEvents(_ count: Int) -> [NavigationEvent] {
    var generator = LogGenerator(seed: 1, crashRate: 0.1)
    return (1...count).map { seq in
        let draft = generator.next()
        return NavigationEvent(seq: seq, timestamp: draft.timestamp, session: draft.session, action: draft.action)
    }
}

/// The events of the log at `path`, read as `navlog` reads them.
private func readAll(_ path: String) -> (events: [NavigationEvent], error: (any Error)?) {
    var events: [NavigationEvent] = []
    do {
        try LogReader(path: path).read { events.append($0) }
        return (events, nil)
    } catch {
        return (events, error)
    }
}
