import Foundation
import Testing
@testable import NavigationHistory

/// Reading a log in chunks at once: where chunks begin and end, and what each is handed.
@Suite struct ChunkedReadingTests {
    /// The events each chunk was handed, with whether each ends the chunk.
    static func chunks(_ path: String, count: Int) throws -> (parts: [[(event: NavigationEvent, endsChunk: Bool)]], report: ReadReport)? {
        try LogReader(path: path).readInChunks(count: count, minimumBytes: 0, make: { _ in [(event: NavigationEvent, endsChunk: Bool)]() }) {
            part, event, endsChunk in part.append((event, endsChunk))
        }
    }

    @Test(arguments: [2, 3, 8])
    func chunksBeginAtASessionStartAndEndAtTheNextChunksFirstEvent(count: Int) throws {
        let directory = TemporaryDirectory()
        let events = generatedEvents(3000, seed: 7)
        let path = directory.file("log.jsonl", logBytes(events))
        let read = try #require(try Self.chunks(path, count: count))
        #expect(read.parts.count == count)
        var joined: [NavigationEvent] = []
        for (k, part) in read.parts.enumerated() {
            if k > 0 {
                #expect(part.first?.event.startsSession == true)
                #expect(read.parts[k - 1].last?.event == part.first?.event)
            }
            #expect(part.dropLast().allSatisfy { !$0.endsChunk })
            #expect(part.last?.endsChunk == (k < read.parts.count - 1))
            joined += part.dropLast(k < read.parts.count - 1 ? 1 : 0).map(\.event)
        }
        #expect(joined == events)
        let inOrder = try LogReader(path: path).read { _ in }
        #expect(read.report.events == inOrder.events)
        #expect(read.report.sessions == inOrder.sessions)
        #expect(read.report.bytes == inOrder.bytes)
        #expect(read.report.firstSeq == 1 && read.report.lastSeq == 3000)
    }

    @Test func aLogWithOneSessionIsOneChunk() throws {
        let directory = TemporaryDirectory()
        let events = generatedEvents(3000, seed: 7).enumerated().map { k, event in
            var event = event
            if k > 0, event.startsSession { event.action = .sessionEnd(reason: nil) }
            return event
        }
        let path = directory.file("log.jsonl", logBytes(events))
        let read = try #require(try Self.chunks(path, count: 4))
        #expect(read.parts.count == 1)
        #expect(read.parts[0].map(\.event) == events)
    }

    @Test func aChunkThatMeetsADefectLeavesTheLogToAReadingInOrder() throws {
        let directory = TemporaryDirectory()
        var events = generatedEvents(3000, seed: 7)
        events.remove(at: 2500)   // a seq gap in the last chunk
        let path = directory.file("log.jsonl", logBytes(events))
        #expect(try Self.chunks(path, count: 2) == nil)
    }
}
