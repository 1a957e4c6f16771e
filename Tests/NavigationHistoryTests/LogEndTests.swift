import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// Where a log ends is decided once: what the store keeps when it opens a log, what `repair`
/// cuts, what a restore counts and what the readers show agree, and a log whose segments do not
/// follow one another is refused before anything is written.
@Suite struct LogEndTests {
    /// A log of `count` generated events in segments of `segmentSize` bytes.
    func segmentedLog(_ path: String, events count: Int = 2500, segmentSize: Int = 16 << 10, seed: UInt64 = 5) throws {
        var generator = LogGenerator(seed: seed, crashRate: 0.2)
        let log = try EventLog(directory: path, options: .init(segmentSize: segmentSize, durability: .none, snapshotInterval: 64))
        try log.append(contentsOf: (0..<count).map { _ in generator.next() })
        try log.close()
    }

    /// The bytes of every file of a directory, by name.
    func contents(_ directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "LOCK" {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return result
    }

    func copyItem(_ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    // MARK: Segments that do not follow one another

    @Test(arguments: ["copied", "duplicated last", "gap"])
    func segmentsThatDoNotFollowOneAnotherAreRefusedBeforeAnythingIsWritten(damage: String) throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        try segmentedLog(path)
        let numbers = try Opening.segmentNumbers(path)
        #expect(numbers.count >= 8)
        let last = numbers.last!
        let segment = { (number: Int) in path + "/" + Opening.segmentName(number) }
        let now = Timestamp("2026-11-02T00:00:00.000Z")!
        let intact = try Restorer().restore(from: path, now: now)
        let later: String, earlier: String
        switch damage {
        case "copied":   // an older segment copied after the last one
            try copyItem(segment(5), segment(last + 1))
            (later, earlier) = (segment(last + 1), segment(last))
        case "duplicated last":
            try copyItem(segment(last), segment(last + 1))
            (later, earlier) = (segment(last + 1), segment(last))
        default:   // a segment in the middle deleted
            try FileManager.default.removeItem(atPath: segment(4))
            (later, earlier) = (segment(5), segment(3))
        }
        let before = try contents(path)
        func refusesNamingBoth(_ error: any Error) -> Bool {
            guard let error = error as? NavigationHistoryError, error.code == .corruptLog else { return false }
            let text = error.description
            return text.contains(Opening.segmentName(Int(later.suffix(14).prefix(8))!))
                && text.contains(Opening.segmentName(Int(earlier.suffix(14).prefix(8))!))
        }
        #expect(performing: { _ = try EventLog(directory: path) }, throws: refusesNamingBoth)
        #expect(performing: { _ = try EventLog.repair(path) }, throws: refusesNamingBoth)
        if damage == "gap" {
            // A restore reads the log's end: a link before it changes nothing it restores.
            #expect(try Restorer().restore(from: path, now: now) == intact)
        } else {
            #expect(performing: { _ = try Restorer().restore(from: path) }, throws: refusesNamingBoth)
        }
        #expect(try contents(path) == before, "nothing was written")
        // The reader reports the same link, naming both files.
        let report = try LogReader(path: path, mode: .salvage).scan { _ in }
        let defect = try #require(report.defects.first)
        #expect(defect.file == later && defect.line == 1)
        #expect(defect.kind == (damage == "gap" ? .seqGap : .seqNotIncreasing))
        #expect(defect.detail.contains(earlier), "\(defect.detail)")
    }

    @Test func aLastSegmentHoldingOnlyATornLineIsNotRemovedWhenTheOneBeforeItIsDamaged() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        try segmentedLog(path, events: 900, segmentSize: 16 << 10)
        let numbers = try Opening.segmentNumbers(path)
        let last = path + "/" + Opening.segmentName(numbers.last!)
        let before = path + "/" + Opening.segmentName(numbers[numbers.count - 2])
        // The last segment: the start of its snapshot, torn. The one before: a line in its middle damaged.
        try Data(try Data(contentsOf: URL(fileURLWithPath: last)).prefix(40)).write(to: URL(fileURLWithPath: last))
        var lines = try Data(contentsOf: URL(fileURLWithPath: before)).split(separator: 0x0A).map(Array.init)
        lines[lines.count / 2][25] ^= 0x04
        try Data(lines.flatMap { $0 + [0x0A] }).write(to: URL(fileURLWithPath: before))
        let contents = try contents(path)
        #expect(throws: NavigationHistoryError.self) { _ = try EventLog(directory: path) }
        #expect(try self.contents(path) == contents, "nothing was cut or removed before the refusal")
    }

    // MARK: The tail

