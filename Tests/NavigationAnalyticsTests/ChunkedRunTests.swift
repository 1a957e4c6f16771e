import Foundation
import Testing
@testable import NavigationAnalytics
@testable import NavigationHistory
import NavigationSimulation

/// Queries run over chunks of a log at once answer exactly as a reading in order does.
@Suite struct ChunkedRunTests {
    /// What every query answers over `path`, read in `threads` chunks (1: in order), with the
    /// reader's report and the number of chunks each query was read in.
    struct Answers {
        var rows: [String] = []
        var report = ""
        var chunks: [Int] = []
    }

    static func answers(_ path: String, threads: Int, mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                        cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil, splitBytes: Int = LogReader.splitBytes) throws -> Answers {
        var answers = Answers()
        func add<Query: ViewQuery>(_ query: Query, _ rows: (Query.Result) -> String = { "\($0)" }) throws {
            let run = try ViewStream.run(query, over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                                         threads: threads, chunkedFrom: 0, splitBytes: splitBytes)
            answers.rows.append(rows(run.result))
            answers.chunks.append(run.chunks)
            let r = run.report
            answers.report = "\(r.events) \(String(describing: r.firstSeq)) \(String(describing: r.lastSeq)) \(r.sessions) \(r.segments) \(r.bytes) "
                + "\(r.defects) \(r.warnings) \(String(describing: r.tornTail)) \(String(describing: r.stoppedAt))"
        }
        try add(PathsQuery(length: 3))
        try add(PathsQuery(length: 2, from: "recipe"))
        try add(PathsQuery(length: 2, to: "reviews"))
        try add(FunnelQuery(steps: ["home", "category", "recipe"]))
        try add(FunnelQuery(steps: ["home", "recipe"], mode: .strict, entry: .any, window: .seconds(600)))
        try add(FunnelQuery(steps: ["home", "recipe", "reviews"], mode: .any))
        try add(ScreensQuery())
        try add(TransitionsQuery())
        try add(FlowQuery(steps: 4, top: 3))
        try add(ExitsQuery(crashPaths: 3)) { "\($0.rows) \($0.crashPaths)" }
        try add(DepthQuery())
        try add(TabsQuery()) { "\($0.rows) \($0.switches)" }
        try add(BouncesQuery(within: .seconds(5)))
        return answers
    }

    /// A generated log: one file, or a directory of small segments each beginning with a snapshot.
    static func generatedLog(events: Int, seed: UInt64, segmented: Bool) throws -> String {
        let path = logDirectory + "/" + UUID().uuidString + (segmented ? "" : ".jsonl")
        var generator = LogGenerator(seed: seed, crashRate: 0.2)
        try generator.writeLog(to: path, events: events, segmentSize: 96 << 10, snapshotInterval: 700)
        return path
    }

    /// `count` generated events, numbered from 1.
    static func generatedEvents(_ count: Int, seed: UInt64) -> [NavigationEvent] {
        var generator = LogGenerator(seed: seed, crashRate: 0.2)
        return (1...count).map { seq in
            let draft = generator.next()
            return NavigationEvent(seq: seq, timestamp: draft.timestamp, session: draft.session, action: draft.action)
        }
    }

    @Test(arguments: [(UInt64(1), false), (2, true)])
    func everyQueryAnswersInChunksAsInOrder(seed: UInt64, segmented: Bool) throws {
        let path = try Self.generatedLog(events: 4000, seed: seed, segmented: segmented)
        let options: [(AnalyticsFilter, PathCleaning, Duration?)] = [
            (AnalyticsFilter(), PathCleaning(), nil),
            (AnalyticsFilter(since: Timestamp("2026-11-02T00:00:00.000Z"), scenes: ["main"]), try PathCleaning(rules: ["^re=RE"]), .seconds(90)),
        ]
        for (filter, cleaning, idle) in options {
            let inOrder = try Self.answers(path, threads: 1, filter: filter, cleaning: cleaning, idle: idle)
            #expect(inOrder.chunks.allSatisfy { $0 == 1 })
            for threads in [2, 5] {
                let chunked = try Self.answers(path, threads: threads, filter: filter, cleaning: cleaning, idle: idle)
                #expect(chunked.chunks.allSatisfy { $0 == threads }, "every chunk of a generated log has a session.start")
                #expect(chunked.report == inOrder.report)
                for (k, rows) in chunked.rows.enumerated() {
                    #expect(rows == inOrder.rows[k], "query \(k), \(threads) chunks, idle \(String(describing: idle))")
                }
                // Chunks split for threads done early, as they come.
                let split = try Self.answers(path, threads: threads, filter: filter, cleaning: cleaning, idle: idle, splitBytes: 8 << 10)
                #expect(split.chunks.allSatisfy { $0 >= threads })
                #expect(split.report == inOrder.report)
                for (k, rows) in split.rows.enumerated() {
                    #expect(rows == inOrder.rows[k], "query \(k), \(split.chunks[k]) chunks split from \(threads), idle \(String(describing: idle))")
                }
            }
        }
    }

