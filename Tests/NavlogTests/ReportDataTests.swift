import Foundation
import Testing
import NavigationAnalytics
@testable import NavigationHistory
@testable import navlog

/// The report's data gathered over chunks of a log at once is the data gathered in order.
@Suite struct ReportDataTests {
    @Test(arguments: [2, 5])
    func theReportGatheredInChunksIsTheReportGatheredInOrder(threads: Int) throws {
        let directory = NSTemporaryDirectory() + "navlog-report-data-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/log.jsonl"
        var generator = LogGenerator(seed: 9, crashRate: 0.3)
        try generator.writeLog(to: path, events: 5000)
        var options = ReportData.Options()
        options.recent = 4
        options.funnels = [["home", "recipe", "reviews"]]
        // Two sessions named, to be kept whatever chunk they are in.
        var ids: [String] = []
        try LogReader(path: path).read { event in if ids.last != event.session { ids.append(event.session) } }
        options.sessions = [ids[10], ids[ids.count / 2]]
        func gathered(threads: Int) throws -> (json: [UInt8], sessions: Int, chunks: Int) {
            var data = ReportData(options: options)
            try data.gather(path, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(), idle: .seconds(120),
                            threads: threads, chunkedFrom: 0)
            return (data.json(path: path, filter: AnalyticsFilter()), data.sessions.count, data.chunks)
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
        // A line of a named session damaged, for salvage to skip: a byte of its crc changed.
        let damaged = ids[ids.count / 3]
        var lines = try String(contentsOfFile: files[files.count / 3], encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let ofSession = lines.indices.filter { lines[$0].contains("\"session\":\"\(damaged)\"") && !lines[$0].contains("snapshot") }
        let line = ofSession[4]   // within the step limit
        let damagedSeq = try #require(Int(lines[line].split(separator: ",")[1].dropFirst("\"seq\":".count)))
        lines[line] = Substring(lines[line].replacingOccurrences(of: "\"crc\":\"", with: "\"crc\":\"g"))
        try lines.joined(separator: "\n").write(toFile: files[files.count / 3], atomically: true, encoding: .utf8)

        var options = ReportData.Options()
        options.recent = 3
        options.sessions = [ids[1], damaged]
        options.maximumSteps = 30
        var expected: [String: [Int]] = [:]
        try LogReader(path: path, mode: .salvage).read { event in
            if !event.isSnapshot, expected[event.session, default: []].count < options.maximumSteps { expected[event.session, default: []].append(event.seq) }
        }
        for threads in [1, 2] {
            var data = ReportData(options: options)
            try data.gather(path, mode: .salvage, filter: AnalyticsFilter(), cleaning: PathCleaning(), idle: nil, threads: threads, chunkedFrom: 0)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(data.json(path: path, filter: AnalyticsFilter()))) as? [String: Any])
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

        var options = ReportData.Options()
        options.recent = 1
        var data = ReportData(options: options)
        try data.gather(path, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(), idle: nil, threads: 1, chunkedFrom: 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(data.json(path: path, filter: AnalyticsFilter()))) as? [String: Any])
        let replay = try #require((json["replays"] as? [[String: Any]])?.first)
        #expect(replay["id"] as? String == last)
        let steps = (replay["steps"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
        #expect(steps == events.filter { $0.session == last }.map(\.seq))
    }
}
