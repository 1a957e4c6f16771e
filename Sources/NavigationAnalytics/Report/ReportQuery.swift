import Foundation
import NavigationHistory

/// Everything the HTML report shows, gathered in one pass over a log: the overview, the flow, the
/// screens, the funnels, the paths before crashes, and the sessions to replay.
///
/// The sessions to replay are not kept on the way: the reading notes where each begins, and their
/// events are read again at the end. Each step of a replay is then what its event changed, as the
/// library's fold finds it (``Result/json(path:filter:)``), so the data grows with the steps it
/// replays, not with how deep their stacks are or how many scenes are open.
///
/// ```swift
/// let result = try ReportQuery(options: .init(funnels: [["home", "recipe"]])).run(over: "app.jsonl")
/// let (data, lines, leftOut) = result.json(path: "app.jsonl", filter: AnalyticsFilter())
/// ```
public struct ReportQuery: Sendable {
    /// What the report shows, and its limits.
    public struct Options: Sendable {
        /// How many of the latest sessions are replayed, besides those named.
        public var recent: Int
        /// How many of the latest sessions that ended uncleanly are replayed, first, besides those
        /// named.
        public var crashed: Int
        /// The sessions replayed whatever their place in the log.
        public var sessions: Set<String>
        /// The funnels shown, each a list of screens (ordered, first entry: ``FunnelQuery``'s defaults).
        public var funnels: [[String]]
        /// The steps of the flow diagram.
        public var steps: Int
        /// The screens per step of the flow diagram; the rest are `other`.
        public var top: Int
        /// The screens of each path before an unclean end.
        public var crashPaths: Int
        /// The events of one session replayed at most.
        public var maximumSteps: Int
        /// The bytes of replays, their steps' lines too, the data holds at most: the sessions after are
        /// left out.
        public var maximumReplayBytes: Int

        /// Options with the report's defaults: the 10 latest sessions that crashed, then the 10
        /// latest, a flow of 5 steps of the top 6 screens, crash paths of 3 screens, 2,000 steps a
        /// session and 16 MiB of replays.
        public init(recent: Int = 10, crashed: Int = 10, sessions: Set<String> = [], funnels: [[String]] = [], steps: Int = 5, top: Int = 6,
                    crashPaths: Int = 3, maximumSteps: Int = 2000, maximumReplayBytes: Int = 16 << 20) {
            (self.recent, self.crashed, self.sessions, self.funnels, self.steps, self.top) = (recent, crashed, sessions, funnels, steps, top)
            (self.crashPaths, self.maximumSteps, self.maximumReplayBytes) = (crashPaths, maximumSteps, maximumReplayBytes)
        }
    }

    /// Why a session is replayed: named (``Options/sessions``), among the latest that ended
    /// uncleanly (``Options/crashed``), or among the latest (``Options/recent``).
    public enum Reason: String, Sendable {
        /// Named with ``Options/sessions``.
        case named
        /// Among the latest that ended uncleanly.
        case crashed
        /// Among the latest.
        case recent
    }

    /// What the report's data leaves out of the sessions it was to replay, to stay small.
    public struct LeftOut: Sendable {
        /// A session of which only the first events are replayed.
        public struct Cut: Sendable, Equatable {
            /// The session's id.
            public var id: String
            /// The events replayed.
            public var replayed: Int
            /// The events the session has.
            public var events: Int
            /// Whether the data's bytes ran out (``Options/maximumReplayBytes``), rather than the
            /// session's own limit of steps (``Options/maximumSteps``).
            public var bytesRanOut: Bool
            /// The place of the session's log among several (0-based); 0 for one log.
            public var log: Int
            /// The session's id in its log: ``id`` but for a session id an earlier log used, which
            /// ``id`` names `ID@K`.
            public var idInLog: String

            /// A session `id` of which `replayed` of its `events` are replayed, from the log at
            /// place `log` (where its id is `idInLog`, by default `id`).
            public init(id: String, replayed: Int, events: Int, bytesRanOut: Bool, log: Int = 0, idInLog: String? = nil) {
                (self.id, self.replayed, self.events, self.bytesRanOut) = (id, replayed, events, bytesRanOut)
                (self.log, self.idInLog) = (log, idInLog ?? id)
            }
        }

