import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// Reading in order with workers decoding ahead: the events they decode are handed to the body in
/// order, borrowed, and freed by a worker after; whatever the body keeps, or however it stops the
/// reading, it sees what a reading on one thread shows.
@Suite struct ParallelDeliveryTests {
    /// A 20,000-event file, and its events as a reading on one thread hands them over.
    static func log(in directory: ScratchDirectory) throws -> (path: String, events: [NavigationEvent]) {
        let path = directory.path + "/log.jsonl"
        var generator = LogGenerator(seed: 11)
        try generator.writeLog(to: path, events: 20_000)
        var events: [NavigationEvent] = []
        try LogReader(path: path, threads: 1).read { events.append($0) }
        return (path, events)
    }

    /// A reader on `threads` threads whose windows are all decoded in parts, most by workers.
    static func reader(_ path: String, threads: Int, mapsFiles: Bool) -> LogReader {
        var reader = LogReader(path: path, threads: threads, blockSize: 256 << 10)
        reader.parallelBytes = 16 << 10
        reader.mapsFiles = mapsFiles
        return reader
    }

    @Test(arguments: [(2, false), (2, true), (4, false)])
    func eventsTheBodyKeepsAreTheEventsOfAReadingOnOneThread(threads: Int, mapsFiles: Bool) throws {
        let directory = try ScratchDirectory()
        let (path, expected) = try Self.log(in: directory)
        var kept: [NavigationEvent] = []
        let report = try Self.reader(path, threads: threads, mapsFiles: mapsFiles).read { kept.append($0) }
        #expect(report.isClean)
        #expect(kept.count == expected.count)
        #expect(kept == expected)
    }

    @Test(arguments: [1, 999, 7_777, 19_999])
    func aBodyThatThrowsStopsTheReadingAfterTheEventsBeforeIt(at count: Int) throws {
        struct Stop: Error {}
        let directory = try ScratchDirectory()
        let (path, expected) = try Self.log(in: directory)
        var kept: [NavigationEvent] = []
        #expect(throws: Stop.self) {
            try Self.reader(path, threads: 2, mapsFiles: true).read { event in
                if kept.count + 1 == count { throw Stop() }
                kept.append(event)
            }
        }
        #expect(kept == Array(expected.prefix(count - 1)))
    }

    @Test func aReadingHandsItsDiscardedValueToAWorkerToFree() throws {
        final class Probe: Sendable {
            let freed: Locked<Bool>
            init(_ freed: Locked<Bool>) { self.freed = freed }
            deinit { freed.withLock { $0 = true } }
        }
        let directory = try ScratchDirectory()
        let (path, expected) = try Self.log(in: directory)
        let freed = Locked(false)
        var reader = Self.reader(path, threads: 2, mapsFiles: false)
        reader.discarded = Locked(Probe(freed))
        var count = 0
        try reader.read { _ in count += 1 }
        #expect(count == expected.count)
        #expect(freed.withLock { $0 }, "a worker that decoded parts freed what it was handed")
    }

    /// Lines of random lengths (some longer than a part), their parts claimed from the front by
    /// this thread while `workers` threads claim from the back: the parts begin and end at line
    /// ends, and cover the lines from the range's start to its end exactly once, in order.
    @Test(arguments: [1, 3])
    func partsClaimedFromBothEndsCoverTheLinesOnce(workers: Int) throws {
        var random = SeededRandom(seed: 23)
        for round in 0..<300 {
            var lines: [UInt8] = []
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                let long = Int.random(in: 0..<20, using: &random) == 0
                lines += Array(repeating: 0x61, count: Int.random(in: 0...(long ? 3_000 : 200), using: &random)) + [0x0A]
            }
            let lineStarts = [0] + lines.indices.filter { lines[$0] == 0x0A }.map { $0 + 1 }
            let start = lineStarts.randomElement(using: &random)!
            let partBytes = Int.random(in: 1...600, using: &random)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: lines.count, alignment: 1)
            defer { buffer.deallocate() }
            buffer.copyBytes(from: lines)
            let board = PartBoard(UnsafeRawBufferPointer(buffer), start: start, end: lines.count, partBytes: partBytes)
            let group = DispatchGroup()
            for _ in 0..<workers {
                DispatchQueue.global().async(group: group) { while board.claimLast() != nil {} }
            }
            var parts: [Range<Int>] = []
            while let part = board.claimFirst() { parts.append(part) }
            group.wait()
            parts += board.workerParts().map { $0.start..<$0.end }
            let starts = Set(lineStarts)
            #expect(parts.allSatisfy { !$0.isEmpty && starts.contains($0.lowerBound) && starts.contains($0.upperBound) },
                    "round \(round): \(parts)")
            #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "round \(round): \(parts)")
            #expect((parts.first?.lowerBound ?? start) == start && (parts.last?.upperBound ?? lines.count) == lines.count,
                    "round \(round): \(parts) in \(start)..<\(lines.count)")
        }
    }
}
