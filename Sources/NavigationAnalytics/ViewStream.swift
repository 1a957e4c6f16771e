import Foundation
import NavigationHistory

/// The screen views of a log in one streaming pass, filtered: what every analytics query reads.
///
/// Views come as they end. Within one (session, scene) that is also the order they began in, which
/// is all that paths and transitions need. Views still open at the end of the log end at its last
/// event.
public enum ViewStream {
    /// Reads the log at `path` and hands each screen view that passes `filter` to `body` (and, when
    /// `events` is given, every event with its session's app version and the state after it).
    ///
    /// - Returns: The reader's report (events, seq range, defects tolerated by `mode`).
    /// - Throws: What reading the log throws in `mode`.
    @discardableResult
    public static func read(_ path: String, mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                            cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil,
                            events: ((_ event: NavigationEvent, _ app: String?, _ stateAfter: NavigationState) throws -> Void)? = nil,
                            _ body: (AnalyticsView) throws -> Void) throws -> ReadReport {
        var stream = Stream(filter: filter, cleaning: cleaning, idle: idle, detailed: true)
        return try withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body, events: events)
            return try readInOrder(path, mode: mode, &stream, into: &sink)
        }
    }

    /// Runs `query` over the screen views of the log at `path` that pass `filter`, and finishes it.
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
    /// - Returns: The finished query, and the reader's report (events, seq range, defects
    ///   tolerated by `mode`).
    /// - Throws: What reading the log throws in `mode`.
    public static func run<Query: ViewQuery>(_ query: Query, over path: String, mode: RecoveryMode = .tolerateTornTail,
                                             filter: AnalyticsFilter = AnalyticsFilter(), cleaning: PathCleaning = PathCleaning(),
                                             idle: Duration? = nil,
                                             progress: (@Sendable (_ events: Int) -> Void)? = nil) throws -> (query: Query, report: ReadReport) {
        let run = try run(query, over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                          threads: ProcessInfo.processInfo.activeProcessorCount, chunkedFrom: LogReader.chunkedBytes, progress: progress)
        return (run.query, run.report)
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
        throws -> (query: Query, report: ReadReport, chunks: Int, clockWentBack: Int) {
        if let chunked = try runInChunks(query, over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                                         threads: threads, chunkedFrom: chunkedFrom, splitBytes: splitBytes, progress: progress) {
            return chunked
        }
        var stream = Stream(filter: filter, cleaning: cleaning, idle: idle, detailed: QuerySink.readsDetails(query), progress: progress)
        var sink = QuerySink(query: query, tracksSessions: false)
        let report = try readInOrder(path, mode: mode, &stream, into: &sink)
        var result = sink.query as! Query
        result.finish()
        return (result, report, 1, stream.clockWentBack)
    }

    /// Reads the log in order through `stream` into `sink`, and ends the views still open at its end.
    private static func readInOrder<Sink: ViewSink>(_ path: String, mode: RecoveryMode, _ stream: inout Stream,
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
        throws -> (query: Query, report: ReadReport, chunks: Int, clockWentBack: Int)? {
        let (files, segmented) = try LogFiles.resolve(path)
        let detailed = QuerySink.readsDetails(query)
        guard let read = try LogReader(path: path, mode: mode).readInChunks(files: files, segmented: segmented, count: threads,
                                                                            minimumBytes: chunkedFrom, splitBytes: splitBytes, make: { _ in
            // A stream each, with a cleaner of its own: the cleaner's memo is not for sharing.
            ChunkRun(stream: Stream(filter: filter, cleaning: cleaning, idle: idle, detailed: detailed, progress: progress),
                     sink: QuerySink(query: query, tracksSessions: true))
        }, { chunk, event, position, endsChunk in
            try chunk.consume(event, at: position, endsChunk: endsChunk)
        }) else { return nil }
        var chunks = read.chunks.map(\.part)
        guard ChunkRun.standForOneReading(chunks) else { return nil }
        var last = chunks.removeLast()   // its views still open end at the log's last event
        try last.stream.finish(into: &last.sink)
        chunks.append(last)
        var result = chunks[0].sink.query as! Query
        result.finish()
        for chunk in chunks.dropFirst() {
            var later = chunk.sink.query as! Query
            later.finish()
            result.merge(later)
        }
        return (result, read.report, chunks.count, chunks.reduce(0) { $0 + $1.stream.clockWentBack })
    }
}

/// Where a ``Stream`` hands its views, and the events of those who want them.
private protocol ViewSink {
    /// Whether it sees every event, and the first of every session with the state before it.
    var seesEvents: Bool { get }
    /// Takes the view out of `view`, which it leaves uninitialized (also when it throws), as the
    /// row of `app`; `seen` says whether the view's session, as named, is one of the stream's
    /// ``Stream/seen`` ids, added by an event before the one being consumed.
    mutating func take(movingViewAt view: UnsafeMutablePointer<ScreenView>, app: String?, seen: Bool) throws
    mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) throws
    /// Sees `event`, its line at `position`, with its session's app version and the state after it.
    mutating func see(_ event: NavigationEvent, at position: EventPosition, app: String?, stateAfter: NavigationState) throws
}

