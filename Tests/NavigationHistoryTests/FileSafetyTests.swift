import Dispatch
import Foundation
import Testing
@testable import NavigationHistory
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A log directory is input like any other: each of its files may be a symbolic link, a FIFO, a
/// directory or a hard link to a file elsewhere. Nothing is followed, waited for or written through.
@Suite struct FileSafetyTests {
    /// A log directory with one segment of `count` events written by the store.
    func storeLog(_ dir: ScratchDirectory, events count: Int = 5) throws -> String {
        let path = dir.path + "/log"
        let log = try EventLog(directory: path, options: .init(durability: .none))
        for _ in 0..<count { try log.append(.sceneOpen(scene: "main", kind: nil), session: "s") }
        try log.close()
        return path
    }

    func expectRefused(_ code: NavigationHistoryError.Code = .noInput, saying text: String, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            guard let error = error as? NavigationHistoryError else { return false }
            return error.code == code && error.message.contains(text)
        }
    }

    @Test func lockFileThatIsASymlinkIsRefusedAndItsTargetKept() throws {
        let dir = try ScratchDirectory()
        let victim = dir.file("victim", Array("precious\n".utf8))
        let log = try storeLog(dir)
        try FileManager.default.removeItem(atPath: log + "/LOCK")
        try FileManager.default.createSymbolicLink(atPath: log + "/LOCK", withDestinationPath: victim)
        expectRefused(saying: "symbolic link") { _ = try EventLog(directory: log) }
        expectRefused(saying: "symbolic link") { _ = try EventLog.repair(log) }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test func lockFileWithAnotherHardLinkIsNotWrittenThrough() throws {
        let dir = try ScratchDirectory()
        let victim = dir.file("victim", Array("precious\n".utf8))
        let log = try storeLog(dir)
        try FileManager.default.removeItem(atPath: log + "/LOCK")
        #expect(link(victim, log + "/LOCK") == 0)
        expectRefused(saying: "hard links") { _ = try EventLog(directory: log) }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test func segmentThatIsASymlinkIsNeitherReadNorAppendedTo() throws {
        let dir = try ScratchDirectory()
        let log = try storeLog(dir)
        let segment = log + "/00000001.jsonl", moved = dir.path + "/outside.jsonl"
        try FileManager.default.moveItem(atPath: segment, toPath: moved)
        try FileManager.default.createSymbolicLink(atPath: segment, withDestinationPath: moved)
        let before = try Data(contentsOf: URL(fileURLWithPath: moved))
        expectRefused(saying: "symbolic link") { try LogReader(path: log).read { _ in } }
        expectRefused(saying: "symbolic link") {
            let opened = try EventLog(directory: log)
            try opened.append(.sceneOpen(scene: "other", kind: nil), session: "s")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == before)
    }

    @Test func fifoNamedLikeASegmentIsRefusedWithoutWaiting() throws {
        let dir = try ScratchDirectory()
        let log = try storeLog(dir)
        let fifo = log + "/00000002.jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Should a reading wait for a writer, a writer comes and goes every few seconds until the
        // test ends, so that the test fails by its clock rather than hanging.
        let done = Locked(false)
        defer { done.withLock { $0 = true } }
        Thread.detachNewThread {
            while !done.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: 4)
                let writer = open(fifo, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { close(writer) }
            }
        }
        let start = ContinuousClock.now
        expectRefused(saying: "FIFO") { try LogReader(path: log).read { _ in } }
        expectRefused(saying: "FIFO") { _ = try EventLog(directory: log) }
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test func directoryNamedLikeASegmentIsRefused() throws {
        let dir = try ScratchDirectory()
        let log = try storeLog(dir)
        try FileManager.default.createDirectory(atPath: log + "/00000002.jsonl", withIntermediateDirectories: false)
        expectRefused(saying: "a directory, not a regular file") { try LogReader(path: log).read { _ in } }
        expectRefused(saying: "a directory, not a regular file") { _ = try EventLog(directory: log) }
    }

    @Test func singleFileThatIsASymlinkIsReadAsTheFileItNames() throws {
        let dir = try ScratchDirectory()
        let file = dir.file("log.jsonl", logBytes(generatedEvents(20)))
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link.jsonl", withDestinationPath: file)
        #expect(try LogReader(path: dir.path + "/link.jsonl").read { _ in }.events == 20)
    }

    @Test func symlinkLoopIsReportedAsALoopNotAsMissing() throws {
        let dir = try ScratchDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/a", withDestinationPath: dir.path + "/b")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/b", withDestinationPath: dir.path + "/a")
        expectRefused(saying: "loop of symbolic links (ELOOP)") { try LogReader(path: dir.path + "/a").read { _ in } }
    }

    @Test func directoryOfOtherFilesIsNotReadAsAnEmptyLog() throws {
        let dir = try ScratchDirectory()
        _ = dir.file("notes.txt", Array("hello\n".utf8))
        expectRefused(saying: "not a log directory") { try LogReader(path: dir.path).read { _ in } }
        // An empty directory is an empty log, as the store leaves one.
        let empty = try ScratchDirectory()
        #expect(try LogReader(path: empty.path).read { _ in }.events == 0)
    }

    @Test func tornTailLongerThanTheBoundKeepsOnlyItsPrefixAndSaysHowLongItWas() throws {
        let dir = try ScratchDirectory()
        let log = try storeLog(dir)
        let segment = log + "/00000001.jsonl"
        let size = FileSystem.status(segment)!.size
        #expect(truncate(segment, off_t(size + 3 << 20)) == 0)   // 3 MiB of zeros, as preallocation leaves
        let done = try EventLog.repair(log)
        #expect(done.removedBytes == 3 << 20)
        #expect(FileSystem.status(segment)!.size == size)
        let kept = try #require(done.savedTo)
        #expect(FileSystem.status(kept)!.size == Opening.keptTornBytes)
        #expect(done.keptBytes == Opening.keptTornBytes)
        #expect(try LogReader(path: log).read { _ in }.events == 6)
    }
}
