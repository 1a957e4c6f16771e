import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// A hole between a log directory's segments is a defect, unless the directory's `GAPS` file
/// declares exactly those seqs missing: then the reading goes on past it with a warning naming it.
@Suite final class DeclaredGapTests {
    let scratch: ScratchDirectory
    var log: String { scratch.path + "/log" }

    /// A log of several segments with its third segment removed; returns the seqs it held.
    init() throws {
        scratch = try ScratchDirectory()
        var generator = LogGenerator(seed: 9)
        try generator.writeLog(to: scratch.path + "/log", events: 3000, segmentSize: 32 << 10, snapshotInterval: 400)
    }

    func removeThirdSegment() throws -> ClosedRange<Int> {
        let third = log + "/" + Opening.segmentName(3)
        let seqs = try SegmentBounds.read(third, size: FileSystem.status(third)!.size).seqs
        try FileManager.default.removeItem(atPath: third)
        return seqs
    }

    func declare(_ ranges: [ClosedRange<Int>]) throws {
        try FileSystem.replace(log + "/" + DeclaredGaps.fileName, with: DeclaredGaps(ranges: ranges).bytes)
    }

    @Test func anUndeclaredHoleStaysADefect() throws {
        let missing = try removeThirdSegment()
        try declare([missing.lowerBound...missing.upperBound - 1])   // not exactly the hole
        let read = readAll(log)
        #expect(read.error?.defect?.kind == .seqGap, "\(String(describing: read.error))")
    }

    @Test func aDeclaredGapIsReadPastWithAWarningNamingDirectoryAndSeqs() throws {
        let all = readAll(log).events
        let missing = try removeThirdSegment()
        try declare([missing])
        for threads in [1, 4] {
            let read = readAll(log, threads: threads)
            #expect(read.error == nil, "\(String(describing: read.error))")
            #expect(read.events == all.filter { !missing.contains($0.seq) })
            let report = try #require(read.report)
            let warning = try #require(report.warnings.first { $0.kind == .declaredGap })
            #expect(warning.file.hasSuffix(Opening.segmentName(4)) && warning.line == 1)
            #expect(warning.detail.contains("seqs \(missing.lowerBound)–\(missing.upperBound) are missing from \(log)"), "\(warning.detail)")
            #expect(report.dropped.entries.contains(warning), "every tool says it, as it says a dropped line")
        }
        // verify folds and checks snapshots: the state after the gap is the next segment's own.
        let verified = try LogReader(path: log).verify()
        #expect(verified.isClean, "\(verified.defects)")
        #expect(verified.warnings.contains { $0.kind == .declaredGap })
    }

    @Test func aGapDeclaredBeforeTheFirstSegmentIsSaidToo() throws {
        let first = log + "/" + Opening.segmentName(1)
        let seqs = try SegmentBounds.read(first, size: FileSystem.status(first)!.size).seqs
        try FileManager.default.removeItem(atPath: first)
        #expect(readAll(log).report?.warnings.isEmpty == true, "a log may begin after seq 1, as retention leaves it")
        try declare([seqs])
        let warnings = readAll(log).report?.warnings ?? []
        #expect(warnings.map(\.kind) == [.declaredGap], "\(warnings)")
    }
}