private struct ClosureSink: ViewSink {
    let body: (AnalyticsView) throws -> Void
    let events: ((NavigationEvent, String?, NavigationState) throws -> Void)?

    var seesEvents: Bool { events != nil }
    func take(movingViewAt view: UnsafeMutablePointer<ScreenView>, app: String?, seen _: Bool) throws {
        try body(AnalyticsView(view.move(), app: app))
    }
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {}   // the closures take events only
    func see(_ event: NavigationEvent, at _: EventPosition, app: String?, stateAfter: NavigationState) throws {
        try events?(event, app, stateAfter)
    }
}

/// Hands views and events to a query. The query is held behind a class existential rather than
/// as a generic parameter: the code that runs it per event lives in this module, unspecialized for
/// the caller's query type, and a generic wrapper there looked up its type's metadata for every
/// event (7% of a query's instructions). Nor as a value existential: that is boxed, and the box
/// was made unique again for every view (1% of a funnel's instructions).
private struct QuerySink: ViewSink {
    private let holder: any QueryHolding
    let seesEvents: Bool
    /// Whether it keeps ``unseenSessions``: a chunk's sink does, for the chunks to be checked.
    let tracksSessions: Bool
    /// The sessions of the views taken, as they are named, that are not among the stream's
    /// ``Stream/seen`` ids: later parts (`SESSION#2`) and the session of a view a store snapshot
    /// began. A few: every other view is named by a seen id, which the stream keeps already (a
    /// set of all, at 10M events some 100,000 ids a chunk, took 4% of a funnel's time and 8 MB).
    private(set) var unseenSessions = StringSet()
    private var lastSession: String?

    init(query: some ViewQuery, tracksSessions: Bool) {
        holder = Self.holder(of: query)
        seesEvents = type(of: query).seesEvents
        self.tracksSessions = tracksSessions
    }

    mutating func take(movingViewAt view: UnsafeMutablePointer<ScreenView>, app: String?, seen: Bool) {
        // Views come session by session: asked once per session, not per view.
        if tracksSessions, view.pointee.session != lastSession {
            lastSession = view.pointee.session
            if !seen { unseenSessions.insert(view.pointee.session) }
        }
        holder.add(movingViewAt: view, app: app)
    }

    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) { holder.beginSession(event, stateBefore: stateBefore) }
    func see(_ event: NavigationEvent, at position: EventPosition, app _: String?, stateAfter _: NavigationState) {
        holder.see(event, at: position)
    }

    /// The query, as it counted so far.
    var query: any ViewQuery { holder.query }

    /// Whether `query` reads views' details: all but some of those that read views in place do.
    static func readsDetails(_ query: some ViewQuery) -> Bool {
        guard let inPlace = query as? any InPlaceViewQuery else { return true }
        return type(of: inPlace).readsDetails
    }

    private static func holder(of query: some ViewQuery) -> any QueryHolding {
        if let inPlace = query as? any InPlaceViewQuery { return inPlaceHolder(of: inPlace) }
        if let positioned = query as? any PositionedViewQuery { return positionedHolder(of: positioned) }
        return QueryHolder(query)
    }

    private static func inPlaceHolder(of query: some InPlaceViewQuery) -> any QueryHolding { InPlaceQueryHolder(query) }
    private static func positionedHolder(of query: some PositionedViewQuery) -> any QueryHolding { PositionedQueryHolder(query) }
}

/// A query behind a reference, for ``QuerySink``.
private protocol QueryHolding: AnyObject {
    var query: any ViewQuery { get }
    /// Counts the view at `view` as the row of `app`, and leaves `view` uninitialized.
    func add(movingViewAt view: UnsafeMutablePointer<ScreenView>, app: String?)
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState)
    func see(_ event: NavigationEvent, at position: EventPosition)
}

private class QueryHolder<Query: ViewQuery>: QueryHolding {
    // Only ever used by the thread of one stream.
    @exclusivity(unchecked) fileprivate var held: Query

    init(_ query: Query) { held = query }

    var query: any ViewQuery { held }
    func add(movingViewAt view: UnsafeMutablePointer<ScreenView>, app: String?) { held.add(AnalyticsView(view.move(), app: app)) }
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) { held.beginSession(event, stateBefore: stateBefore) }
    func see(_ event: NavigationEvent, at _: EventPosition) { held.see(event) }
}