    @Test func aFunnelReadingViewsWhereTheyLieCountsAsFromTheirRows() throws {
        // The stream hands a funnel its views in place, numbered by part and cleaned there; the
        // rows `ViewStream.read` makes of the same views, added one by one, must count the same.
        let path = try Self.generatedLog(events: 6000, seed: 9, segmented: false)
        let cleaning = try PathCleaning(rules: ["^(recipe|reviews)$=content"])
        for (idle, cleaning) in [(nil, PathCleaning()), (Duration.seconds(45), cleaning)] {
            var reached: [Int] = []
            for query in [FunnelQuery(steps: ["home", "category", "content"]), FunnelQuery(steps: ["category", "recipe", "reviews"]),
                          FunnelQuery(steps: ["content", "content"], mode: .strict, entry: .any, window: .seconds(120)),
                          FunnelQuery(steps: ["search", "results", "recipe"], mode: .any)] {
                var fromRows = query
                try ViewStream.read(path, cleaning: cleaning, idle: idle) { fromRows.add($0) }
                for threads in [1, 2] {
                    let inPlace = try ViewStream.run(query, over: path, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: cleaning,
                                                     idle: idle, threads: threads, chunkedFrom: 0)
                    #expect(inPlace.result == fromRows.finalize(), "\(query.steps), idle \(String(describing: idle)), \(threads) threads")
                }
                reached.append(fromRows.finalize().last!.sessions)
            }
            #expect(reached.filter { $0 > 0 }.count >= 2, "\(reached)")
        }
    }

    @Test func aSessionIdUsedAgainInALaterChunkIsReadInOrder() throws {
        // The last session takes the first one's id: in order, it is that id's second part.
        var events = Self.generatedEvents(3000, seed: 4)
        let first = events[0].session, last = events[events.count - 1].session
        for k in events.indices where events[k].session == last { events[k].session = first }
        let path = logDirectory + "/" + UUID().uuidString + ".jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(events.flatMap { LineEncoder.encode($0) })))
        var parts: Set<String> = []
        try ViewStream.read(path) { parts.insert($0.session) }
        #expect(parts.contains(first + "#2"))
        let inOrder = try Self.answers(path, threads: 1)
        let chunked = try Self.answers(path, threads: 3)
        #expect(chunked.chunks.allSatisfy { $0 == 1 })
        #expect(chunked.rows == inOrder.rows)
        #expect(chunked.report == inOrder.report)
    }

    @Test func aLaterPartsNameThatIsAnotherChunksSessionIdIsReadInOrder() throws {
        // The first session's id comes again early on, so its second run is named `A#2`; a session
        // near the end has the id `A#2`. In order, their views go by one name.
        var events = Self.generatedEvents(3000, seed: 4)
        var sessions: [String] = []
        for event in events where sessions.last != event.session { sessions.append(event.session) }
        let first = sessions[0], again = sessions[2], late = sessions[sessions.count - 2]
        for k in events.indices {
            if events[k].session == again { events[k].session = first }
            if events[k].session == late { events[k].session = first + "#2" }
        }
        let path = logDirectory + "/" + UUID().uuidString + ".jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(events.flatMap { LineEncoder.encode($0) })))
        var named: [String] = []
        try ViewStream.read(path) { if named.last != $0.session { named.append($0.session) } }
        #expect(named.filter { $0 == first + "#2" }.count == 2, "the part and the id")
        let inOrder = try Self.answers(path, threads: 1)
        let chunked = try Self.answers(path, threads: 2)
        #expect(chunked.chunks.allSatisfy { $0 == 1 })
        #expect(chunked.rows == inOrder.rows)
        #expect(chunked.report == inOrder.report)
    }

