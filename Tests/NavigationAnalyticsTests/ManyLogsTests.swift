import Foundation
import Testing
@testable import NavigationAnalytics
@testable import NavigationHistory
import NavigationSimulation

/// Queries over many logs answer as one query fed every log's views in turn: what SQL over the
/// logs' exports concatenated computes (`Tools/many-logs-check.py` checks that against DuckDB).
@Suite struct ManyLogsTests {
    /// Every query's answer over `paths`, run over the logs at once or (`reference`) fed by hand
    /// with each log's views and session ends in turn.
    static func answers(_ paths: [String], reference: Bool) throws -> [String] {
        var answers: [String] = []
        func add<Query: ViewQuery>(_ query: Query) throws {
            if reference {
                var fed = query
                for path in paths {
                    try ViewStream.read(path, endings: { fed.endSession($0, ending: $1) }) { fed.add($0) }
                }
                answers.append("\(fed.finalize())")
            } else {
                answers.append("\(try ViewStream.run(query, over: paths).result)")
            }
        }
        try add(PathsQuery(length: 3))
        try add(FunnelQuery(steps: ["home", "category", "recipe"]))
        try add(FunnelQuery(steps: ["home", "recipe"], mode: .strict, entry: .any, window: .seconds(600)))
        try add(ScreensQuery())
        try add(TransitionsQuery())
        try add(FlowQuery(steps: 4, top: 3))
        try add(ExitsQuery(crashPaths: 3))
        try add(DepthQuery())
        try add(TabsQuery())
        try add(BouncesQuery(within: .seconds(5)))
        return answers
    }

    /// A generated log: one file, or a directory of segments.
    static func generatedLog(events: Int, seed: UInt64, segmented: Bool) throws -> String {
        let path = logDirectory + "/" + UUID().uuidString + (segmented ? "" : ".jsonl")
        var generator = LogGenerator(seed: seed, crashRate: 0.2)
        try generator.writeLog(to: path, events: events, segmentSize: 96 << 10)
        return path
    }

    @Test func manyLogsAnswerAsOneQueryFedEachLogsViewsInTurn() throws {
        let paths = try [Self.generatedLog(events: 6000, seed: 11, segmented: false), Self.generatedLog(events: 4000, seed: 12, segmented: true),
                         Self.generatedLog(events: 5000, seed: 13, segmented: false)]
        let many = try Self.answers(paths, reference: false)
        #expect(many == (try Self.answers(paths, reference: true)))
        let run = try ViewStream.run(ScreensQuery(), over: paths)
        #expect(run.logs.map(\.path) == paths)
        #expect(run.logs.map(\.report.events) == [6000, 4000, 5000])
        #expect(run.repeatedSessions.isEmpty)
    }

    @Test func manyLargeLogsForEachCoreAreReadOnePerCoreAndAFewOrOneLargerThanTheRestInChunks() {
        let large = LogReader.chunkedBytes * 5 / 2
        // 40 devices' logs on 2 cores: 20 each, in order, rather than 40 times on both in chunks.
        #expect(!ViewStream.readsInTurn(sizes: Array(repeating: large, count: 40), cores: 2))
        #expect(ViewStream.readsInTurn(sizes: Array(repeating: large, count: 40), cores: 8))
        #expect(ViewStream.readsInTurn(sizes: Array(repeating: large, count: 4), cores: 2))
        // One log as large as all the others: read alone on one core, it would take longest.
        #expect(ViewStream.readsInTurn(sizes: [40 * large] + Array(repeating: large, count: 39), cores: 2))
        // Small logs are never read in chunks.
        #expect(!ViewStream.readsInTurn(sizes: Array(repeating: LogReader.chunkedBytes / 2, count: 3), cores: 2))
    }

    @Test func aSessionIdAnotherLogUsesIsKeptApartNamedByItsLog() throws {
        let first = try Self.generatedLog(events: 5000, seed: 21, segmented: false)
        let again = try Self.generatedLog(events: 5000, seed: 21, segmented: false)   // the same log again
        let run = try ViewStream.run(ScreensQuery(), over: [first, again])
        let single = try ViewStream.run(ScreensQuery(), over: first).result
        #expect(run.result.map(\.sessions) == single.map { $0.sessions * 2 })
        #expect(run.result.map(\.views) == single.map { $0.views * 2 })
        let ids = try LogReader(path: first).read { _ in }.sessions
        #expect(run.repeatedSessions.count == ids)
        let repeated = try #require(run.repeatedSessions.first)
        #expect(repeated.logs == [0, 1])
        #expect(repeated.names == [repeated.id, repeated.id + "@2"])
        // The same answers as over the second log with its sessions renamed so on disk.
        var renamed: [UInt8] = []
        try LogReader(path: again).read { event in
            var event = event
            event.session += "@2"
            renamed += LineEncoder.encode(event)
        }
        let rewritten = logDirectory + "/" + UUID().uuidString + ".jsonl"
        FileManager.default.createFile(atPath: rewritten, contents: Data(renamed))
        #expect(try Self.answers([first, again], reference: false) == (try Self.answers([first, rewritten], reference: true)))
    }

    /// A name given to a repeated id is never an id or a name another session has: `ID@K` takes
    /// `@K` again while it is, and a log's own id that an earlier log's rename took is renamed too.
    @Test func aRepeatedIdsNameIsNoOtherSessionsIdOrName() {
        func sets(_ logs: [[String]]) -> [StringSet] {
            logs.map { ids in
                var set = StringSet()
                for id in ids { _ = set.insert(id) }
                return set
            }
        }
        // Each log's sessions as they are counted: renamed where a repeat gives them a name.
        func counted(_ logs: [[String]]) -> [String] {
            let repeated = ViewStream.repeatedSessions(sets(logs))
            return logs.enumerated().flatMap { k, ids in
                ids.map { id in
                    repeated.first { $0.id == id && $0.logs.contains(k) }.map { $0.names[$0.logs.firstIndex(of: k)!] } ?? id
                }
            }
        }
        let clash = counted([["S", "S@2"], ["S"]])
        #expect(clash == ["S", "S@2", "S@2@2"])
        let later = counted([["S"], ["S"], ["S@2"]])
        #expect(later == ["S", "S@2", "S@2@3"])
        for names in [clash, later] { #expect(Set(names).count == names.count, "\(names)") }
    }
}