/// A query that reads views where they lie, for ``QuerySink``.
private final class InPlaceQueryHolder<Query: InPlaceViewQuery>: QueryHolder<Query> {
    override func add(movingViewAt view: UnsafeMutablePointer<ScreenView>, app: String?) {
        held.add(viewAt: view, app: app)
        view.deinitializeView()
    }
}

/// A query that sees events with their positions, for ``QuerySink``.
private final class PositionedQueryHolder<Query: PositionedViewQuery>: QueryHolder<Query> {
    override func see(_ event: NavigationEvent, at position: EventPosition) { held.see(event, at: position) }
}

/// One chunk of a chunked reading: its stream and its copy of the query.
private struct ChunkRun {
    var stream: Stream
    var sink: QuerySink
    /// The session ids seen before the event that begins the next chunk.
    var seenBeforeEnd = StringSet()

    mutating func consume(_ event: NavigationEvent, at position: EventPosition, endsChunk: Bool) throws {
        if endsChunk { seenBeforeEnd = stream.seen }
        try stream.consume(event, at: position, into: &sink)
    }

    /// Whether the chunks' views are those of a reading in order. Each chunk began with a
    /// `session.start`, where the fold's state is empty and no view is open, as in order. They
    /// differ when a session id a chunk saw was seen by a chunk before: in order, it would be
    /// numbered as a new part. And the queries' merges need each session's views in one chunk,
    /// under names no other chunk's views have: a view that a store snapshot at the log's start
    /// began is of the snapshot's session, which its `session.start` may begin in the next chunk;
    /// and a later part's name (`A#2`) may be another chunk's session id.
    static func standForOneReading(_ chunks: [Self]) -> Bool {
        // A chunk's views are named by the ids it saw before its end (the event it ends with
        // begins no view) or by its unseen sessions: no name is in two chunks when neither is.
        // Each two chunks apart, through the smaller set of the two, rather than each chunk against
        // the union of those before: the union would copy the largest set, and the chunks split
        // off for idle threads are small.
        chunks.indices.allSatisfy { k in
            let later = chunks[k]
            return chunks[..<k].allSatisfy { earlier in
                earlier.seenBeforeEnd.isDisjoint(with: later.stream.seen)
                    && earlier.sink.unseenSessions.isDisjoint(with: later.stream.seen)
                    && earlier.sink.unseenSessions.isDisjoint(with: later.sink.unseenSessions)
                    && earlier.seenBeforeEnd.isDisjoint(with: later.sink.unseenSessions)
            }
        }
    }
}

/// What ``ViewStream`` keeps while it reads.
private struct Stream {
    let filter: AnalyticsFilter
    /// Whether the filter passes every view: it is not asked then.
    let admitsAll: Bool
    /// The path cleaning, nil without rules.
    let clean: ((String) -> String)?
    /// The idle gap that splits a session, in milliseconds.
    let gap: Int64?
    var tracker: ScreenViewTracker
    /// The views the last event ended, taken out as they are handed over.
    let ended = EndedViews()
    /// The last view's session, its app version, and whether it is a ``seen`` id (added by an
    /// event before the one being consumed); the last event's session and its app version.
    var viewApp: (session: String, app: String?, seen: Bool)?
    var eventApp: (session: String, app: String?)?
    // Where each session id begins a new part, as the seq of the part's first event: at an idle
    // gap, and where an id seen before begins a new run (a log may reuse an id), so that every
    // part counts as its own session — in navlog's queries and in the exported tables alike.
    var cuts: [String: [Int]] = [:]
    /// The session ids of the events (not snapshots) so far.
    var seen = StringSet()
    /// The app version the last `session.start` of each id in ``seen`` named, by its index there.
    var apps: [String?] = []
    /// The session of the last event (not a snapshot), its time, and its index in ``seen``.
    var last: (session: String, time: Int64, index: Int)?
    /// Whether the event being consumed added its session to ``seen``.
    var addedSession = false
    /// How many of the views handed over ended before they began.
    private(set) var clockWentBack = 0

    /// Called with every 65,536 events read.
    let progress: (@Sendable (Int) -> Void)?
    private var counted = 0

    /// A stream whose views, unless `detailed`, leave out what ``ScreenViewTracker/init(detailed:)`` says.
    init(filter: AnalyticsFilter, cleaning: PathCleaning, idle: Duration?, detailed: Bool, progress: (@Sendable (Int) -> Void)? = nil) {
        tracker = ScreenViewTracker(detailed: detailed)
        self.filter = filter
        admitsAll = filter.admitsEverything
        clean = cleaning.isEmpty ? nil : cleaning.cleaner()
        gap = idle.map { max(1, $0.milliseconds) }
        self.progress = progress
    }

