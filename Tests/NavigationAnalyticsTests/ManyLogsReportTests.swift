import Foundation
import Testing
@testable import NavigationAnalytics
@testable import NavigationHistory
import NavigationSimulation

/// The report over many logs: its aggregates are the analytics queries' over the same logs, a
/// repeated session id is kept apart and replayed from its own log, and the latest sessions are
/// those that began last across the logs.
@Suite struct ManyLogsReportTests {
    /// A generated log, one file or a directory of segments, its first event at `start`.
    static func generatedLog(events: Int, seed: UInt64, segmented: Bool = false,
                             start: Timestamp = Timestamp("2026-11-01T08:00:00.000Z")!) throws -> String {
        let path = logDirectory + "/" + UUID().uuidString + (segmented ? "" : ".jsonl")
        var generator = LogGenerator(seed: seed, crashRate: 0.2, start: start)
        try generator.writeLog(to: path, events: events, segmentSize: 96 << 10)
        return path
    }

    /// The report's data as a JSON object.
    static func object(_ result: ReportQuery.Result, path: String = "logs") throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.json(path: path, filter: AnalyticsFilter()).bytes)) as? [String: Any])
    }

    @Test func everyAggregateIsTheAnalyticsQueriesAnswerOverTheSameLogs() throws {
        let a = try Self.generatedLog(events: 6000, seed: 31)
        let b = try Self.generatedLog(events: 4000, seed: 32, segmented: true)
        let again = try Self.generatedLog(events: 3000, seed: 31)   // a's first session ids again
        let paths = [a, b, again]
        var options = ReportQuery.Options()
        options.funnels = [["home", "recipe"], ["home", "category", "recipe"]]
        let report = try ReportQuery(options: options).run(over: paths)
        #expect(report.screens == (try ViewStream.run(ScreensQuery(), over: paths).result))
        #expect(report.bounces == (try ViewStream.run(BouncesQuery(), over: paths).result))
        #expect(report.exits == (try ViewStream.run(ExitsQuery(crashPaths: options.crashPaths), over: paths).result))
        #expect(report.flow == (try ViewStream.run(FlowQuery(steps: options.steps, top: options.top), over: paths).result))
        for (funnel, steps) in zip(report.funnels, options.funnels) {
            #expect(funnel == (try ViewStream.run(FunnelQuery(steps: steps, mode: .ordered, entry: .first), over: paths).result))
        }
        // The sessions: each log's as the report of that log alone has them, in the order of the
        // logs, the repeated ids named by their log; each log's last ending as that log says.
        let repeated = report.repeatedSessions
        #expect(!repeated.isEmpty && repeated.allSatisfy { $0.logs == [0, 2] && $0.names == [$0.id, $0.id + "@3"] })
        let renamed = Set(repeated.map(\.id))
        var expected: [SessionSummary] = []
        for (k, path) in paths.enumerated() {
            expected += try ReportQuery().run(over: path).sessions.map { session in
                var session = session
                if k == 2, renamed.contains(session.id) { session.id += "@3" }
                return session
            }
        }
        #expect(report.sessions == expected)
        #expect(report.logs.map(\.path) == paths)
        #expect(report.logs.map(\.report.events) == [6000, 4000, 3000])
        #expect(report.report.events == 13000)
        let json = try Self.object(report)
        let logs = try #require(json["logs"] as? [[String: Any]])
        #expect(logs.map { $0["events"] as? Int } == [6000, 4000, 3000])
        #expect(logs.map { $0["first_seq"] as? Int } == [1, 1, 1])
        #expect((json["repeated_sessions"] as? [[String: Any]])?.count == repeated.count)
        let endings = try #require(json["sessions"] as? [String: Int])
        #expect(endings["total"] == expected.count)
        #expect(endings["unclean"] == expected.filter { $0.ending == .unclean }.count)
        #expect(endings["open"] == expected.filter { $0.ending == .open }.count)
        #expect(json["first_ts"] as? String == expected.map(\.start).min()!.description)
        #expect(json["last_ts"] as? String == expected.map(\.end).max()!.description)
    }

    @Test func aRepeatedSessionIdIsReplayedFromItsOwnLog() throws {
        let a = try Self.generatedLog(events: 3000, seed: 41)
        let other = try Self.generatedLog(events: 3000, seed: 42)
        // Another log whose sessions have a's ids, in turn: the same ids, other events.
        var ids: [String] = []
        try LogReader(path: a).read { event in if ids.last != event.session { ids.append(event.session) } }
        var names: [String: String] = [:]
        var rewritten: [UInt8] = []
        try LogReader(path: other).read { event in
            var event = event
            if names[event.session] == nil { names[event.session] = names.count < ids.count ? ids[names.count] : event.session }
            event.session = names[event.session]!
            rewritten += LineEncoder.encode(event)
        }
        let b = logDirectory + "/" + UUID().uuidString + ".jsonl"
        FileManager.default.createFile(atPath: b, contents: Data(rewritten))
        let id = ids[3]
        var options = ReportQuery.Options(recent: 0, crashed: 0, sessions: [id, id + "@2"])
        options.maximumSteps = 5000
        let report = try ReportQuery(options: options).run(over: [a, b])
        #expect(report.repeatedSessions.contains { $0.id == id && $0.logs == [0, 1] && $0.names == [id, id + "@2"] })
        func seqs(of session: String, in path: String) throws -> [Int] {
            var seqs: [Int] = []
            try LogReader(path: path).read { event in if event.session == session, !event.isSnapshot { seqs.append(event.seq) } }
            return seqs
        }
        let replays = try #require(try Self.object(report, path: "\(a) \(b)")["replays"] as? [[String: Any]])
        #expect(replays.map { $0["id"] as? String } == [id, id + "@2"])
        #expect(replays.map { $0["log"] as? String } == [a, b])
        #expect(replays.map { $0["session_in_log"] as? String } == [id, id])
        let steps = replays.map { ($0["steps"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int } }
        #expect(steps[0] == (try seqs(of: id, in: a)))
        #expect(steps[1] == (try seqs(of: id, in: b)))
        #expect(steps[0] != steps[1])
        let ending = report.sessions.first { $0.id == id + "@2" }
        #expect(ending != nil && replays[1]["ending"] as? String == ending?.ending.rawValue)
    }

    @Test func theLatestSessionsAreThoseThatBeganLastAcrossTheLogs() throws {
        // Two devices used over the same days: their sessions interleave in time.
        let a = try Self.generatedLog(events: 3000, seed: 51)
        let b = try Self.generatedLog(events: 3000, seed: 52, segmented: true, start: Timestamp("2026-11-01T10:30:00.000Z")!)
        let sessions = [try ReportQuery().run(over: a).sessions, try ReportQuery().run(over: b).sessions]
        let byStart = sessions.enumerated().flatMap { k, list in list.map { (start: $0.start, id: $0.id, log: k) } }
            .sorted { $0.start < $1.start }
        let latest = Array(byStart.suffix(7).reversed())
        #expect(Set(latest.map(\.log)) == [0, 1], "both logs among the latest")
        for paths in [[a, b], [b, a]] {
            let report = try ReportQuery(options: ReportQuery.Options(recent: 7, crashed: 0)).run(over: paths)
            let replays = try #require(try Self.object(report)["replays"] as? [[String: Any]])
            #expect(replays.map { $0["id"] as? String } == latest.map(\.id))
            #expect(replays.map { $0["log"] as? String } == latest.map { [a, b][$0.log] })
            #expect(replays.map { $0["ts"] as? String } == latest.map(\.start.description))
        }
    }

    @Test func oneLogGivesTheReportOfThatLog() throws {
        let path = try Self.generatedLog(events: 3000, seed: 61)
        let options = ReportQuery.Options(recent: 5, crashed: 0, funnels: [["home", "recipe"]])
        let one = try ReportQuery(options: options).run(over: path)
        let listed = try ReportQuery(options: options).run(over: [path])
        #expect(listed.logs.isEmpty && listed.repeatedSessions.isEmpty)
        #expect(listed.json(path: path, filter: AnalyticsFilter()).bytes == one.json(path: path, filter: AnalyticsFilter()).bytes)
    }

    /// Log names given for fewer logs than were read name those; the rest are named by their paths.
    @Test func logsPastTheNamesGivenAreNamedByTheirPaths() throws {
        let a = try Self.generatedLog(events: 800, seed: 41), b = try Self.generatedLog(events: 600, seed: 41)
        let report = try ReportQuery().run(over: [a, b])
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(report.json(path: "logs", filter: AnalyticsFilter(), logNames: ["device A"]).bytes)) as? [String: Any])
        let logs = try #require(json["logs"] as? [[String: Any]])
        #expect(logs.map { $0["path"] as? String } == ["device A", b])
        let replays = try #require(json["replays"] as? [[String: Any]])
        #expect(Set(replays.compactMap { $0["log"] as? String }) == ["device A", b])
    }
}