        /// A session left out whole.
        public struct Omitted: Sendable, Equatable {
            /// The session's id.
            public var id: String
            /// The events it has.
            public var events: Int

            /// A session `id` of `events` events left out.
            public init(id: String, events: Int) { (self.id, self.events) = (id, events) }
        }

        /// The sessions of which only the first events are replayed, in the order of the replays.
        public var cut: [Cut]
        /// The sessions left out, in the order of the replays.
        public var omitted: [Omitted]

        /// What is left out: sessions `cut`, and sessions `omitted`.
        public init(cut: [Cut] = [], omitted: [Omitted] = []) { (self.cut, self.omitted) = (cut, omitted) }
    }

    /// What the report shows, gathered: the input of ``Result/json(path:filter:logNames:fileName:)``.
    public struct Result: Sendable {
        /// The reader's report: events, seq range, defects tolerated. Over several logs, their
        /// counts added up and no seq range: ``logs`` has each log's report.
        public internal(set) var report: ReadReport
        /// The sessions the filters admit by their app, id and start time, in log order (a session
        /// spans scenes, so the scene filter does not apply to it); over several logs, in the
        /// order of the logs, a session id an earlier log used named `ID@K` in the K-th.
        public internal(set) var sessions: [SessionSummary]
        /// What each log gave, in the order of the paths, when the report was gathered over
        /// several logs; empty over one.
        public internal(set) var logs: [ViewStream.LogRead] = []
        /// The session ids several logs use, kept apart (empty over one log).
        public internal(set) var repeatedSessions: [ViewStream.RepeatedSession] = []
        /// Views, sessions and dwell per screen.
        public var screens: [ScreensQuery.Row] { gathered.screens }
        /// Pushes and bounces per screen.
        public var bounces: [BouncesQuery.Row] { gathered.bounces }
        /// Exits per screen, and the paths before unclean ends.
        public var exits: ExitsQuery.Result { gathered.exits }
        /// The first steps of every path.
        public var flow: [FlowQuery.Row] { gathered.flow }
        /// The funnels of ``Options/funnels``, in order.
        public var funnels: [[FunnelQuery.Row]] { gathered.funnels }
        /// How many of the views ended before they began (the clock went back while they were visible).
        public internal(set) var clockWentBack: Int
        /// In how many chunks the log was read at once; 1 when in order or over several logs.
        package internal(set) var chunks: Int
        /// The options it was gathered with.
        public let options: Options
        var gathered: ReportGathering.Result
        /// The sessions to replay with their events: the named ones, then the latest that ended
        /// uncleanly, then the latest, each latest first.
        var replays: [ReportReplay]
    }

    /// What the report shows, and its limits.
    public var options: Options

    /// A query with `options`.
    public init(options: Options = Options()) { self.options = options }

    /// Reads the log at `path` once, on every core when it is large, then the sessions to replay
    /// again, from where each began.
    ///
    /// - Parameters:
    ///   - mode: The recovery mode of both readings.
    ///   - filter: Which views count; the overview's sessions are those it admits by app, id and
    ///     start time.
    ///   - progress: Called now and then, from any thread, with a count of events read since.
    /// - Throws: What reading the log throws in `mode`.
    public func run(over path: String, mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                    cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil,
                    progress: (@Sendable (_ events: Int) -> Void)? = nil) throws -> Result {
        try run(over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                threads: ProcessInfo.processInfo.activeProcessorCount, chunkedFrom: LogReader.chunkedBytes, progress: progress)
    }

