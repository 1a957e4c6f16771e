import Foundation
@testable import NavigationHistory
import NavigationSimulation
import TestSupport
import Testing

/// A log removed while it is followed: waited for, followed on when it is moved back, and another
/// in its place ends the following with `rewritten`.
extension SubscriptionTests {
    @Test(arguments: [true, false], [true, false])
    func aCursorWaitsForItsRemovedLogAndThrowsRewrittenForAnotherInItsPlace(directory: Bool, seesTheRemoval: Bool) throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + (directory ? "/app.navlog" : "/app.jsonl")
        let last = try writeLog(directory: directory, at: path, seed: 1)
        let cursor = FollowCursor(path: path, beginning: .oldest)
        #expect(try pollAll(cursor) == Array(1...last))
        try FileManager.default.removeItem(atPath: path)
        if seesTheRemoval {
            #expect(try cursor.poll().isEmpty)
            #expect(cursor.absence == .removed)
            #expect(try cursor.poll().isEmpty, "still waiting")
            #expect(cursor.watchTargets.directories == [scratch.path], "the directory the log comes back to")
        }
        // The same events again: only the identity of what is at the path tells it is another log.
        _ = try writeLog(directory: directory, at: path, seed: 1)
        do {
            _ = try cursor.poll()
            Issue.record("a log written anew in place of the one followed was read on")
        } catch let error as NavigationHistoryError {
            #expect(error.code == .rewritten)
            #expect(error.description == "\(path): the log changed underneath its reader: it was removed and another written in its place while it was followed")
        }
    }

    @Test func aLogDirectoryMadeAgainWhereTheOneFollowedWasIsAnotherThoughItMayGetItsInodeNumber() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/empty.navlog"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let cursor = FollowCursor(path: path, beginning: .oldest)
        #expect(try cursor.poll().isEmpty, "an empty directory is an empty log")
        #expect(cursor.absence == nil)
        // Removed and made again at once, a directory often gets the inode number it had, unless
        // the first one is still open.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = #expect(throws: NavigationHistoryError.self) { try cursor.poll() }
        #expect(error?.code == .rewritten)
    }

    @Test func aCursorFollowsOnALogDirectoryMovedAwayAndBack() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/app.navlog"
        let first = try writeLog(directory: true, at: path, seed: 1)
        let cursor = FollowCursor(path: path, beginning: .oldest)
        #expect(try pollAll(cursor) == Array(1...first))
        try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
        #expect(try cursor.poll().isEmpty)
        #expect(cursor.absence == .removed)
        try FileManager.default.moveItem(atPath: path + ".moved", toPath: path)
        let log = try EventLog(directory: path, options: .init(durability: .none))
        try appendGenerated(log, 20, seed: 2)
        let last = log.nextSeq - 1
        try log.close()
        #expect(try pollAll(cursor) == Array((first + 1)...last))
        #expect(cursor.absence == nil)
    }

    @Test func aFollowerSaysOnceThatItWaitsForALogNotCreatedYetAndOnceForItsRemoval() async throws {
        try await withDeadline {
            let scratch = try ScratchDirectory()
            let path = scratch.path + "/app.navlog"
            let (notices, noticed) = AsyncStream.makeStream(of: LogWait.self)
            let (seqs, read) = AsyncStream.makeStream(of: Int.self)
            let follower = LogFollower(path: path, onWait: { noticed.yield($0) })
            let reading = Task {
                for try await event in follower.events() { read.yield(event.seq) }
            }
            var waits = notices.makeAsyncIterator(), seen = seqs.makeAsyncIterator()
            #expect(await waits.next() == .notCreated)
            let first = try writeLog(directory: true, at: path, seed: 1)
            for seq in 1...first { #expect(await seen.next() == seq) }
            try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
            #expect(await waits.next() == .removed)
            // Changes beside the path wake it while it waits; it says nothing more.
            for k in 0..<5 { try FileManager.default.removeItem(atPath: scratch.file("other-\(k).txt", [0x41])) }
            try FileManager.default.moveItem(atPath: path + ".moved", toPath: path)
            let log = try EventLog(directory: path, options: .init(durability: .none))
            try appendGenerated(log, 20, seed: 2)
            for seq in (first + 1)..<log.nextSeq { #expect(await seen.next() == seq) }
            try log.close()
            reading.cancel()
            _ = await reading.result
            noticed.finish()
            #expect(await waits.next() == nil, "nothing more was said")
        }
    }
}

/// Writes a log at `path` — a log directory, or a single `.jsonl` file — of events generated from
/// `seed`; returns its last seq.
private func writeLog(directory: Bool, at path: String, seed: UInt64) throws -> Int {
    guard directory else {
        let created = FileManager.default.createFile(atPath: path, contents: Data(logBytes(generatedEvents(30, seed: seed))))
        #expect(created)
        return 30
    }
    let log = try EventLog(directory: path, options: .init(durability: .none))
    try appendGenerated(log, 30, seed: seed)
    let last = log.nextSeq - 1
    try log.close()
    return last
}

/// The seqs `cursor` hands over until it has nothing more.
private func pollAll(_ cursor: FollowCursor) throws -> [Int] {
    var seqs: [Int] = []
    while case let events = try cursor.poll(), !events.isEmpty { seqs += events.map(\.seq) }
    return seqs
}