    mutating func consume<Sink: ViewSink>(_ event: NavigationEvent, at position: EventPosition, into sink: inout Sink) throws {
        if let progress {
            counted += 1
            if counted & 0xFFFF == 0 { progress(0x10000) }
        }
        if sink.seesEvents, event.beginsSession(after: tracker.session) {
            // Asked for here, before the fold, rather than kept after every event by the caller:
            // a copy kept of the state makes the next fold copy it, stacks and all.
            try sink.beginSession(event, stateBefore: tracker.state)
        }
        addedSession = false
        if !event.isSnapshot {
            // Nearly every event is of the last one's session: its id is copied only when it changes.
            if last?.session == event.session {
                if event.isSessionStart {
                    // The session begins again: a new part.
                    cuts[event.session, default: []].append(event.seq)
                } else if let gap, event.timestamp.millisecondsSince1970 - last!.time >= gap {
                    cuts[event.session, default: []].append(event.seq)
                    for view in tracker.resume(before: event) { ended.append(view) }
                    try deliverEnded(into: &sink)
                }
                last!.time = event.timestamp.millisecondsSince1970
            } else {
                // Another session begins: a new part when its id was seen before. Looked up and
                // added at once.
                let (index, new) = seen.index(inserting: event.session)
                if new { apps.append(nil) } else { cuts[event.session, default: []].append(event.seq) }
                addedSession = new
                last = (event.session, event.timestamp.millisecondsSince1970, index)
            }
        }
        tracker.consume(event, into: ended)
        try deliverEnded(into: &sink)
        // After the views this start ended: they belong to the run before, with its own app. Only
        // a start is asked: the answer, even nil, was released after every event.
        if event.isSessionStart, let app = Self.startedApp(event.action) {
            apps[last!.index] = app   // a start is not a snapshot: `last` is its session
            viewApp = nil
            eventApp = (event.session, app)
        }
        guard sink.seesEvents else { return }
        if eventApp?.session != event.session { eventApp = (event.session, app(of: event.session)) }
        try sink.see(event, at: position, app: eventApp!.app, stateAfter: tracker.state)
    }

    mutating func finish<Sink: ViewSink>(into sink: inout Sink) throws {
        addedSession = false
        for view in tracker.finish().views { ended.append(view) }
        try deliverEnded(into: &sink)
    }

    /// The app a `session.start` names (nil for any other event, and for a start that names none).
    /// A function of its own: its pattern, inlined, copied the whole action for every event.
    @inline(never)
    private static func startedApp(_ action: NavigationAction) -> String?? {
        if case .sessionStart(let app, _, _) = action { app } else { nil }
    }

    /// The app version the last `session.start` of `session` named.
    private func app(of session: String) -> String? { seen.index(of: session).flatMap { apps[$0] } }

    private func part(_ session: String, at seq: Int) -> Int {
        guard !cuts.isEmpty, let list = cuts[session] else { return 1 }
        return 1 + list.countOfLeading { $0 <= seq }   // cuts are in seq order
    }

    /// Hands the views in `ended` that pass the filter to `sink`, cleaned and numbered by part,
    /// and empties `ended` (unless `sink` throws).
    private mutating func deliverEnded<Sink: ViewSink>(into sink: inout Sink) throws {
        while let slot = ended.next() {
            // Views come session by session: look each session's app version up once. The view's
            // session is read in place, not copied, but when it changes.
            if viewApp?.session != slot.pointee.session {
                // Mostly the session that started last, whose app version is at hand.
                if eventApp?.session == slot.pointee.session {
                    viewApp = (slot.pointee.session, eventApp!.app, true)
                } else {
                    // An id the event being consumed added was not seen before it (a chunk's last
                    // event adds the next chunk's first id, and may end a view a snapshot began).
                    let index = seen.index(of: slot.pointee.session)
                    let seenBefore = index != nil && !(addedSession && slot.pointee.session == last?.session)
                    viewApp = (slot.pointee.session, index.flatMap { apps[$0] }, seenBefore)
                }
            }
            let app = viewApp!.app   // filtered on the session id as the log has it
            guard admitsAll || filter.admits(start: slot.pointee.start, app: app, session: slot.pointee.session, scene: slot.pointee.scene) else {
                slot.deinitializeView()
                continue
            }
            let number = cuts.isEmpty ? 1 : part(slot.pointee.session, at: slot.pointee.startSeq)   // no copy of the session without cuts
            if number > 1 { slot.pointee.session += "#\(number)" }
            if let clean { slot.pointee.screen.route.screen = clean(slot.pointee.screen.route.screen) }
            if slot.pointee.clockWentBack { clockWentBack += 1 }
            try sink.take(movingViewAt: slot, app: app, seen: number == 1 && viewApp!.seen)
        }
    }
}
