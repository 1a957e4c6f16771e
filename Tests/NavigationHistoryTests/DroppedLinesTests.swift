import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// What a reading, and a restore, left out of the events it delivered (``DroppedLines``).
@Suite struct DroppedLinesTests {
    /// 50 events, the 10th and 20th with a crc made invalid, then `tail`.
    static func bytes(damaged: Bool, tail: String) -> [UInt8] {
        var lines = generatedEvents(50, seed: 23, crashRate: 0).map { String(decoding: LineEncoder.encode($0), as: UTF8.self) }
        if damaged { for k in [9, 19] { lines[k] = lines[k].replacingOccurrences(of: #""crc":""#, with: #""crc":"0"#) } }
        return Array((lines.joined() + tail).utf8)
    }

    @Test func eachModeSaysWhatItsReadingDropped() throws {
        let dir = try ScratchDirectory()
        let torn = dir.file("torn.jsonl", Self.bytes(damaged: false, tail: #"{"v":1,"seq":51"#))
        let tolerated = try #require(readAll(torn).report?.dropped)
        #expect(tolerated.count == 1 && tolerated.mode == .tolerateTornTail)
        #expect(tolerated.entries.map(\.description) == ["\(torn):51: tornLine: torn tail dropped: no newline at end of file (15 bytes)"])
        #expect(readAll(dir.file("clean.jsonl", Self.bytes(damaged: false, tail: ""))).report?.dropped == DroppedLines())

        let damaged = dir.file("damaged.jsonl", Self.bytes(damaged: true, tail: #"{"v":1,"seq":51"#))
        let salvaged = try #require(readAll(damaged, mode: .salvage).report?.dropped)
        #expect(salvaged.count == 3 && salvaged.entries.map(\.line) == [10, 20, 51] && salvaged.entries.last?.kind == .tornLine)
        let stopped = try #require(readAll(damaged, mode: .pointInTime).report?.dropped)
        #expect(stopped.entries.map(\.kind) == [.crcMismatch, .unreadTail] && stopped.entries.map(\.line) == [10, 10])
    }

    @Test func aRestoreSaysWhereTheCrashDamageItLeftOutBegins() throws {
        let dir = try ScratchDirectory()
        let events = generatedEvents(200, seed: 19, crashRate: 0)
        let now = events.last!.timestamp
        let restorer = Restorer(options: .init(crashLoopSessions: 1000))
        let clean = dir.file("clean.jsonl", logBytes(events))
        #expect(try restorer.restore(from: clean, now: now).tornTail == nil)
        // The restore reads forward from the last session's start, a line it finds going back:
        // the damage is named by its line in the file all the same.
        let torn = dir.file("torn.jsonl", logBytes(events) + Array(#"{"v":1,"seq":201,"ts":"#.utf8))
        let tail = try #require(try restorer.restore(from: torn, now: now).tornTail)
        #expect(tail.file == torn && tail.line == 201 && tail.kind == .tornLine)
        #expect(tail.offset == logBytes(events).count)
    }
}
