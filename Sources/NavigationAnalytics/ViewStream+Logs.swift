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
    /// Each log is read on its own with a copy of `query`: small logs, or many for each core, several
    /// at once, one per core, each in order; a few large enough to be read in chunks one at a time,
    /// each on every core, as ``run(_:over:mode:filter:cleaning:idle:progress:)`` reads one log. The
    /// copies are merged in the order of `paths` as each log ends (``ViewQuery/merge(nextLog:)``), and
    /// the result finalized. So the answer is the one the SQL of `Tools/sql` gives over the logs'
    /// exports concatenated: each log's last session ends as that log says (`open` when it has no
    /// end), never as if the next log's first session followed it. A session id found in several logs
    /// stands for different sessions: the later logs' are renamed `ID@K` (and listed in
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
    ///   Memory holds the merged answer, and the copies of the logs being read or waiting for an
    ///   earlier log to end.
    public static func run<Query: ViewQuery>(_ query: Query, over paths: [String], mode: RecoveryMode = .tolerateTornTail,
                                             filter: AnalyticsFilter = AnalyticsFilter(), cleaning: PathCleaning = PathCleaning(),
                                             idle: Duration? = nil, progress: (@Sendable (_ events: Int) -> Void)? = nil)
        throws -> (result: Query.Result, logs: [LogRead], repeatedSessions: [RepeatedSession]) {
        precondition(!paths.isEmpty, "give at least one log")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if cores > 1, readsInTurn(sizes: try paths.map { try LogFiles.size($0) }, cores: cores) {
            return try runInTurn(query, over: paths, mode: mode, filter: filter, cleaning: cleaning, idle: idle, progress: progress)
        }
        // A core per log when there are as many logs; the cores shared out when there are fewer.
        let threads = max(1, cores / paths.count)
        let merging = InOrderMerge<Query>(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: min(cores, paths.count)) { _ in
            // Each worker takes the next log not yet taken: the logs are read in about their order,
            // so the merge, which takes them in order, holds few copies waiting for an earlier log.
            while let k = merging.take() {
                merging.complete(k, Result {
                    try readOne(query, paths[k], mode: mode, filter: filter, cleaning: cleaning, idle: idle, threads: threads,
                                renaming: [:], progress: progress)
                }) { k, reading, repeated in
                    // A log that uses a session id of a log before it is read again, that id renamed.
                    try readOne(query, paths[k], mode: mode, filter: filter, cleaning: cleaning, idle: idle, threads: threads,
                                renaming: repeated, progress: progress)
                }
            }
        }
        return try merging.finish(paths)
    }

    /// Whether logs of `sizes` bytes are read one at a time, each in chunks on every one of `cores`,
    /// rather than one per core, each in order: when they are large enough to be read in chunks
    /// (on average), unless each core has at least eight times the largest of them to read.
    ///
    /// A log read in order on a core of its own needs no search for where chunks begin and no
    /// merge of chunks, and no core waits for another at the log's end: over 40 logs of 250K
    /// events on 2 cores (`Tools/bench/run --only many`), `funnel` kept 1.86 threads running or
    /// ready in chunks, 1.98 one log per core. Cores go idle only once fewer logs than cores are
    /// left, for at most the time of the largest log: an eighth of a core's share.
    static func readsInTurn(sizes: [Int], cores: Int) -> Bool {
        let total = sizes.reduce(0, +)
        return total / sizes.count >= LogReader.chunkedBytes && sizes.max()! * 8 * cores > total
    }

    /// ``run(_:over:mode:filter:cleaning:idle:progress:)`` for a few logs large enough to be read
    /// in chunks: one log at a time, each on every core in chunks as one log is, merged in order.
    private static func runInTurn<Query: ViewQuery>(_ query: Query, over paths: [String], mode: RecoveryMode, filter: AnalyticsFilter,
                                                    cleaning: PathCleaning, idle: Duration?, progress: (@Sendable (Int) -> Void)?)
        throws -> (result: Query.Result, logs: [LogRead], repeatedSessions: [RepeatedSession]) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let merging = InOrderMerge<Query>(count: paths.count)
        while let k = merging.take() {
            merging.complete(k, Result {
                if let chunked = try readOneInChunks(query, paths[k], mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                                                     threads: cores, progress: progress) { return chunked }
                return try readOne(query, paths[k], mode: mode, filter: filter, cleaning: cleaning, idle: idle, threads: cores,
                                   renaming: [:], progress: progress)
            }) { k, _, repeated in
                try readOne(query, paths[k], mode: mode, filter: filter, cleaning: cleaning, idle: idle, threads: cores,
                            renaming: repeated, progress: progress)
            }
        }
        return try merging.finish(paths)
    }

    /// Reads the log at `path` into a copy of `query` in chunks on `threads` cores, as
    /// ``run(_:over:mode:filter:cleaning:idle:progress:)`` reads one log; nil when it is not read
    /// so (too small, few session starts) or the chunks cannot stand for a reading in order.
    static func readOneInChunks<Query: ViewQuery>(_ query: Query, _ path: String, mode: RecoveryMode, filter: AnalyticsFilter,
                                                  cleaning: PathCleaning, idle: Duration?, threads: Int,
                                                  progress: (@Sendable (Int) -> Void)?) throws -> Reading<Query>? {
        guard let read = try readInChunks(query, over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                                          threads: threads, chunkedFrom: LogReader.chunkedBytes, progress: progress) else { return nil }
        var sessions = StringSet()
        for chunk in read.chunks { sessions.formUnion(chunk.stream.seen) }   // the ids its sessions' events have
        return Reading(query: read.query, report: read.report, clockWentBack: read.chunks.reduce(0) { $0 + $1.stream.clockWentBack },
                       sessions: sessions)
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
        var sink = QuerySink(query: query, for: stream)
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
        var repeats = RepeatTracker()
        for (k, ids) in sessions.enumerated() { _ = repeats.add(ids, log: k) }
        return repeats.repeated
    }

    /// Runs `body` for each of `0..<count`, several at once, and returns the results in order;
    /// throws the error of the first (in order) that failed.
    package static func inParallel<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        let results = Locked<[Result<T, any Error>?]>(Array(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { k in
            let result = Result { try body(k) }
            results.withLock { $0[k] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }
}

/// The session ids of the logs merged so far, and those that several of them use.
struct RepeatTracker {
    /// The first log of each id, and of each name given to an id used again.
    private var first: [String: Int] = [:]
    private var places: [String: Int] = [:]
    private(set) var repeated: [ViewStream.RepeatedSession] = []

    /// The ids of `ids` that an earlier log used, each with the name it is counted under in this
    /// log: `ID@K`, K the log's 1-based place among the logs — with `@K` again while that is an
    /// id or a name some log before or this one uses, so that no two sessions share a name. Adds
    /// them all, and those names, as log `log`'s.
    mutating func add(_ ids: StringSet, log: Int) -> [String: String] {
        var renaming: [String: String] = [:]
        for id in ids {
            guard let earlier = first[id] else {
                first[id] = log
                continue
            }
            var name = "\(id)@\(log + 1)"
            while first[name] != nil || ids.contains(name) { name += "@\(log + 1)" }
            first[name] = log
            renaming[id] = name
            if let place = places[id] {
                repeated[place].logs.append(log)
                repeated[place].names.append(name)
            } else {
                places[id] = repeated.count
                repeated.append(ViewStream.RepeatedSession(id: id, logs: [earlier, log], names: [id, name]))
            }
        }
        return renaming
    }
}

/// The merge of many logs' query copies in the order of their logs, as each log's reading ends:
/// a copy waits only for the logs before it, so memory holds the copies of the logs being read
/// and of those waiting for an earlier one, not one per log. One worker merges at a time.
final class InOrderMerge<Query: ViewQuery>: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var taken = 0
    private var pending: [Int: Result<ViewStream.Reading<Query>, any Error>] = [:]
    private var next = 0
    private var merging = false
    // Touched only by the one merging worker.
    private var result: Query?
    private var reads: [(report: ReadReport, clockWentBack: Int)] = []
    private var repeats = RepeatTracker()
    private var failure: (any Error)?

    init(count: Int) { self.count = count }

    /// The next log to read, nil when every one is taken.
    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard taken < count, failure == nil else { return nil }
        taken += 1
        return taken - 1
    }

    /// Hands over the reading of log `k`, and merges every reading now next in order; `reread`
    /// reads a log again with the ids an earlier log used renamed.
    func complete(_ k: Int, _ reading: Result<ViewStream.Reading<Query>, any Error>,
                  reread: (Int, ViewStream.Reading<Query>, [String: String]) throws -> ViewStream.Reading<Query>) {
        lock.lock()
        pending[k] = reading
        guard !merging else { return lock.unlock() }
        merging = true
        while let ready = pending.removeValue(forKey: next) {
            let k = next
            lock.unlock()
            merge(k, ready, reread: reread)
            lock.lock()
            next += 1
        }
        merging = false
        lock.unlock()
    }

    private func merge(_ k: Int, _ ready: Result<ViewStream.Reading<Query>, any Error>,
                       reread: (Int, ViewStream.Reading<Query>, [String: String]) throws -> ViewStream.Reading<Query>) {
        guard failure == nil else { return }
        do {
            var reading = try ready.get()
            let renaming = repeats.add(reading.sessions, log: k)
            if !renaming.isEmpty { reading = try reread(k, reading, renaming) }
            reads.append((reading.report, reading.clockWentBack))
            if result == nil { result = reading.query } else { result!.merge(nextLog: reading.query) }
        } catch {
            lock.lock()
            failure = error
            lock.unlock()
        }
    }

    /// The answer, what each of the logs at `paths` gave, and the ids several logs use; once every
    /// log is merged.
    func finish(_ paths: [String]) throws -> (result: Query.Result, logs: [ViewStream.LogRead], repeatedSessions: [ViewStream.RepeatedSession]) {
        if let failure { throw failure }
        let logs = zip(paths, reads).map { ViewStream.LogRead(path: $0, report: $1.report, clockWentBack: $1.clockWentBack) }
        return (result!.finalize(), logs, repeats.repeated)
    }
}