    /// Reads several logs — each a log directory or `.jsonl` file — each on its own, as
    /// ``ViewStream/run(_:over:mode:filter:cleaning:idle:progress:)`` reads them for any query, then
    /// the sessions to replay again, each from its own log.
    ///
    /// Every aggregate is the one the analytics queries give over the same logs: each log's last
    /// session ends as that log says, and a session id an earlier log used is kept apart, named
    /// `ID@K` in the K-th log (``Result/repeatedSessions``); ``Options/sessions`` may name it so.
    /// The ``Options/crashed`` and ``Options/recent`` sessions replayed are those that began last
    /// (by their first event's time) among each log's latest. Over one path, the report of that log.
    ///
    /// ```swift
    /// let result = try ReportQuery().run(over: ["devices/a.navlog", "devices/b.jsonl"])
    /// for log in result.logs { print(log.path, log.report.events) }
    /// ```
    ///
    /// - Throws: What reading the first log (in the order of `paths`) that fails throws.
    public func run(over paths: [String], mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                    cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil,
                    progress: (@Sendable (_ events: Int) -> Void)? = nil) throws -> Result {
        precondition(!paths.isEmpty, "give at least one log")
        guard paths.count > 1 else {
            return try run(over: paths[0], mode: mode, filter: filter, cleaning: cleaning, idle: idle, progress: progress)
        }
        let run = try ViewStream.run(ReportGathering(options: options), over: paths, mode: mode, filter: filter, cleaning: cleaning,
                                     idle: idle, progress: progress)
        // A replay's id in its log: its name there, unless an earlier log used the id.
        var idsInLogs: [Int: [String: String]] = [:]
        for repeated in run.repeatedSessions {
            for (log, name) in zip(repeated.logs, repeated.names) { idsInLogs[log, default: [:]][name] = repeated.id }
        }
        var resolved: [Int: (files: [String], segmented: Bool)] = [:]
        let replays = try run.result.replays.map { replay in
            if resolved[replay.log] == nil { resolved[replay.log] = try LogFiles.resolve(paths[replay.log]) }
            let (files, segmented) = resolved[replay.log]!
            var read = try replay.readingEvents(of: paths[replay.log], files: files, segmented: segmented, mode: mode)
            read.idInLog = idsInLogs[replay.log]?[replay.id] ?? replay.id
            return read
        }
        var report = ReadReport(mode: mode)
        for log in run.logs { report.add(log.report) }
        return Result(report: report, sessions: admitted(run.result.sessions, by: filter),
                      logs: run.logs, repeatedSessions: run.repeatedSessions,
                      clockWentBack: run.logs.reduce(0) { $0 + $1.clockWentBack }, chunks: 1, options: options,
                      gathered: run.result, replays: replays)
    }

    /// The sessions `filter` admits by their app, id and start time (not by scene: a session
    /// spans scenes).
    private func admitted(_ sessions: [SessionSummary], by filter: AnalyticsFilter) -> [SessionSummary] {
        var sessionFilter = filter
        sessionFilter.scenes = []
        return sessions.filter { sessionFilter.admits(start: $0.start, app: $0.app, session: $0.id, scene: "") }
    }

    /// ``run(over:mode:filter:cleaning:idle:progress:)`` in `threads` chunks when the log holds at
    /// least `chunkedFrom` bytes (what tests use to read small logs in chunks).
    package func run(over path: String, mode: RecoveryMode, filter: AnalyticsFilter, cleaning: PathCleaning, idle: Duration?,
                     threads: Int, chunkedFrom: Int, progress: (@Sendable (Int) -> Void)? = nil) throws -> Result {
        let run = try ViewStream.run(ReportGathering(options: options), over: path, mode: mode, filter: filter, cleaning: cleaning,
                                     idle: idle, threads: threads, chunkedFrom: chunkedFrom, progress: progress)
        let (files, segmented) = try LogFiles.resolve(path)
        let replays = try run.result.replays.map { try $0.readingEvents(of: path, files: files, segmented: segmented, mode: mode) }
        return Result(report: run.report, sessions: admitted(run.result.sessions, by: filter), clockWentBack: run.clockWentBack, chunks: run.chunks, options: options,
                      gathered: run.result, replays: replays)
    }
}

extension ReadReport {
    /// Adds what `other`, the report of another log, counted: its events, sessions, files, bytes,
    /// defects and warnings; its torn tail, stop and first anomaly when this one has none. The
    /// seq range is left alone: seqs are a log's own.
    fileprivate mutating func add(_ other: ReadReport) {
        events += other.events
        sessions += other.sessions
        segments += other.segments
        bytes += other.bytes
        defects += other.defects.prefix(max(0, Self.maximumKept - defects.count))
        defectCount += other.defectCount
        warnings += other.warnings.prefix(max(0, Self.maximumKept - warnings.count))
        warningCount += other.warningCount
        tornTail = tornTail ?? other.tornTail
        stoppedAt = stoppedAt ?? other.stoppedAt
        anomalies += other.anomalies
        firstAnomaly = firstAnomaly ?? other.firstAnomaly
    }
}
