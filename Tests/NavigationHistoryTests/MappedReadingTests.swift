import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// Reading through memory mappings (``LogReader/mapsFiles``), which a tool turns on, against
/// reading through copies.
@Suite struct MappedReadingTests {
    @Test func readersCopyFilesUnlessAToolTurnsMappingOn() {
        #expect(!LogReader.mapsFilesByDefault)
        #expect(!LogReader(path: "log.jsonl").mapsFiles)
    }

    /// Logs with every kind of damage the reader tells apart, each as bytes.
    static func damagedLogs() -> [(name: String, bytes: [UInt8])] {
        let clean = generatedEvents(3000, seed: 21)
        var flipped = clean.map { LineEncoder.encode($0) }
        for index in [0, 700, 1501, 2998] { flipped[index][25] ^= 0x02 }
        flipped[2999].removeLast(7)
        let long = Array(#"{"v":1,"seq":3001,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"x","pad":""#.utf8)
            + [UInt8](repeating: 0x61, count: 150_000)
        let after = LineEncoder.encode(NavigationEvent(seq: 3002, timestamp: clean[2999].timestamp, session: "s",
                                                       action: .sessionEnd(reason: nil)))
        return [
            ("clean", logBytes(clean)),
            ("flipped and torn", flipped.flatMap { $0 }),
            ("zero-filled tail", logBytes(clean) + [UInt8](repeating: 0, count: 70_000)),
            ("over-long line", logBytes(clean) + long + Array("\"}\n".utf8) + after),
            ("over-long torn line", logBytes(clean) + long),
            ("no newline at all", [UInt8](repeating: 0x7B, count: 200_000)),
        ]
    }

    @Test func readingThroughMappingsFindsWhatReadingThroughCopiesFinds() throws {
        let dir = try ScratchDirectory()
        for (name, bytes) in Self.damagedLogs() {
            let path = dir.file(name + ".jsonl", bytes)
            for mode in [RecoveryMode.salvage, .tolerateTornTail, .pointInTime, .absolute] {
                for (threads, block) in [(1, 66_000), (2, 66_001), (2, 300_000), (1, 4 << 20)] {
                    let copied = readAll(path, mode: mode, threads: threads, blockSize: block)
                    let mapped = readAll(path, mode: mode, threads: threads, blockSize: block, mapsFiles: true)
                    let context = "\(name), \(mode), threads \(threads), block \(block)"
                    #expect(mapped.events == copied.events, "\(context)")
                    #expect(mapped.report.map { String(describing: $0) } == copied.report.map { String(describing: $0) }, "\(context)")
                    #expect(mapped.error?.description == copied.error?.description, "\(context)")
                }
            }
        }
    }

    @Test func readingFromAPositionThroughAMappingFindsWhatACopyFinds() throws {
        let dir = try ScratchDirectory()
        let events = generatedEvents(2000, seed: 5)
        let bytes = logBytes(events)
        let path = dir.file("log.jsonl", bytes)
        let starts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        for line in [1, 2, 999, 1500, 2000] {
            let start = EventPosition(file: 0, offset: starts[line - 1], line: line)
            var seen: [[Int]] = []
            for maps in [false, true] {
                var reader = LogReader(path: path, threads: 1, blockSize: 70_000)
                reader.mapsFiles = maps
                var seqs: [Int] = []
                _ = try reader.scan(files: [path], segmented: false, from: start) { event, _ in
                    seqs.append(event.seq)
                    return true
                }
                seen.append(seqs)
            }
            #expect(seen[0] == Array(line...2000), "from line \(line)")
            #expect(seen[1] == seen[0], "from line \(line)")
        }
    }

    @Test(arguments: [(1, 70_000), (2, 1 << 20)])
    func aFileThatShrinksWhileItIsReadEndsTheReadingWithAnIOErrorNotACrash(threads: Int, block: Int) throws {
        let dir = try ScratchDirectory()
        let bytes = logBytes(generatedEvents(15_000, seed: 9))
        #expect(bytes.count > 2 * block)
        // Mappings are given back: many readings before this one leave the guard its slots.
        let small = dir.file("small.jsonl", logBytes(generatedEvents(20)))
        for _ in 0..<300 { #expect(readAll(small, mapsFiles: true).events.count == 20) }
        for mode in [RecoveryMode.salvage, .tolerateTornTail] {
            let path = dir.file("log.jsonl", bytes)
            var reader = LogReader(path: path, mode: mode, threads: threads, blockSize: block)
            reader.mapsFiles = true
            var delivered = 0
            do {
                _ = try reader.read { _ in
                    delivered += 1
                    // Cut the file under the window being read: its later pages are gone.
                    if delivered == 1 { #expect(truncate(path, 1000) == 0) }
                }
                Issue.record("the reading of a file cut under it ended without an error (\(mode), \(delivered))")
            } catch let error as NavigationHistoryError {
                #expect(error.code == .io, "\(mode) \(delivered)")
                #expect(error.path == path)
                #expect(error.description.contains("shrank"), "\(error)")
            }
            #expect(delivered < 15_000)
        }
    }

    #if os(Linux)
    /// The windows a reading's workers are left to unmap are all unmapped soon after it returns,
    /// whether it read to the end or stopped at an error.
    @Test func aReadingWithWorkersLeavesNoneOfItsWindowsMapped() async throws {
        let dir = try ScratchDirectory()
        let bytes = logBytes(generatedEvents(6000, seed: 12))
        let path = dir.file("windows.jsonl", bytes)
        let damaged = dir.file("damaged.jsonl", Array(bytes[..<(bytes.count / 2)]) + [0x7B, 0x0A] + bytes[(bytes.count / 2)...])
        // Read to its end: /proc files have no size for a reading by size to go by.
        func mappings() throws -> [Substring] {
            let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile()
            return String(decoding: maps, as: UTF8.self).split(separator: "\n").filter { $0.hasSuffix(path) || $0.hasSuffix(damaged) }
        }
        for (file, mode) in [(path, RecoveryMode.tolerateTornTail), (damaged, .absolute)] {
            var reader = LogReader(path: file, mode: mode, threads: 2, blockSize: 300_000)
            reader.mapsFiles = true
            var mappedWhileRead = false
            _ = try? reader.read { event in
                if event.seq == 5000 { mappedWhileRead = (try? mappings().isEmpty) == false }
            }
            #expect(mappedWhileRead || mode == .absolute, "the reading maps its windows")
        }
        var mapped: [Substring] = []
        for _ in 0..<200 {
            mapped = try mappings()
            if mapped.isEmpty { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(mapped.isEmpty, "\(mapped)")
    }
    #endif

    @Test func aFileCutBetweenTwoWindowsEndsTheReadingWithAnIOError() throws {
        let dir = try ScratchDirectory()
        let events = generatedEvents(2000, seed: 4)
        let bytes = logBytes(events)
        let path = dir.file("log.jsonl", bytes)
        let block = 70_000
        // The first window's last line: cut the file when it is delivered, below what was read.
        let lastInWindow = bytes[..<block].filter { $0 == 0x0A }.count
        var reader = LogReader(path: path, mode: .salvage, threads: 1, blockSize: block)
        reader.mapsFiles = true
        var delivered: [Int] = []
        do {
            _ = try reader.read { event in
                delivered.append(event.seq)
                if delivered.count == lastInWindow { #expect(truncate(path, off_t(block / 2)) == 0) }
            }
            Issue.record("the reading of a file cut between windows ended without an error")
        } catch let error as NavigationHistoryError {
            #expect(error.code == .io)
            #expect(error.description.contains("shrank"), "\(error)")
        }
        #expect(delivered == Array(1...lastInWindow))
    }
}
