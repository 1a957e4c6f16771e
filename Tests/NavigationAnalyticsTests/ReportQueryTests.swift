import Foundation
import Testing
import NavigationAnalytics
@testable import NavigationHistory
import NavigationSimulation

/// The report's data gathered over chunks of a log at once is the data gathered in order.
@Suite struct ReportQueryTests {
    /// A temporary directory for one test, and a function that writes a stress log there.
    static func directory() throws -> String {
        let directory = NSTemporaryDirectory() + "navlog-report-data-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The time the report's data of `log` takes to gather and write, the data, its replays' lines
    /// and what it left out.
    static func report(_ log: StressLog, in directory: String, options: ReportQuery.Options = ReportQuery.Options())
        throws -> (time: Duration, json: [UInt8], lines: [UInt8], leftOut: ReportQuery.LeftOut) {
        let path = directory + "/\(UUID().uuidString).jsonl"
        try log.write(to: path)
        var written: (bytes: [UInt8], lines: [UInt8], leftOut: ReportQuery.LeftOut) = ([], [], ReportQuery.LeftOut())
        let time = try ContinuousClock().measure {
            written = try ReportQuery(options: options).run(over: path).json(path: path, filter: AnalyticsFilter())
        }
        return (time, written.bytes, written.lines, written.leftOut)
    }

    /// A replay embeds what each step changed: the page grows with the steps it replays, not with
    /// how deep their stacks are or how many scenes are open, and so does the time to write it.
    /// (Each step's whole state would make ten sessions of 2,100 pushes a 527 MB page.)
    @Test(.timeLimit(.minutes(3)))
    func theReportGrowsWithTheStepsItReplaysNotWithTheirStacksOrScenes() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Times are the best of three, and of up to eight while the larger log is over its bound: a
        // neighbour's load falls on some runs, a cost that grows with stacks or scenes on every one.
        func best(_ log: StressLog, within bound: Duration? = nil) throws -> (time: Duration, json: [UInt8], lines: [UInt8], leftOut: ReportQuery.LeftOut) {
            var best = try Self.report(log, in: directory)
            for run in 1..<8 where run < 3 || bound.map({ best.time >= $0 }) == true {
                let next = try Self.report(log, in: directory)
                if next.time < best.time { best = next }
            }
            return best
        }
        let shallow = try best(.longSessions(sessions: 10, pushes: 900))
        let deep = try best(.longSessions(sessions: 10, pushes: 1800), within: shallow.time * 3 + .milliseconds(100))
        #expect(deep.json.count < shallow.json.count * 21 / 10, "\(shallow.json.count) bytes, then \(deep.json.count)")
        #expect(deep.json.count < 5 << 20)
        #expect(deep.time < shallow.time * 3 + .milliseconds(100), "\(shallow.time), then \(deep.time)")
        // 2,000 steps replayed of each: as many steps over twice the scenes.
        let few = try best(.manyScenes(1000))
        let many = try best(.manyScenes(2000), within: few.time * 3 + .milliseconds(100))
        #expect(many.json.count < few.json.count * 12 / 10, "\(few.json.count) bytes, then \(many.json.count)")
        #expect(many.time < few.time * 3 + .milliseconds(100), "\(few.time), then \(many.time)")
        #expect(many.leftOut.cut.map(\.replayed) == [2000] && many.leftOut.cut.map(\.events) == [19_001])
    }

