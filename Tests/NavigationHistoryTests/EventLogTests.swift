import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct EventLogTests {
    /// `count` generated drafts of the synthetic app.
    func drafts(_ count: Int, seed: UInt64 = 3) -> [EventDraft] {
        var generator = LogGenerator(seed: seed)
        return (0..<count).map { _ in generator.next() }
    }

    /// The events of a log read strictly, with the state folded from its first event.
    func readStrictly(_ path: String) throws -> (events: [NavigationEvent], state: NavigationState) {
        var events = [NavigationEvent]()
        var state = NavigationState()
        let report = try LogReader(path: path, mode: .absolute).read { event in
            events.append(event)
            _ = Projection.fold(&state, event)
        }
        #expect(report.isClean, "\(report.defects)")
        return (events, state)
    }

    func withoutSnapshots(_ events: [NavigationEvent]) -> [EventDraft] {
        events.compactMap { event in
            if case .snapshot = event.action { return nil }
            return EventDraft(action: event.action, session: event.session, timestamp: event.timestamp)
        }
    }

    @Test func appendedEventsGetGaplessSeqsAndEverySegmentStartsWithTheFoldedState() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let input = drafts(3000)
        let log = try EventLog(directory: path, options: .init(segmentSize: 64 << 10, durability: .none))
        let last = try log.append(contentsOf: input[0..<1000])
        for draft in input[1000...] { try log.append(draft.action, session: draft.session, at: draft.timestamp) }
        try log.close()
        let (events, state) = try readStrictly(path)
        #expect(events.first?.seq == 1)
        #expect(events.last?.seq == log.nextSeq - 1)
        let thousandth = events.filter { if case .snapshot = $0.action { false } else { true } }[999]
        #expect(last == thousandth.seq, "append(contentsOf:) returns the last event's seq")
        #expect(withoutSnapshots(events) == input)
        #expect(state == log.state)
        let segments = try Opening.segmentNumbers(path)
        #expect(segments.count > 5)
        var folded = NavigationState()
        var starts = 0
        for event in events {
            if case .snapshot(let snapshot) = event.action {
                #expect(snapshot == folded, "snapshot at seq \(event.seq)")
                starts += 1
            }
            _ = Projection.fold(&folded, event)
        }
        #expect(starts == segments.count)
        for number in segments {
            let mode = try FileManager.default.attributesOfItem(atPath: path + "/" + Opening.segmentName(number))[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func reopeningContinuesAtTheNextSeqWithTheFoldedState() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let input = drafts(1500)
        do {
            let log = try EventLog(directory: path, options: .init(segmentSize: 50_000))
            try log.append(contentsOf: input[0..<700])
            try log.close()
        }
        let log = try EventLog(directory: path, options: .init(segmentSize: 50_000))
        #expect(log.recovery.isClean)
        let (before, state) = try readStrictly(path)
        #expect(log.nextSeq == before.count + 1)
        #expect(log.durableSeq == before.count)
        #expect(log.state == state)
        try log.append(contentsOf: input[700...])
        try log.close()
        #expect(withoutSnapshots(try readStrictly(path).events) == input)
    }

    @Test(arguments: [Durability.none, .everyEvent, .batched(maxDelay: .seconds(60), maxEvents: 10)])
    func eventsBecomeDurableAsThePolicySays(durability: Durability) throws {
        let dir = try ScratchDirectory()
        let log = try EventLog(directory: dir.path + "/log", options: .init(durability: durability))
        for (index, draft) in drafts(25).enumerated() {
            let seq = try log.append(draft.action, session: draft.session, at: draft.timestamp)
            switch durability {
            case .none: #expect(log.durableSeq == 1, "only the first segment's snapshot is synced")
            case .everyEvent: #expect(log.durableSeq == seq)
            case .batched: #expect(log.durableSeq == (index + 1 >= 10 ? seq - (index + 1) % 10 : 1), "after \(index + 1) events")
            }
        }
        try log.sync()
        #expect(log.durableSeq == log.nextSeq - 1)
        try log.close()
    }

    @Test func retentionDeletesWholeOldSegmentsAndTheSeqContinues() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let options = EventLog.Options(segmentSize: 20_000, retention: Retention(maxBytes: 60_000))
        var log = try EventLog(directory: path, options: options)
        try log.append(contentsOf: drafts(2000))
        let nextSeq = log.nextSeq
        try log.close()
        let segments = try Opening.segmentNumbers(path)
        #expect(segments.first! > 1, "old segments were deleted")
        #expect(segments.count <= 4)
        let (events, state) = try readStrictly(path)
        #expect(events.last?.seq == nextSeq - 1)
        if case .snapshot = events.first?.action {} else { Issue.record("the first remaining segment starts with a snapshot") }
        log = try EventLog(directory: path, options: options)
        #expect(log.nextSeq == nextSeq)
        #expect(log.state == state)
        try log.close()
    }

    @Test func retentionByAgeDeletesSegmentsLastWrittenTooLongAgo() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        do {
            let log = try EventLog(directory: path, options: .init(segmentSize: 20_000))
            try log.append(contentsOf: drafts(600))
            try log.close()
        }
        let old = try Opening.segmentNumbers(path)
        #expect(old.count > 2)
        for number in old.dropLast() {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3 * 86_400)],
                                                  ofItemAtPath: path + "/" + Opening.segmentName(number))
        }
        let log = try EventLog(directory: path, options: .init(segmentSize: 20_000, retention: Retention(maxAge: .seconds(86_400))))
        try log.append(contentsOf: drafts(300, seed: 4))
        try log.close()
        let remaining = try Opening.segmentNumbers(path)
        #expect(remaining.first == old.last, "every segment older than a day went; the last old one was written just now")
        _ = try readStrictly(path)
    }

    @Test(arguments: [EventLog.FaultPoint.segmentTemporaryWritten, .segmentRenamed, .segmentDirectorySynced, .segmentDeleted, .beforeWrite])
    func aCrashAtEveryStepOfRotationAndRetentionLeavesALogThatReopensConsistent(point: EventLog.FaultPoint) throws {
        let options = EventLog.Options(segmentSize: 8_000, durability: .everyEvent, retention: Retention(maxBytes: 40_000))
        let input = drafts(900, seed: 6)
        for occurrence in [1, 2, 5, 9] {
            let dir = try ScratchDirectory()
            let path = dir.path + "/log"
            var appended = 0
            do {
                let log = try EventLog(directory: path, options: options)
                var seen = 0
                log.faultHook = { reached in
                    guard reached == point else { return }
                    seen += 1
                    if seen == occurrence { throw NavigationHistoryError(code: .io, message: "simulated crash") }
                }
                for draft in input {
                    try log.append(draft.action, session: draft.session, at: draft.timestamp)
                    appended += 1
                }
                Issue.record("the fault at \(point) #\(occurrence) was never reached")
            } catch let error as NavigationHistoryError {
                #expect(error.message == "simulated crash")
            }
            // The log was dropped without a close, as a crash drops it. Reopen and go on.
            let log = try EventLog(directory: path, options: options)
            #expect(!FileManager.default.fileExists(atPath: path + "/" + Opening.segmentName(log.nextSeq) + Opening.temporarySuffix))
            let (events, state) = try readStrictly(path)
            #expect(log.state == state, "snapshot + tail equals the full replay, \(point) #\(occurrence)")
            #expect(log.nextSeq == (events.last?.seq ?? 0) + 1)
            let kept = withoutSnapshots(events)
            #expect(Array(input[(appended - kept.count)..<appended]) == kept, "the newest events are all there, in order")
            try log.append(contentsOf: input[appended...])
            try log.close()
            let after = withoutSnapshots(try readStrictly(path).events)   // retention keeps the newest
            #expect(after.count > 50 && after == Array(input.suffix(after.count)), "\(point) #\(occurrence)")
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
            #expect(!names.contains { $0.hasSuffix(Opening.temporarySuffix) })
        }
    }

    @Test func aTornTailAtEveryByteOffsetIsCutOffKeptAndAppendedAfter() throws {
        let dir = try ScratchDirectory()
        let original = dir.path + "/original"
        let input = drafts(40, seed: 7)
        do {
            let log = try EventLog(directory: original, options: .init(durability: .none))
            try log.append(contentsOf: input)
            try log.close()
        }
        let segment = Opening.segmentName(1)
        let bytes = try #require(FileManager.default.contents(atPath: original + "/" + segment))
        let lastLineStart = bytes.dropLast().lastIndex(of: 0x0A)! + 1
        let more = drafts(2, seed: 8)
        for cut in lastLineStart..<bytes.count {
            let path = dir.path + "/cut-\(cut)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path + "/" + segment, contents: bytes.prefix(cut)))
            let log = try EventLog(directory: path, options: .init(durability: .none))
            let torn = cut > lastLineStart
            #expect((log.recovery.tornTail != nil) == torn, "cut at \(cut)")
            #expect(log.nextSeq == 41, "the torn event is gone; cut at \(cut)")
            if torn {
                let saved = try #require(log.recovery.savedTo)
                #expect(FileManager.default.contents(atPath: saved) == bytes[lastLineStart..<cut], "the cut bytes are kept")
            }
            try log.append(contentsOf: more)
            try log.close()
            let events = withoutSnapshots(try readStrictly(path).events)
            #expect(events == Array(input.dropLast()) + more, "cut at \(cut)")
            #expect(EventLog.exists(torn: path + "/" + segment) == torn)
        }
    }

    @Test func aSecondWriterInTheSameProcessIsRefusedNamingThePid() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let first = try EventLog(directory: path)
        #expect {
            _ = try EventLog(directory: path)
        } throws: { error in
            let error = error as? NavigationHistoryError
            return error?.code == .locked && error?.message.contains("process \(getpid())") == true
        }
        try first.close()
        let second = try EventLog(directory: path)
        try second.close()
    }

    @Test func aFailedWriteMakesTheLogReadOnlyAndReopeningGoesOn() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let input = drafts(20, seed: 9)
        let log = try EventLog(directory: path, options: .init(durability: .everyEvent))
        try log.append(contentsOf: input[0..<10])
        log.faultHook = { if $0 == .beforeWrite { throw NavigationHistoryError(code: .io, message: "write failed: No space left on device", errno: ENOSPC) } }
        #expect { try log.append(contentsOf: input[10..<12]) } throws: { ($0 as? NavigationHistoryError)?.errno == ENOSPC }
        log.faultHook = nil
        #expect { try log.append(contentsOf: input[10..<12]) } throws: { ($0 as? NavigationHistoryError)?.code == .readOnly }
        #expect { try log.sync() } throws: { ($0 as? NavigationHistoryError)?.code == .readOnly }
        #expect(throws: NavigationHistoryError.self) { try log.close() }
        let reopened = try EventLog(directory: path)
        #expect(reopened.nextSeq == 12)
        try reopened.append(contentsOf: input[10...])
        try reopened.close()
        #expect(withoutSnapshots(try readStrictly(path).events) == input)
    }

    @Test func eventsTheFormatCannotHoldAreRefusedWithoutWritingThem() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let log = try EventLog(directory: path)
        let huge = Route(screen: "recipe", id: String(repeating: "x", count: 70_000))
        let good = drafts(3, seed: 10)
        #expect { try log.append(.push(scene: "main", stack: "home", route: huge), session: "s") } throws: {
            let error = $0 as? NavigationHistoryError
            return error?.code == .invalidEvent && error?.message.contains("64 KiB") == true
        }
        #expect { try log.append(.unknown(type: "later.thing", members: []), session: "s") } throws: {
            ($0 as? NavigationHistoryError)?.code == .invalidEvent
        }
        let batch = [good[0], EventDraft(action: .push(scene: "main", stack: "home", route: huge), session: "s"), good[1]]
        #expect(throws: NavigationHistoryError.self) { try log.append(contentsOf: batch) }
        #expect(log.appendedByLastCall == 1)
        try log.append(contentsOf: good[2...])
        try log.close()
        #expect(withoutSnapshots(try readStrictly(path).events) == [good[0], good[2]])
    }

    @Test func theStoreRefusesEventsItsOwnReaderWouldReject() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let log = try EventLog(directory: path)
        let refused: [NavigationAction] = [
            .push(scene: "", stack: "home", route: Route(screen: "recipe")),
            .push(scene: "main", stack: "home", route: Route(screen: "")),
            .pop(scene: "main", stack: "home", count: 0),
            .tabSelect(scene: "main", tab: ""),
        ]
        for action in refused {
            #expect(throws: NavigationHistoryError.self, "\(action)") { try log.append(action, session: "s") }
            #expect(throws: NavigationHistoryError.self) { try EventLog.check(EventDraft(action: action, session: "s")) }
        }
        #expect(throws: NavigationHistoryError.self) { try log.append(.sceneOpen(scene: "main", kind: nil), session: "") }
        try log.append(.sceneOpen(scene: "main", kind: nil), session: "s")
        try log.close()
        let reopened = try EventLog(directory: path)
        #expect(reopened.nextSeq == 3, "the snapshot and the one good event")
        try reopened.close()
    }

    @Test func aFailedSyncCutsTheUnsyncedEventsSoAReopenNeverTakesThemForDurable() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let input = drafts(30, seed: 13)
        let log = try EventLog(directory: path, options: .init(durability: .batched(maxDelay: .seconds(60), maxEvents: 1000)))
        try log.append(contentsOf: input[0..<10])
        try log.sync()
        let durable = log.durableSeq
        try log.append(contentsOf: input[10..<20])
        log.faultHook = { if $0 == .beforeSync { throw NavigationHistoryError(code: .io, message: "sync failed: Input/output error", errno: EIO) } }
        #expect { try log.sync() } throws: { ($0 as? NavigationHistoryError)?.errno == EIO }
        #expect { try log.append(contentsOf: input[20...]) } throws: { ($0 as? NavigationHistoryError)?.code == .readOnly }
        #expect(throws: NavigationHistoryError.self) { try log.close() }   // throws the failure, releases the lock
        let reopened = try EventLog(directory: path)
        #expect(reopened.nextSeq == durable + 1)
        try reopened.close()
        #expect(withoutSnapshots(try readStrictly(path).events) == Array(input[0..<10]))
    }

    @Test func garbageAndZerosAfterTheLastGoodLineAreCutAndKeptButDamageBeforeAGoodLineIsRefused() throws {
        let dir = try ScratchDirectory()
        let input = drafts(20, seed: 14)
        let original = dir.path + "/original"
        do {
            let log = try EventLog(directory: original)
            try log.append(contentsOf: input)
            try log.close()
        }
        let segment = "/" + Opening.segmentName(1)
        let bytes = try #require(FileManager.default.contents(atPath: original + segment))
        let tails: [(String, [UInt8])] = [
            ("garbage lines", Array("x}y\n{\"v\":1,\"se\n\u{1}\u{2}\n".utf8)),
            ("zeros with a newline", [UInt8](repeating: 0, count: 300) + [0x0A] + [UInt8](repeating: 0, count: 200)),
        ]
        for (name, tail) in tails {
            let path = dir.path + "/" + name.replacingOccurrences(of: " ", with: "-")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path + segment, contents: bytes + tail))
            let log = try EventLog(directory: path)
            #expect(log.recovery.removedBytes == tail.count, "\(name)")
            #expect(FileManager.default.contents(atPath: path + segment + ".torn") == Data(tail))
            #expect(log.nextSeq == 22)
            try log.close()
        }
        let path = dir.path + "/good-after-damage"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var lines = bytes.split(separator: 0x0A).map { Array($0) + [0x0A] }
        lines[15][30] ^= 0x01
        #expect(FileManager.default.createFile(atPath: path + segment, contents: Data(lines.flatMap { $0 })))
        #expect { _ = try EventLog(directory: path) } throws: {
            let error = $0 as? NavigationHistoryError
            return error?.code == .corruptLog && error?.message.contains("the damage is not at the tail") == true
        }
    }

    @Test(arguments: ["fresh log", "segment rotation", "periodic snapshot"])
    func anEventRefusedForItsSessionOrTimeLeavesNoSnapshotOfItsOwnBehind(point: String) throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let log = try EventLog(directory: path, options: .init(segmentSize: point == "segment rotation" ? 200 : 1 << 20,
                                                             durability: .none, snapshotInterval: point == "periodic snapshot" ? 2 : nil))
        if point != "fresh log" {
            try log.append(.sceneOpen(scene: "main", kind: nil), session: "s")
            try log.append(.tabSelect(scene: "main", tab: "home"), session: "s")
        }
        let farFuture = Timestamp(millisecondsSince1970: 400_000_000_000_000)   // past year 9999
        #expect(throws: NavigationHistoryError.self) { try log.append(.tabSelect(scene: "main", tab: "a"), session: "") }
        #expect(throws: NavigationHistoryError.self) { try log.append(.tabSelect(scene: "main", tab: "b"), session: "s", at: farFuture) }
        for _ in 0..<5 { try log.append(.tabSelect(scene: "main", tab: "c"), session: "s") }
        try log.close()
        let (events, _) = try readStrictly(path)
        #expect(events.last?.seq == log.durableSeq, "every acknowledged event is read back")
        #expect(events.allSatisfy { !$0.session.isEmpty })
        _ = try EventLog(directory: path)
    }

    @Test func theLogStopsAtTheLastSegmentNumberItsNamesHold() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let snapshot = LineEncoder.encode(NavigationEvent(seq: 1, timestamp: .now, session: "s", action: .snapshot(state: NavigationState())))
        #expect(FileManager.default.createFile(atPath: path + "/" + Opening.segmentName(Opening.maximumSegmentNumber), contents: Data(snapshot)))
        let log = try EventLog(directory: path, options: .init(segmentSize: 10))
        // The segment is rotated once its events take as many bytes as its opening snapshot.
        #expect {
            for _ in 0..<10 { try log.append(.sceneOpen(scene: "main", kind: nil), session: "s") }
        } throws: {
            ($0 as? NavigationHistoryError)?.message.contains("last segment number") == true
        }
        #expect(try Opening.segmentNumbers(path) == [Opening.maximumSegmentNumber])
    }
}

extension EventLog {
    /// Whether bytes cut off `segment` were kept beside it.
    static func exists(torn segment: String) -> Bool {
        FileManager.default.fileExists(atPath: segment + ".torn")
    }
}