    /// A tail mutation: a name, and what it does to the bytes of the log's last file.
    static let tails: [(String, @Sendable ([UInt8], inout SeededRandom) -> [UInt8])] = [
        ("whole", { bytes, _ in bytes }),
        ("last line without its newline", { bytes, _ in Array(bytes.dropLast()) }),
        ("cut in the last line", { bytes, random in
            let lastStart = (bytes.dropLast().lastIndex(of: 0x0A) ?? -1) + 1
            return Array(bytes[..<(lastStart + Int(random.next() % UInt64(bytes.count - lastStart)))])
        }),
        ("cut in the line before", { bytes, random in
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            let keep = lines.dropLast(3).reduce(0) { $0 + $1.count + 1 }
            return Array(bytes[..<(keep + 1 + Int(random.next() % UInt64(max(1, lines[lines.count - 3].count))))])
        }),
        ("bit flipped in the last line", { bytes, random in
            var bytes = bytes
            let lastStart = (bytes.dropLast().lastIndex(of: 0x0A) ?? -1) + 1
            bytes[lastStart + Int(random.next() % UInt64(bytes.count - 1 - lastStart))] ^= 1 << (random.next() % 7)
            return bytes
        }),
        ("two garbage lines", { bytes, _ in bytes + Array("{\"v\":1,\"se\n\u{0}\u{0}x\n".utf8) }),
        ("zeros", { bytes, _ in bytes + [UInt8](repeating: 0, count: 5000) }),
        ("seq gap at the last line", { bytes, _ in
            var lines = bytes.split(separator: 0x0A).map(Array.init)
            lines.remove(at: lines.count - 2)
            return lines.flatMap { $0 + [0x0A] }
        }),
        ("an earlier line repeated last", { bytes, _ in
            let lines = bytes.split(separator: 0x0A).map(Array.init)
            return bytes + lines[lines.count - 5] + [0x0A]
        }),
        ("damage before good lines", { bytes, _ in
            var lines = bytes.split(separator: 0x0A).map(Array.init)
            lines[lines.count - 4][20] ^= 0x04
            return lines.flatMap { $0 + [0x0A] }
        }),
    ]

    /// What the store makes of a log: the state and last seq it goes on from, or its refusal.
    func storeOutcome(_ path: String, segmented: Bool) -> Result<(NavigationState, Int), NavigationHistoryError> {
        Result {
            if segmented {
                let log = try EventLog(directory: path, options: .init(durability: .none))
                defer { try? log.close() }
                return (log.state, log.nextSeq - 1)
            }
            _ = try EventLog.repair(path)
            var state = NavigationState()
            var last = 0
            try LogReader(path: path, mode: .absolute).read { event in
                Projection.fold(&state, event)
                last = event.seq
            }
            return (state, last)
        }.mapError { $0 as! NavigationHistoryError }
    }

    @Test(arguments: [true, false])
    func aRestoreCountsExactlyWhatTheStoreKeepsAtTheLogsEnd(segmented: Bool) throws {
        let dir = try ScratchDirectory()
        let original = dir.path + "/original"
        try segmentedLog(original, events: 1500, segmentSize: segmented ? 32 << 10 : 1 << 30, seed: 11)
        let files = try LogFiles.resolve(original).files
        var random = SeededRandom(seed: segmented ? 1 : 2)
        let restorer = Restorer(options: .init(crashLoopSessions: 1000, maximumAge: .seconds(1 << 40)))
        var refusals = 0
        for round in 0..<3 {
            for (name, mutate) in Self.tails {
                let path = dir.path + "/\(name)-\(round)" + (segmented ? "" : ".jsonl")
                let last: String
                if segmented {
                    try FileManager.default.copyItem(atPath: original, toPath: path)
                    last = path + "/" + (files.last! as NSString).lastPathComponent
                } else {
                    try copyItem(files.last!, path)   // one segment: a single file, snapshots and all
                    last = path
                }
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: last)))
                try Data(mutate(bytes, &random)).write(to: URL(fileURLWithPath: last))
                let restored = Result { try restorer.restore(from: path) }.mapError { $0 as! NavigationHistoryError }
                let kept = storeOutcome(path, segmented: segmented)
                switch (restored, kept) {
                case (.success(let result), .success(let (state, lastSeq))):
                    #expect(result.from == lastSeq, "\(name)")
                    #expect(result.state == state, "\(name)")
                case (.failure(let refused), .failure(let storeRefused)):
                    #expect(refused.code == storeRefused.code, "\(name)")
                    refusals += 1
                default:
                    Issue.record("\(name): the restore gives \(restored), the store \(kept)")
                }
            }
        }
        #expect(refusals >= 3 * 3, "damage before good lines and bad seqs are refused by both")
    }

    @Test func readingBackBeforeALineChecksEverySeqAcrossSegments() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        try segmentedLog(path, events: 600, segmentSize: 8 << 10)
        let files = try LogFiles.resolve(path).files
        var lines = try Data(contentsOf: URL(fileURLWithPath: files[2])).split(separator: 0x0A).map(Array.init)
        lines.remove(at: 3)
        try Data(lines.flatMap { $0 + [0x0A] }).write(to: URL(fileURLWithPath: files[2]))
        // From the last segment's first line back: the gap in the third segment is found.
        var finding = LogTail(endOf: [files.last!])
        let first = try #require(try finding.firstSeq())
        var tail = LogTail(before: EventPosition(file: files.count - 1, offset: 0, line: 0), seq: first, in: files)
        #expect(performing: { while try tail.previous() != nil {} }, throws: { error in
            let defect = (error as? NavigationHistoryError)?.defect
            return defect?.kind == .seqGap && defect?.file == files[2] && defect?.line == 4
        })
    }
}

extension LogTail {
    /// The seq of the first line it reads back to.
    mutating func firstSeq() throws -> Int? {
        var first: Int?
        while let line = try previous() { first = line.event.seq }
        return first
    }
}