    /// The page embeds at most so many bytes of replays: the session that reaches them is cut
    /// there, and those after are left out and named.
    @Test func theReplaysThePageEmbedsAreCappedAndWhatIsLeftOutIsNamed() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = ReportQuery.Options()
        options.maximumReplayBytes = 600 << 10
        options.maximumSteps = 1500
        let report = try Self.report(.longSessions(sessions: 10, pushes: 1000), in: directory, options: options)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json)) as? [String: Any])
        let replays = try #require(json["replays"] as? [[String: Any]])
        let omitted = try #require(json["omitted"] as? [[String: Any]])
        #expect(replays.count + omitted.count == 10)
        #expect(replays.count >= 2 && !omitted.isEmpty)
        // The latest first: s9, s8, ...; all but the last replayed are whole.
        #expect(replays.map { $0["id"] as? String } == (0..<replays.count).map { "s\(9 - $0)" })
        #expect(replays.dropLast().allSatisfy { ($0["steps"] as? [Any])?.count == 1003 && $0["events"] as? Int == 1003 })
        let last = try #require(replays.last)
        #expect(((last["steps"] as? [Any])?.count ?? 0) < 1003)
        #expect(report.leftOut.cut.map(\.id) == [last["id"] as? String] && report.leftOut.cut.allSatisfy(\.bytesRanOut))
        #expect(report.leftOut.omitted.map(\.id) == omitted.compactMap { $0["id"] as? String })
        #expect(report.json.count + report.lines.count < (600 << 10) + (64 << 10), "the replays and their lines stop at the cap")
        #expect(json["recent"] as? Int == 10 && json["maximum_replay_bytes"] as? Int == 600 << 10)

        // A session longer than a session's limit is cut at it.
        options.maximumReplayBytes = 16 << 20
        let long = try Self.report(.longSessions(sessions: 2, pushes: 1600), in: directory, options: options)
        #expect(long.leftOut.cut.map { "\($0.id) \($0.replayed)/\($0.events)" } == ["s1 1500/1603", "s0 1500/1603"])
        #expect(long.leftOut.omitted.isEmpty && !long.leftOut.cut.contains(where: \.bytesRanOut))
    }

    @Test(arguments: [2, 5])
    func theReportGatheredInChunksIsTheReportGatheredInOrder(threads: Int) throws {
        let directory = NSTemporaryDirectory() + "navlog-report-data-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/log.jsonl"
        var generator = LogGenerator(seed: 9, crashRate: 0.3)
        try generator.writeLog(to: path, events: 5000)
        var options = ReportQuery.Options()
        options.recent = 4
        options.funnels = [["home", "recipe", "reviews"]]
        // Two sessions named, to be kept whatever chunk they are in.
        var ids: [String] = []
        try LogReader(path: path).read { event in if ids.last != event.session { ids.append(event.session) } }
        options.sessions = [ids[10], ids[ids.count / 2]]
        func gathered(threads: Int) throws -> (json: [UInt8], sessions: Int, chunks: Int) {
            let data = try ReportQuery(options: options).run(over: path, mode: .tolerateTornTail, filter: AnalyticsFilter(),
                                                             cleaning: PathCleaning(), idle: .seconds(120), threads: threads, chunkedFrom: 0)
            return (data.json(path: path, filter: AnalyticsFilter()).bytes, data.sessions.count, data.chunks)
        }
        let inOrder = try gathered(threads: 1)
        let chunked = try gathered(threads: threads)
        #expect(inOrder.sessions > 50)
        #expect(chunked.chunks == threads)
        let same = chunked.json == inOrder.json
        #expect(same, "the report's data is the same bytes")
    }

    /// The sessions to replay are read again at the end, from where each began: their steps are
    /// the log's events of that session (not its snapshots, not a line salvage skipped), up to
    /// the step limit.
    @Test(arguments: [false, true])
    func aReplayedSessionsStepsAreItsEventsInTheLog(segmented: Bool) throws {
        let directory = NSTemporaryDirectory() + "navlog-report-replays-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + (segmented ? "/log" : "/log.jsonl")
        var generator = LogGenerator(seed: 11, crashRate: 0.2)
        try generator.writeLog(to: path, events: 5000, segmentSize: 64 << 10, snapshotInterval: 20)
        let (files, _) = try LogFiles.resolve(path)
        var ids: [String] = []
        try LogReader(path: path).read { event in if !event.isSnapshot, ids.last != event.session { ids.append(event.session) } }
        // A line of a named session damaged, for salvage to skip: a byte of its crc changed. The
        // session: the first from a third of the log on that starts in a third of the files and
        // has five lines there.
        var lines = try String(contentsOfFile: files[files.count / 3], encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        func linesOf(_ id: String) -> [Int] {
            lines.indices.filter { lines[$0].contains("\"session\":\"\(id)\"") && !lines[$0].contains("snapshot") }
        }
        let damaged = try #require(ids[(ids.count / 3)..<(ids.count - 3)].first { id in
            let own = linesOf(id)
            return own.count >= 5 && lines[own[0]].contains("session.start")
        })
        let ofSession = linesOf(damaged)
        let line = ofSession[4]   // within the step limit
        let damagedSeq = try #require(Int(lines[line].split(separator: ",")[1].dropFirst("\"seq\":".count)))
        lines[line] = Substring(lines[line].replacingOccurrences(of: "\"crc\":\"", with: "\"crc\":\"g"))
        try lines.joined(separator: "\n").write(toFile: files[files.count / 3], atomically: true, encoding: .utf8)

        var options = ReportQuery.Options()
        options.recent = 3
        options.crashed = 0
        options.sessions = [ids[1], damaged]
        options.maximumSteps = 30
        var expected: [String: [Int]] = [:]
        try LogReader(path: path, mode: .salvage).read { event in
            if !event.isSnapshot, expected[event.session, default: []].count < options.maximumSteps { expected[event.session, default: []].append(event.seq) }
        }
        for threads in [1, 2] {
            let data = try ReportQuery(options: options).run(over: path, mode: .salvage, filter: AnalyticsFilter(), cleaning: PathCleaning(),
                                                             idle: nil, threads: threads, chunkedFrom: 0)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(data.json(path: path, filter: AnalyticsFilter()).bytes)) as? [String: Any])
            let replays = try #require(json["replays"] as? [[String: Any]])
            #expect(replays.map { $0["id"] as? String } == [ids[1], damaged] + ids.suffix(3).reversed())
            for replay in replays {
                let id = try #require(replay["id"] as? String)
                let steps = (replay["steps"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
                #expect(steps == expected[id], "\(id), \(threads) threads")
                if id == damaged { #expect(steps.first! < damagedSeq && damagedSeq < steps.last! && !steps.contains(damagedSeq), "the line skipped") }
            }
        }
    }

    /// In a file whose first line has no `crc`, no line needs one: a session replayed from a line
    /// that has one is still read as the reading in order read it, a later line without one too.
    @Test func aReplayInAFileWhoseFirstLineHasNoCRCHasTheEventsReadInOrder() throws {
        let directory = NSTemporaryDirectory() + "navlog-report-crc-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/log.jsonl"
        var generator = LogGenerator(seed: 12, crashRate: 0.2)
        let events = (1...600).map { seq in
            let draft = generator.next()
            return NavigationEvent(seq: seq, timestamp: draft.timestamp, session: draft.session, action: draft.action)
        }
        func withoutCRC(_ line: String) -> String { line.replacingOccurrences(of: #",\"crc\":\"[0-9a-f]{8}\""#, with: "", options: .regularExpression) }
        var lines = events.map { String(decoding: LineEncoder.encode($0), as: UTF8.self) }
        let last = events.last!.session
        let third = try #require(events.indices.filter { events[$0].session == last }.dropFirst(2).first)
        lines[0] = withoutCRC(lines[0])
        lines[third] = withoutCRC(lines[third])
        #expect(!lines[0].contains("\"crc\"") && !lines[third].contains("\"crc\"") && lines[1].contains("\"crc\""))
        try lines.joined().write(toFile: path, atomically: true, encoding: .utf8)

        var options = ReportQuery.Options()
        options.recent = 1
        options.crashed = 0
        let data = try ReportQuery(options: options).run(over: path, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(),
                                                         idle: nil, threads: 1, chunkedFrom: 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(data.json(path: path, filter: AnalyticsFilter()).bytes)) as? [String: Any])
        let replay = try #require((json["replays"] as? [[String: Any]])?.first)
        #expect(replay["id"] as? String == last)
        let steps = (replay["steps"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
        #expect(steps == events.filter { $0.session == last }.map(\.seq))
    }
}

/// The report's overview on a log with one session of each ending.
@Suite struct ReportLifecycleTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas/examples/valid/lifecycle-endings.jsonl").path

    @Test func theOverviewCountsEachOfTheFourEndingsAndACrashOnlyWhenUnclean() throws {
        let (bytes, _, _) = try ReportQuery(options: ReportQuery.Options()).run(over: Self.example)
            .json(path: Self.example, filter: AnalyticsFilter())
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let sessions = try #require(json["sessions"] as? [String: Int])
        #expect(sessions == ["total": 4, "clean": 1, "background": 1, "unclean": 1, "open": 1])
        // Only the session that ended in the foreground is before a crash: `c`, last on `reviews`.
        let crashes = try #require(json["crash_paths"] as? [[String: Any]])
        #expect(crashes.count == 1)
        #expect((crashes.first?["path"] as? [String])?.last == "reviews")
    }
}
