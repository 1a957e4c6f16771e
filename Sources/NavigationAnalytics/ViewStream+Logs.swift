import Foundation
import NavigationHistory

extension ViewStream {
    /// What one of several logs gave to a query run over them all.
    public struct LogRead: Sendable {
        /// The log, as given.
        public var path: String
        /// The reader's report: its events, seq range and the defects `mode` tolerated.
        public var report: ReadReport
        /// How many of its views counted ended before they began (``AnalyticsView/clockWentBack``).
        public var clockWentBack: Int
    }

    /// A session id that more than one log uses: the sessions are kept apart, each log after the
    /// first one using it naming its session `ID@K`, K being that log's 1-based place among the paths.
    public struct RepeatedSession: Sendable, Hashable {
        /// The id as the logs have it.
        public var id: String
        /// The places of the logs that use it (0-based, in the order of the paths).
        public var logs: [Int]
        /// The name its session has in each of those logs, in the same order: `id` in the first.
        public var names: [String]
    }

    /// Runs `query` over the screen views of several logs — each a log directory or `.jsonl`
    /// file, as devices' logs collected after a test day are — and returns the one answer.
    ///
    /// Each log is read on its own, in order, several at once (one per core), with a copy of
    /// `query` each; the copies are merged in the order of `paths` (``ViewQuery/merge(_:)``) and
    /// the result finalized. So the answer is the one the SQL of `Tools/sql` gives over the logs'
    /// exports concatenated: each log's last session ends as that log says (`open` when it has no
    /// end), never as if the next log's first session followed it. A session id found in several
    /// logs stands for different sessions: the later logs' are renamed `ID@K` (and listed in
    /// `repeatedSessions`), which renames their exports' ids the same way for the SQL to agree.
    ///
    /// ```swift
    /// let many = try ViewStream.run(ScreensQuery(), over: ["devices/a.navlog", "devices/b.jsonl"])
    /// for log in many.logs { print(log.path, log.report.events) }
    /// ```
    ///
    /// - Parameter progress: Called now and then, from any thread, with a count of events read since.
    /// - Returns: The answer, what each log gave (in the order of `paths`), and the session ids
    ///   several logs use.
    /// - Throws: What reading the first log (in the order of `paths`) that fails throws.
    /// - Complexity: Each log is read once; a log that repeats a session id of an earlier one, twice.
    ///   Memory holds one query copy per log until the merge, and what the logs being read need.
    public static func run<Query: ViewQuery>(_ query: Query, over paths: [String], mode: RecoveryMode = .tolerateTornTail,
                                             filter: AnalyticsFilter = AnalyticsFilter(), cleaning: PathCleaning = PathCleaning(),
                                             idle: Duration? = nil, progress: (@Sendable (_ events: Int) -> Void)? = nil)
        throws -> (result: Query.Result, logs: [LogRead], repeatedSessions: [RepeatedSession]) {
        precondition(!paths.isEmpty, "give at least one log")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threads = max(1, cores / paths.count)
        @Sendable func read(_ k: Int, renaming: [String: String]) throws -> Reading<Query> {
            try readOne(query, paths[k], mode: mode, filter: filter, cleaning: cleaning, idle: idle, threads: threads,
                        renaming: renaming, progress: progress)
        }
        var readings = try inParallel(paths.count) { try read($0, renaming: [:]) }
        let repeated = repeatedSessions(readings.map(\.sessions))
        if !repeated.isEmpty {
            var renamings = [[String: String]](repeating: [:], count: paths.count)
            for session in repeated {
                for (log, name) in zip(session.logs, session.names).dropFirst() { renamings[log][session.id] = name }
            }
            let again = renamings.indices.filter { !renamings[$0].isEmpty }
            let names = renamings
            let reread = try inParallel(again.count) { try read(again[$0], renaming: names[again[$0]]) }
            for (k, reading) in zip(again, reread) { readings[k] = reading }
        }
        var logs: [LogRead] = []
        var result: Query?
        for (k, reading) in readings.enumerated() {
            logs.append(LogRead(path: paths[k], report: reading.report, clockWentBack: reading.clockWentBack))
            if result == nil { result = reading.query } else { result!.merge(reading.query) }
        }
        return (result!.finalize(), logs, repeated)
    }

    /// One log read for ``run(_:over:mode:filter:cleaning:idle:progress:)``: its query copy, not
    /// finalized, and the ids of the sessions its events belong to.
    struct Reading<Query: ViewQuery>: Sendable {
        var query: Query
        var report: ReadReport
        var clockWentBack: Int
        var sessions: StringSet
    }

    /// Reads the log at `path` in order into a copy of `query`, its events' sessions renamed as
    /// `renaming` says.
    static func readOne<Query: ViewQuery>(_ query: Query, _ path: String, mode: RecoveryMode, filter: AnalyticsFilter,
                                          cleaning: PathCleaning, idle: Duration?, threads: Int, renaming: [String: String],
                                          progress: (@Sendable (Int) -> Void)?) throws -> Reading<Query> {
        var stream = ViewStreamState(filter: filter, cleaning: cleaning, idle: idle, detailed: QuerySink.readsDetails(query),
                                     progress: progress)
        var sink = QuerySink(query: query, tracksSessions: false)
        var reader = LogReader(path: path, mode: mode, threads: threads)
        reader.keepsSessionIDs = true
        let report = try reader.read { event, position in
            guard let name = renaming[event.session] else { return try stream.consume(event, at: position, into: &sink) }
            var renamed = event
            renamed.session = name
            try stream.consume(renamed, at: position, into: &sink)
        }
        try stream.finish(into: &sink)
        return Reading(query: sink.query as! Query, report: report, clockWentBack: stream.clockWentBack, sessions: report.sessionIDs)
    }

    /// The session ids that several of `sessions` (one set per log) hold, in the order their
    /// first logs come, each with the name it gets in each log.
    package static func repeatedSessions(_ sessions: [StringSet]) -> [RepeatedSession] {
        var places: [String: [Int]] = [:]
        var order: [String] = []
        var seen = StringSet()
        for (k, ids) in sessions.enumerated() {
            for id in ids {
                if seen.insert(id) {
                    places[id] = [k]
                } else {
                    if places[id]!.count == 1 { order.append(id) }
                    places[id]!.append(k)
                }
            }
        }
        return order.map { id in
            let logs = places[id]!
            return RepeatedSession(id: id, logs: logs, names: logs.enumerated().map { $0.offset == 0 ? id : "\(id)@\($0.element + 1)" })
        }
    }

    /// Runs `body` for each of `0..<count`, several at once, and returns the results in order;
    /// throws the error of the first (in order) that failed.
    package static func inParallel<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        let results = ParallelResults<T>(count)
        DispatchQueue.concurrentPerform(iterations: count) { k in results.set(k, Result { try body(k) }) }
        return try results.values()
    }
}

/// The results of ``ViewStream/inParallel(_:_:)``, set from several threads.
private final class ParallelResults<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<T, any Error>?]

    init(_ count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ result: Result<T, any Error>) {
        lock.lock()
        results[k] = result
        lock.unlock()
    }

    func values() throws -> [T] {
        try results.map { try $0!.get() }
    }
}
