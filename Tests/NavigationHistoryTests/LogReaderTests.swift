import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct LogReaderTests {
    static let events = generatedEvents(60, seed: 11)
    static let bytes = logBytes(events)

    /// The start offsets of each line of `bytes`, plus its end.
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
    }

    @Test func aCleanLogIsReadWhole() throws {
        let dir = try ScratchDirectory()
        let result = readAll(dir.file("log.jsonl", Self.bytes))
        #expect(result.error == nil)
        #expect(result.events == Self.events)
        let report = try #require(result.report)
        #expect(report.isClean)
        #expect(report.events == 60 && report.firstSeq == 1 && report.lastSeq == 60)
        #expect(report.sessions == Set(Self.events.map(\.session)).count)
        #expect(report.tornTail == nil)
    }

    @Test func truncationAtEveryOffsetOfTheLastThreeLinesYieldsTheLongestCompletePrefix() throws {
        let dir = try ScratchDirectory()
        let starts = Self.lineStarts(Self.bytes)
        let firstCut = starts[starts.count - 4]
        for cut in firstCut..<Self.bytes.count {
            let path = dir.file("cut.jsonl", Array(Self.bytes[0..<cut]))
            let complete = starts.filter { $0 <= cut }.count - 1
            let result = readAll(path)
            #expect(result.error == nil, "cut at \(cut)")
            #expect(result.events == Array(Self.events[0..<complete]), "cut at \(cut)")
            let report = try #require(result.report)
            #expect(report.isClean)
            if starts.contains(cut) {
                #expect(report.tornTail == nil, "cut at a line boundary \(cut)")
            } else {
                let torn = try #require(report.tornTail, "cut at \(cut)")
                #expect(torn.kind == .tornLine)
                #expect(torn.line == complete + 1)
                #expect(torn.offset == starts[complete])
            }
            // Absolute mode refuses the same torn tail.
            let absolute = readAll(path, mode: .absolute)
            #expect((absolute.error != nil) == !starts.contains(cut), "absolute, cut at \(cut)")
        }
    }

    @Test func everySingleBitFlipInTheLastLineIsDetectedInEveryMode() throws {
        let dir = try ScratchDirectory()
        let starts = Self.lineStarts(Self.bytes)
        let lastStart = starts[starts.count - 2]
        for offset in lastStart..<Self.bytes.count {
            for bit in 0..<8 {
                var flipped = Self.bytes
                flipped[offset] ^= UInt8(1 << bit)
                let path = dir.file("flip.jsonl", flipped)
                let prefix = Array(Self.events.dropLast())
                let where_ = "offset \(offset) bit \(bit)"

                let tolerant = readAll(path)
                #expect(tolerant.error == nil, "\(where_)")
                #expect(tolerant.events == prefix, "\(where_)")
                #expect(tolerant.report?.tornTail != nil, "\(where_)")

                let absolute = readAll(path, mode: .absolute)
                #expect(absolute.error?.code == .corruptLog, "\(where_)")
                #expect(absolute.events == prefix, "\(where_)")

                for mode in [RecoveryMode.pointInTime, .salvage] {
                    let result = readAll(path, mode: mode)
                    #expect(result.events == prefix, "\(mode) \(where_)")
                    #expect(result.report?.isClean == false, "\(mode) \(where_)")
                }
            }
        }
    }

    @Test func bitFlipsMidLogAreReportedPerModeAndTwoLinesAreNeverReadAsOne() throws {
        let dir = try ScratchDirectory()
        let starts = Self.lineStarts(Self.bytes)
        var random = SeededRandom(seed: 77)
        for _ in 0..<300 {
            let offset = Int(random.next() % UInt64(starts[starts.count - 3]))
            var flipped = Self.bytes
            flipped[offset] ^= UInt8(1 << (random.next() % 8))
            let line = starts.lastIndex { $0 <= offset }!  // 0-based index of the damaged line
            // A flipped newline joins two lines: both are lost, never read as one event.
            let joined = Self.bytes[offset] == 0x0A
            let path = dir.file("flip.jsonl", flipped)
            let where_ = "offset \(offset) in line \(line + 1)"

            let tolerant = readAll(path)
            #expect(tolerant.error?.code == .corruptLog, "\(where_)")
            #expect(tolerant.error?.defect?.line == line + 1, "\(where_)")
            #expect(tolerant.events == Array(Self.events[0..<line]), "\(where_)")

            let pointInTime = readAll(path, mode: .pointInTime)
            #expect(pointInTime.error == nil)
            #expect(pointInTime.events == Array(Self.events[0..<line]), "\(where_)")
            #expect(pointInTime.report?.stoppedAt?.line == line + 1)
            #expect(pointInTime.report?.defects.last?.kind == .unreadTail)

            let salvage = readAll(path, mode: .salvage)
            let lost = joined ? line...(line + 1) : line...line
            var expected = Self.events
            expected.removeSubrange(lost)
            #expect(salvage.events == expected, "\(where_)")
            #expect(salvage.report?.defects.first?.line == line + 1, "\(where_)")
            #expect(salvage.report?.defectCount == 1, "\(where_)")
        }
    }

    @Test(arguments: [0, 1, 4096, 70_000])
    func garbageAndZeroFilledBlocksAfterAValidPrefixAreATornTail(size: Int) throws {
        let dir = try ScratchDirectory()
        let zeros = dir.file("zeros.jsonl", Self.bytes + [UInt8](repeating: 0, count: size))
        let result = readAll(zeros)
        #expect(result.events == Self.events)
        #expect((result.report?.tornTail != nil) == (size > 0))
        #expect(readAll(zeros, mode: .absolute).error != nil || size == 0)

        var random = SeededRandom(seed: UInt64(size))
        let garbage = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next() | 0x80) }  // no newline inside
        let garbled = readAll(dir.file("garbage.jsonl", Self.bytes + garbage))
        #expect(garbled.events == Self.events)
        #expect((garbled.report?.tornTail != nil) == (size > 0))
    }

    @Test func garbageWithNewlinesAfterAValidPrefixIsAnErrorUnlessSalvaged() throws {
        let dir = try ScratchDirectory()
        let path = dir.file("g.jsonl", Self.bytes + Array("garbage\n\u{0}\u{0}\nmore garbage".utf8))
        let tolerant = readAll(path)
        #expect(tolerant.error?.defect?.line == 61)
        #expect(tolerant.events == Self.events)
        let salvage = readAll(path, mode: .salvage)
        #expect(salvage.events == Self.events)
        #expect(salvage.report?.defectCount == 3)
        #expect(salvage.report?.tornTail?.line == 63)
    }

    @Test func seqMustBeGaplessAndIncreasing() throws {
        let dir = try ScratchDirectory()
        var gap = Self.events
        gap.remove(at: 30)
        let gapped = readAll(dir.file("gap.jsonl", logBytes(gap)))
        #expect(gapped.error?.defect?.kind == .seqGap)
        #expect(gapped.error?.defect?.line == 31)
        var repeated = Self.events
        repeated.insert(Self.events[29], at: 30)
        let again = readAll(dir.file("rep.jsonl", logBytes(repeated)), mode: .salvage)
        #expect(again.report?.defects.map(\.kind) == [.seqNotIncreasing])
        #expect(again.events == Self.events)
    }

    @Test func aLogDirectoryIsReadAcrossSegmentsInOrder() throws {
        let dir = try ScratchDirectory()
        var generator = LogGenerator(seed: 3)
        let log = dir.path + "/log"
        let summary = try generator.writeLog(to: log, events: 5000, segmentSize: 100_000)
        #expect(summary.segments > 5)
        try "not a segment".write(toFile: log + "/index.bin", atomically: true, encoding: .utf8)
        let result = readAll(log, threads: 2, blockSize: 70_000)
        let report = try #require(result.report)
        #expect(report.isClean)
        #expect(report.events == 5000 && report.lastSeq == 5000)
        #expect(report.segments == summary.segments)
        #expect(result.events.map(\.seq) == Array(1...5000))
        #expect(result.events.filter { if case .snapshot = $0.action { true } else { false } }.count == summary.segments)
    }

    @Test func segmentLinesMustCarryACRC() throws {
        let dir = try ScratchDirectory()
        let log = dir.path + "/log"
        try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: true)
        var lines = Self.bytes
        // Strip the crc of line 10 and re-join: a valid line that a store segment may not hold.
        let starts = Self.lineStarts(lines)
        var line10 = String(decoding: lines[starts[9]..<(starts[10] - 1)], as: UTF8.self)
        line10 = String(line10[..<line10.range(of: ",\"crc\":")!.lowerBound]) + "}"
        lines.replaceSubrange(starts[9]..<(starts[10] - 1), with: Array(line10.utf8))
        _ = dir.file("log/00000001.jsonl", lines)
        #expect(readAll(log).error?.defect?.kind == .missingCRC)
        // The same line in a single file written by others is fine when that file has no crc at all.
        let plain = Self.events.map { event -> String in
            let text = String(decoding: LineEncoder.encode(event).dropLast(), as: UTF8.self)
            return String(text[..<text.range(of: ",\"crc\":")!.lowerBound]) + "}\n"
        }.joined()
        #expect(readAll(dir.file("plain.jsonl", Array(plain.utf8))).report?.isClean == true)
    }

    @Test func blockBoundariesAndThreadsDoNotChangeWhatIsRead() throws {
        let dir = try ScratchDirectory()
        let events = generatedEvents(4000, seed: 8)
        let path = dir.file("log.jsonl", logBytes(events))
        for (threads, block) in [(1, 66_000), (2, 66_001), (2, 300_000), (3, 1 << 20)] {
            let result = readAll(path, threads: threads, blockSize: block)
            #expect(result.events == events, "threads \(threads) block \(block)")
        }
    }

    @Test(arguments: [RecoveryMode.salvage, .pointInTime, .tolerateTornTail])
    func defectsInEveryPartOfABlockAreReportedTheSameWhateverTheThreads(mode: RecoveryMode) throws {
        let dir = try ScratchDirectory()
        var lines = generatedEvents(6000, seed: 12).map { LineEncoder.encode($0) }
        for index in [150, 2999, 3001, 5500] { lines[index][20] ^= 0x04 }   // in both halves of a block
        lines[5999].removeLast(9)                                            // a torn last line
        let path = dir.file("log.jsonl", lines.flatMap { $0 })
        let reference = readAll(path, mode: mode, threads: 1, blockSize: 66_000)
        #expect(reference.events.count > 100)
        #expect(reference.report?.defects.isEmpty == false || reference.error != nil)
        for (threads, block) in [(2, 1 << 20), (3, 1 << 20), (2, 400_000)] {
            let result = readAll(path, mode: mode, threads: threads, blockSize: block)
            #expect(result.events == reference.events, "threads \(threads) block \(block)")
            #expect(result.report?.defects == reference.report?.defects, "threads \(threads) block \(block)")
            #expect(result.report?.tornTail == reference.report?.tornTail, "threads \(threads) block \(block)")
            #expect(result.error?.localizedDescription == reference.error?.localizedDescription)
        }
    }

    @Test func aDamagedLastLineThatEndsABlockAtTheFilesEndIsATornTail() throws {
        let dir = try ScratchDirectory()
        var lines = generatedEvents(600, seed: 6).map { LineEncoder.encode($0) }
        while lines.dropLast().joined().count >= 66_000 { lines.removeLast() }
        lines[lines.count - 1][30] ^= 0x01
        let bytes = Array(lines.joined())
        #expect(bytes.count >= LineDecoder.maximumLineLength + 2)   // one block holds the file exactly
        let path = dir.file("log.jsonl", bytes)
        for maps in [false, true] {
            for threads in [1, 2] {
                let result = readAll(path, threads: threads, blockSize: bytes.count, mapsFiles: maps)
                #expect(result.error == nil, "maps \(maps), threads \(threads)")
                #expect(result.report?.tornTail?.line == lines.count, "maps \(maps), threads \(threads)")
                #expect(result.events.count == lines.count - 1, "maps \(maps), threads \(threads)")
            }
        }
    }

    @Test func linesLongerThan64KiBAreDefectsAndNeverBufferedWhole() throws {
        let dir = try ScratchDirectory()
        let long = Array(#"{"v":1,"seq":61,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"x","pad":""#.utf8)
            + [UInt8](repeating: 0x61, count: 200_000) + Array("\"}\n".utf8)
        let next = LineEncoder.encode(NavigationEvent(seq: 62, timestamp: Timestamp("2026-11-29T12:00:01.000Z")!, session: "s", action: .sessionEnd(reason: nil)))
        let path = dir.file("long.jsonl", Self.bytes + long + next)
        for threads in [1, 2] {   // with 2, the next block is read while one is decoded
            let salvage = readAll(path, mode: .salvage, threads: threads, blockSize: 70_000)
            #expect(salvage.report?.defects.map(\.kind) == [.lineTooLong])
            #expect(salvage.report?.defects.first?.line == 61)
            #expect(salvage.events.map(\.seq) == Array(1...60) + [62])
        }
    }

    @Test func unknownTypesAreWarningsAndNewerVersionsAreRefused() throws {
        let dir = try ScratchDirectory()
        let unknown = NavigationEvent(seq: 61, timestamp: Self.events[59].timestamp, session: "s", action: .unknown(type: "future", members: []))
        let result = readAll(dir.file("u.jsonl", Self.bytes + LineEncoder.encode(unknown)))
        #expect(result.report?.isClean == true)
        #expect(result.report?.warnings.map(\.kind) == [.unknownType])
        #expect(result.events.count == 61)

        let v2 = Array(#"{"v":2,"seq":61,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"push"}"#.utf8) + [0x0A]
        let refused = readAll(dir.file("v2.jsonl", Self.bytes + v2 + LineEncoder.encode(unknown)))
        #expect(refused.error?.code == .unsupportedVersion)
        #expect(refused.error?.message.contains("newer") == true)
    }

    @Test func theReaderNeverModifiesALog() throws {
        let dir = try ScratchDirectory()
        let torn = Array(Self.bytes.dropLast(7))
        let path = dir.file("t.jsonl", torn)
        for mode in RecoveryMode.allCases { _ = readAll(path, mode: mode) }
        #expect(FileManager.default.contents(atPath: path) == Data(torn))
    }

    @Test func aMissingPathIsNoInput() {
        #expect(readAll("/nonexistent/navlog/log").error?.code == .noInput)
    }

    @Test func aSnapshotThatDiffersFromTheFoldedStateIsADefectWhenSnapshotsAreChecked() throws {
        let dir = try ScratchDirectory()
        var events = generatedEvents(300, seed: 15)
        var state = NavigationState()
        for event in events[..<150] { Projection.fold(&state, event) }
        state.scenes["ghost"] = SceneState()
        events.insert(NavigationEvent(seq: 151, timestamp: events[150].timestamp, session: events[150].session,
                                      action: .snapshot(state: state)), at: 150)
        for k in 151..<events.count { events[k].seq = k + 1 }
        let path = dir.file("log.jsonl", logBytes(events))
        #expect(readAll(path).report?.isClean == true, "not checked by default")
        var reader = LogReader(path: path, mode: .salvage)
        reader.checksSnapshots = true
        let report = try reader.read { _ in }
        #expect(report.defects.map(\.kind) == [.snapshotMismatch])
        #expect(report.defects.first?.line == 151)
        #expect(report.defects.first?.detail.contains("scene ghost opened") == true)
        var fixed = events
        state.scenes["ghost"] = nil
        fixed[150].action = .snapshot(state: state)
        var clean = LogReader(path: dir.file("fixed.jsonl", logBytes(fixed)))
        clean.checksSnapshots = true
        #expect(try clean.read { _ in }.isClean)
    }

    @Test func anUnknownTypeMakesTheNextSnapshotUncheckedNotADefect() throws {
        let dir = try ScratchDirectory()
        var events = generatedEvents(50, seed: 16)
        var state = NavigationState()
        for event in events { Projection.fold(&state, event) }
        state.scenes["from-a-newer-type"] = SceneState()   // what a newer writer's type might have done
        events.append(NavigationEvent(seq: 51, timestamp: events[49].timestamp, session: events[49].session,
                                      action: .unknown(type: "scene.magic", members: [])))
        events.append(NavigationEvent(seq: 52, timestamp: events[49].timestamp, session: events[49].session, action: .snapshot(state: state)))
        var reader = LogReader(path: dir.file("log.jsonl", logBytes(events)))
        reader.checksSnapshots = true
        let report = try reader.read { _ in }
        #expect(report.isClean)
        #expect(report.warnings.map(\.kind) == [.unknownType])
    }
}
