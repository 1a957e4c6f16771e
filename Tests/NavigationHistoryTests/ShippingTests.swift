import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct ShippingTests {
    let helpers = EventLogTests()

    /// A log of `segments` sealed segments of `perSegment` events each, and a current one.
    func log(in path: String, segments: Int, perSegment: Int = 20, retention: Retention = .keepAll) throws -> (EventLog, [EventDraft]) {
        let log = try EventLog(directory: path, options: .init(durability: .none, retention: retention))
        let input = helpers.drafts(segments * perSegment + 3, seed: 21)
        for k in 0..<segments {
            try log.append(contentsOf: input[(k * perSegment)..<((k + 1) * perSegment)])
            try log.seal()
        }
        try log.append(contentsOf: input.suffix(3))
        return (log, input)
    }

    @Test func pendingShipmentsListsEverySealedSegmentWithItsBoundsAndNotTheCurrentOne() throws {
        let dir = try ScratchDirectory()
        let (log, _) = try log(in: dir.path + "/log", segments: 3)
        let pending = try log.pendingShipments()
        #expect(pending.shipments.map(\.fileName) == ["00000001.jsonl", "00000002.jsonl", "00000003.jsonl"])
        #expect(pending.droppedUnshipped.isEmpty && pending.cursorProblem == nil)
        var nextSeq = 1
        for shipment in pending.shipments {
            let events = try helpers.readStrictly(shipment.path).events
            #expect(shipment.seqs == events.first!.seq...events.last!.seq && shipment.seqs.lowerBound == nextSeq)
            #expect(shipment.firstTimestamp == events.first!.timestamp && shipment.lastTimestamp == events.last!.timestamp)
            #expect(shipment.byteSize == FileSystem.status(shipment.path)!.size)
            let contents = try shipment.contents()
            #expect(contents.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: shipment.path))))
            #expect(contents.sha256 == SHA256.digest(contents.bytes).hex && contents.sha256.count == 64)
            nextSeq = shipment.seqs.upperBound + 1
        }
        try log.close()
    }

    @Test func anAcknowledgedSegmentIsNotListedAgainAfterAReopenAndOrderDoesNotMatter() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        do {
            let (log, _) = try log(in: path, segments: 4)
            let pending = try log.pendingShipments().shipments
            try log.markShipped(pending[2])
            try log.markShipped(pending[0])
            #expect(try log.pendingShipments().shipments.map(\.segment) == [2, 4])
            try log.markShipped(pending[1])
            try log.markShipped(pending[1])   // again: at least once
            try log.close()
        }
        let reopened = try EventLog(directory: path)
        #expect(try reopened.pendingShipments().shipments.map(\.segment) == [4])
        let cursor = try ShippingCursor.read(directory: path)
        #expect(cursor.shippedThrough == 3 && cursor.shippedAlso.isEmpty)
        #expect(throws: NavigationHistoryError.self, "the current segment is not sealed") {
            try reopened.markShipped(Shipment(fileName: "00000005.jsonl", directory: path, segment: 5, byteSize: 1,
                                              seqs: 1...1, firstTimestamp: .now, lastTimestamp: .now))
        }
        try reopened.close()
    }

    @Test func aShippingCursorThatIsALinkIsRefusedAndGarbageShipsEverythingAgain() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let (log, _) = try log(in: path, segments: 2)
        let cursor = path + "/" + ShippingCursor.fileName
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: cursor))
        let listed = try log.pendingShipments()
        #expect(listed.shipments.count == 2 && listed.cursorProblem?.contains("not a shipping cursor") == true)
        try log.markShipped(listed.shipments[0])
        #expect(try log.pendingShipments().shipments.map(\.segment) == [2] && log.pendingShipments().cursorProblem == nil)

        let elsewhere = dir.path + "/elsewhere"
        try Data(ShippingCursor(shippedThrough: 2).text.utf8).write(to: URL(fileURLWithPath: elsewhere))
        try FileManager.default.removeItem(atPath: cursor)
        try FileManager.default.createSymbolicLink(atPath: cursor, withDestinationPath: elsewhere)
        #expect(throws: NavigationHistoryError.self) { try log.markShipped(listed.shipments[1]) }
        #expect(try log.pendingShipments().cursorProblem?.contains("symbolic link") == true, "a link is not the log's file")
        try FileManager.default.removeItem(atPath: cursor)
        #expect(link(elsewhere, cursor) == 0)
        #expect(throws: NavigationHistoryError.self) { try log.markShipped(listed.shipments[1]) }
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == ShippingCursor(shippedThrough: 2).text, "nothing written through it")
        try log.close()
    }

    @Test func retentionDeletesShippedSegmentsAndUnshippedOnesOnlyPastItsCapCountingThem() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let (log, input) = try log(in: path, segments: 6, retention: .untilShipped(keepingUnshippedUpTo: 1 << 30))
        let pending = try log.pendingShipments().shipments
        #expect(pending.count == 6, "under the cap nothing unshipped goes")
        try log.markShipped(pending[0])
        try log.markShipped(pending[1])
        #expect(try Opening.segmentNumbers(path) == [3, 4, 5, 6, 7], "shipped segments go once acknowledged")
        try log.close()

        let segmentBytes = pending[2].byteSize
        let capped = try EventLog(directory: path, options: .init(durability: .none,
                                                                  retention: .untilShipped(keepingUnshippedUpTo: 2 * segmentBytes + 10)))
        try capped.append(contentsOf: input.prefix(5))
        try capped.seal()   // segments 3 to 7 are now sealed and unshipped: the oldest three go
        let after = try capped.pendingShipments()
        #expect(after.shipments.map(\.segment) == [6, 7])
        #expect(after.droppedUnshipped.segments == 3)
        #expect(after.droppedUnshipped.bytes == pending[2].byteSize + pending[3].byteSize + pending[4].byteSize)
        #expect(after.droppedUnshipped.seqs == [pending[2].seqs.lowerBound...pending[4].seqs.upperBound])
        try capped.close()
        #expect(try ShippingCursor.read(directory: path).loss == after.droppedUnshipped, "the loss is durable")
        _ = try helpers.readStrictly(path)
    }

    @Test(arguments: [EventLog.FaultPoint.shippingCursorDirectorySynced, .segmentDeleted])
    func aCrashAtADeletionOfAnUnshippedSegmentCountsItOnce(point: EventLog.FaultPoint) throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let (log, input) = try log(in: path, segments: 3)
        let sizes = try log.pendingShipments().shipments.map(\.byteSize), size = sizes[0]
        try log.close()
        do {
            let capped = try EventLog(directory: path, options: .init(durability: .none, retention: .untilShipped(keepingUnshippedUpTo: size + 10)))
            capped.faultHook = { if $0 == point { throw NavigationHistoryError(code: .io, message: "simulated crash") } }
            try capped.append(contentsOf: input.prefix(2))
            #expect(throws: NavigationHistoryError.self) { try capped.seal() }
        }
        let again = try EventLog(directory: path, options: .init(durability: .none, retention: .untilShipped(keepingUnshippedUpTo: size + 10)))
        try again.append(contentsOf: input.prefix(2))
        try again.seal()
        let loss = try again.pendingShipments().droppedUnshipped
        #expect(loss.segments == 3 && loss.seqs.count == 1, "\(point): \(loss)")
        #expect(loss.bytes == sizes.reduce(0, +), "\(point)")
        try again.close()
    }

    @Test func aRecorderListsAndAcknowledgesOnItsWriterThread() async throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let recorder = try await Recorder(directory: path, session: "s")
        for draft in helpers.drafts(30, seed: 22) { recorder.record(draft.action, at: draft.timestamp) }
        try await recorder.seal()
        let pending = try await recorder.pendingShipments()
        #expect(pending.shipments.map(\.segment) == [1])
        try await recorder.markShipped(pending.shipments[0])
        #expect(try await recorder.pendingShipments().shipments.isEmpty)
        try await recorder.close()
    }

    @Test func theListingReadsNoSegmentAndAManifestThatLiesIsFoundOutAndRebuilt() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let (log, _) = try log(in: path, segments: 3)
        let manifest = path + "/" + SealedManifest.fileName
        #expect(SealedManifest.read(directory: path).map(\.segment) == [1, 2, 3], "each seal recorded its segment's bounds")
        let truth = try log.pendingShipments().shipments
        // The listing believes the manifest: a wrong size is listed, and contents() finds it out.
        var lines = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").map(String.init)
        var first = lines[0].split(separator: " ").map(String.init)
        first[1] = String(Int(first[1])! + 1)
        lines[0] = first.joined(separator: " ")
        try (lines.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: false, encoding: .utf8)
        let lied = try log.pendingShipments().shipments
        #expect(lied[0].byteSize == truth[0].byteSize + 1)
        #expect(throws: NavigationHistoryError.self) { try lied[0].contents() }
        #expect(!FileManager.default.fileExists(atPath: manifest), "a manifest proved wrong is removed")
        #expect(try log.pendingShipments().shipments == truth, "and the listing reads the segments again")
        #expect(SealedManifest.read(directory: path).map(\.segment) == [1, 2, 3], "then writes it anew")
        try Data("garbage\n1 2 3\n".utf8).write(to: URL(fileURLWithPath: manifest))
        #expect(try log.pendingShipments().shipments == truth)
        _ = try helpers.readStrictly(path)   // a reader ignores it
        try log.close()
    }
}
