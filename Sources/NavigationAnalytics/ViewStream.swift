import Foundation
import NavigationHistory

/// The screen views of a log in one streaming pass, filtered: what every analytics query reads.
///
/// Views come as they end. Within one (session, scene) that is also the order they began in, which
/// is all that paths and transitions need. Views still open at the end of the log end at its last
/// event.
public enum ViewStream {
    /// Reads the log at `path` and hands each screen view that passes `filter` to `body` (and, when
    /// `events` is given, every event with its session's app version and the state after it; when
    /// `endings` is given, how each session ended, as ``ViewQuery/endSession(_:ending:)`` learns it).
    ///
    /// - Returns: The reader's report (events, seq range, defects tolerated by `mode`).
    /// - Throws: What reading the log throws in `mode`.
    @discardableResult
    public static func read(_ path: String, mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                            cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil,
                            events: ((_ event: NavigationEvent, _ app: String?, _ stateAfter: NavigationState) throws -> Void)? = nil,
                            endings: ((_ session: String, _ ending: SessionEnd) throws -> Void)? = nil,
                            _ body: (AnalyticsView) throws -> Void) throws -> ReadReport {
        var stream = ViewStreamState(filter: filter, cleaning: cleaning, idle: idle, detailed: true)
        return try withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body, events: events, endings: endings)
            return try readInOrder(path, mode: mode, &stream, into: &sink)
        }
    }

    /// Runs `query` over the screen views of the log at `path` that pass `filter`, and returns
    /// its answer.
    ///
    /// With several cores, a large log is read in chunks at once, each beginning at a
    /// `session.start`, with a copy of `query` each, merged in order at the end: so `query` must be
    /// a value that has counted nothing yet. The result is that of a reading in order, which is
    /// what happens when the chunks cannot stand for one: a defect where `mode` stops reading, a
    /// session id used again in a later chunk, a session whose first view a store snapshot began
    /// before its `session.start`, or few session starts. (Warnings, a tolerated torn tail and, in
    /// `salvage`, defects are reported as a reading in order reports them.)
    ///
    /// - Parameter progress: Called now and then, from any thread, with a count of events read
    ///   since: enough for a progress line, not an exact count.
    /// - Returns: The query's answer (``ViewQuery/finalize()``), and the reader's report (events,
    ///   seq range, defects tolerated by `mode`).
    /// - Throws: What reading the log throws in `mode`.
    public static func run<Query: ViewQuery>(_ query: Query, over path: String, mode: RecoveryMode = .tolerateTornTail,
                                             filter: AnalyticsFilter = AnalyticsFilter(), cleaning: PathCleaning = PathCleaning(),
                                             idle: Duration? = nil,
                                             progress: (@Sendable (_ events: Int) -> Void)? = nil)
        throws -> (result: Query.Result, report: ReadReport) {
        let run = try run(query, over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                          threads: ProcessInfo.processInfo.activeProcessorCount, chunkedFrom: LogReader.chunkedBytes, progress: progress)
        return (run.result, run.report)
    }

    /// ``run(_:over:mode:filter:cleaning:idle:progress:)`` in `threads` chunks when the log holds
    /// at least `chunkedFrom` bytes, a chunk split for an idle thread when it has `splitBytes` left
    /// to read (what tests use to read small logs in many chunks); also says in how many chunks it
    /// was read, 1 when in order, and how many of the views counted ended before they began
    /// (``AnalyticsView/clockWentBack``).
    package static func run<Query: ViewQuery>(_ query: Query, over path: String, mode: RecoveryMode, filter: AnalyticsFilter,
                                              cleaning: PathCleaning, idle: Duration?, threads: Int, chunkedFrom: Int,
                                              splitBytes: Int = LogReader.splitBytes,
                                              progress: (@Sendable (Int) -> Void)? = nil)
        throws -> (result: Query.Result, report: ReadReport, chunks: Int, clockWentBack: Int) {
        if let chunked = try runInChunks(query, over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                                         threads: threads, chunkedFrom: chunkedFrom, splitBytes: splitBytes, progress: progress) {
            return chunked
        }
        var stream = ViewStreamState(filter: filter, cleaning: cleaning, idle: idle, detailed: QuerySink.readsDetails(query),
                                     progress: progress)
        var sink = QuerySink(query: query, for: stream)
        let report = try readInOrder(path, mode: mode, &stream, into: &sink)
        let result = sink.query as! Query
        return (result.finalize(), report, 1, stream.clockWentBack)
    }

    /// Reads the log in order through `stream` into `sink`, and ends the views still open at its end.
    private static func readInOrder<Sink: ViewSink>(_ path: String, mode: RecoveryMode, _ stream: inout ViewStreamState,
                                                    into sink: inout Sink) throws -> ReadReport {
        let report = try LogReader(path: path, mode: mode).read { event, position in
            try stream.consume(event, at: position, into: &sink)
        }
        try stream.finish(into: &sink)
        return report
    }

    /// ``run(_:over:mode:filter:cleaning:idle:progress:)`` in chunks; nil when the log is not read
    /// so, or when the chunks' views are not those of a reading in order.
    private static func runInChunks<Query: ViewQuery>(_ query: Query, over path: String, mode: RecoveryMode, filter: AnalyticsFilter,
                                                      cleaning: PathCleaning, idle: Duration?, threads: Int, chunkedFrom: Int,
                                                      splitBytes: Int, progress: (@Sendable (Int) -> Void)?)
        throws -> (result: Query.Result, report: ReadReport, chunks: Int, clockWentBack: Int)? {
        guard let read = try readInChunks(query, over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle, threads: threads,
                                          chunkedFrom: chunkedFrom, splitBytes: splitBytes, progress: progress) else { return nil }
        return (read.query.finalize(), read.report, read.chunks.count, read.chunks.reduce(0) { $0 + $1.stream.clockWentBack })
    }

    /// The log at `path` read into copies of `query` in chunks on `threads` cores, merged in order
    /// but not finalized, with the report and the chunks as they ended; nil when the log is not
    /// read so (under `chunkedFrom` bytes, few session starts) or when the chunks' views are not
    /// those of a reading in order.
    static func readInChunks<Query: ViewQuery>(_ query: Query, over path: String, mode: RecoveryMode, filter: AnalyticsFilter,
                                               cleaning: PathCleaning, idle: Duration?, threads: Int, chunkedFrom: Int,
                                               splitBytes: Int = LogReader.splitBytes, progress: (@Sendable (Int) -> Void)?)
        throws -> (query: Query, report: ReadReport, chunks: [ChunkRun])? {
        let (files, segmented) = try LogFiles.resolve(path)
        let detailed = QuerySink.readsDetails(query)
        guard let read = try LogReader(path: path, mode: mode).readInChunks(files: files, segmented: segmented, count: threads,
                                                                            minimumBytes: chunkedFrom, splitBytes: splitBytes, make: { _ in
            // A stream each, with a cleaner of its own: the cleaner's memo is not for sharing.
            let stream = ViewStreamState(filter: filter, cleaning: cleaning, idle: idle, detailed: detailed,
                                         tracksUnseenSessions: true, progress: progress)
            return ChunkRun(stream: stream, sink: QuerySink(query: query, for: stream))
        }, { chunk, event, position, endsChunk in
            try chunk.consume(event, at: position, endsChunk: endsChunk)
        }) else { return nil }
        var chunks = read.chunks.map(\.part)
        guard ChunkRun.standForOneReading(chunks) else { return nil }
        var last = chunks.removeLast()   // its views still open end at the log's last event
        try last.stream.finish(into: &last.sink)
        chunks.append(last)
        var result = chunks[0].sink.query as! Query
        for chunk in chunks.dropFirst() { result.merge(chunk.sink.query as! Query) }
        return (result, read.report, chunks)
    }
}