    @Test func aSessionWhoseFirstViewAStoreSnapshotBeganIsReadInOrder() throws {
        // The log begins with a store snapshot of session z, which shows a screen: that view is
        // z's. The snapshot fills more than half the log, so the second chunk begins at z's
        // session.start, and z's views would be split between two chunks.
        let long = String(repeating: "x", count: 150)
        let routes = (0..<300).map { Route(screen: "recipe", id: long + "\($0)") }
        let state = NavigationState(active: "main", scenes: ["main": SceneState(tab: "home", stacks: ["home": routes])])
        let start = Timestamp("2026-10-01T08:00:00.000Z")!.millisecondsSince1970
        var events = [NavigationEvent(seq: 1, timestamp: Timestamp(millisecondsSince1970: start), session: "z", action: .snapshot(state: state))]
        let z: [NavigationAction] = [
            .sessionStart(app: "1.0", launch: .cold, meta: nil), .sceneOpen(scene: "main", kind: nil), .tabSelect(scene: "main", tab: "home"),
            .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "1")), .sessionEnd(reason: nil),
        ]
        for (k, action) in z.enumerated() {
            events.append(NavigationEvent(seq: k + 2, timestamp: Timestamp(millisecondsSince1970: start + Int64(k + 1) * 5000), session: "z", action: action))
        }
        let snapshotBytes = LineEncoder.encode(events[0]).count
        var bytes = events.flatMap { LineEncoder.encode($0) }
        for event in Self.generatedEvents(2000, seed: 6) where bytes.count < snapshotBytes * 100 / 56 {
            var event = event
            event.seq += events.count
            bytes += LineEncoder.encode(event)
        }
        let path = logDirectory + "/" + UUID().uuidString + ".jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        var sessions: [String] = []
        try ViewStream.read(path) { if sessions.last != $0.session { sessions.append($0.session) } }
        #expect(sessions.prefix(2) == ["z", "s1-" + sessions[1].dropFirst(3)] && sessions.filter { $0 == "z" }.count == 1)
        let inOrder = try Self.answers(path, threads: 1)
        let chunked = try Self.answers(path, threads: 2)
        #expect(chunked.chunks.allSatisfy { $0 == 1 })
        #expect(chunked.rows == inOrder.rows)
    }

    @Test(arguments: [RecoveryMode.salvage, .tolerateTornTail, .absolute, .pointInTime], [false, true])
    func whatAChunkFindsIsReportedAsInOrder(mode: RecoveryMode, midLogDefect: Bool) throws {
        // A 3000-event log that ends with a torn line, an unknown type (a warning) a third in,
        // and, with `midLogDefect`, a line two thirds in that lost its closing brace.
        var events = Self.generatedEvents(3000, seed: 5)
        events[1000].action = .unknown(type: "widget.open", members: [])
        var bytes = Data(events.flatMap { LineEncoder.encode($0) })
        let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
        if midLogDefect { bytes[newlines[2000] - 1] = UInt8(ascii: " ") }
        bytes.append(contentsOf: Array(#"{"v":1,"seq":3001,"ts":"#.utf8))
        let path = logDirectory + "/" + UUID().uuidString + ".jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: bytes))
        func outcome(threads: Int) -> (text: String, chunks: [Int]) {
            do {
                let answers = try Self.answers(path, threads: threads, mode: mode)
                return ("\(answers.rows) \(answers.report)", answers.chunks)
            } catch {
                return ("\(error)", [])
            }
        }
        let inOrder = outcome(threads: 1)
        let chunked = outcome(threads: 3)
        #expect(chunked.text == inOrder.text)
        #expect(inOrder.text.contains(midLogDefect ? "2001" : "3001"), "what was found is named by its line")
        // Warnings and a torn tail the mode tolerates are renumbered; defects only in salvage,
        // which reads on past them. Where a defect stops the reading, the log is read in order.
        let readInChunks = mode == .salvage || mode == .tolerateTornTail && !midLogDefect
        #expect(chunked.chunks.allSatisfy { $0 == (readInChunks ? 3 : 1) }, "\(chunked.chunks)")
    }

    @Test func aFileWhoseFirstLineHasNoCRCIsReadInOrderWhenAChunkWouldRequireOne() throws {
        // In order, the first line decides that this file's lines need no crc. A chunk that begins
        // at a line with one would require it of the lines after: here, of line 2501.
        let lines = Self.generatedEvents(3000, seed: 7).map { String(decoding: LineEncoder.encode($0), as: UTF8.self) }
        func withoutCRC(_ line: String) -> String { line.replacing(/,"crc":"[0-9a-f]{8}"\}/, with: "}") }
        var edited = lines
        edited[0] = withoutCRC(lines[0])
        edited[2500] = withoutCRC(lines[2500])
        #expect(edited[0] != lines[0] && edited[2500] != lines[2500])
        let path = logDirectory + "/" + UUID().uuidString + ".jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(edited.joined().utf8)))
        let inOrder = try Self.answers(path, threads: 1, mode: .salvage)
        let chunked = try Self.answers(path, threads: 3, mode: .salvage)
        #expect(inOrder.report.contains("[]"), "no defect in order")
        #expect(chunked.chunks.allSatisfy { $0 == 1 })
        #expect(chunked.rows == inOrder.rows)
        #expect(chunked.report == inOrder.report)
    }
}
