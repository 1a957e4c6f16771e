import NavigationHistory

/// A session to replay: its first state and its events.
struct ReportReplay: Sendable {
    var id: String
    var start: NavigationState
    /// When its first event happened: over several logs, the latest sessions are those that
    /// began last.
    var began: Timestamp
    /// The place of its log among several (0-based, in the order of the paths); 0 for one log.
    var log = 0
    /// Its id in its log: ``id`` but for a session id an earlier log used, which ``id`` names `ID@K`.
    var idInLog: String?
    /// Where its first event (not a snapshot) is, how many of its events are replayed, and the
    /// seq of the last: what the reading keeps, to read them again at the end.
    var first: EventPosition?
    var count = 0
    var lastSeq = 0
    /// How many events (not snapshots) the session has.
    var events = 0
    var replayed: [NavigationEvent] = []
    /// What tells how it ended, seen from its events; how it ended, once it did.
    var ending = SessionEnding()
    var end = SessionEnd.open
    /// The views of the events it replays, as the queries count them, and whether a view began
    /// after those.
    var views: [BegunScreen] = []
    var viewsBeyond = false
    /// Why the report replays it.
    var reason = ReportQuery.Reason.recent

    /// What tells it from every other replay of its log: where its first event is.
    var identity: [Int] { [log, first?.file ?? -1, first?.offset ?? -1] }

    /// Takes in `view`, one of its own: kept when it began within the events replayed (the
    /// `limit` of them).
    mutating func take(_ view: borrowing ScreenView, limit: Int) {
        guard count < limit || view.startSeq <= lastSeq else { return viewsBeyond = true }
        views.append(BegunScreen(part: view.session, seq: view.startSeq, scene: view.scene, screen: view.screen.route.screen,
                                 start: view.start.millisecondsSince1970))
    }

    /// This replay, of the log `offset` places on.
    func placed(after offset: Int) -> ReportReplay {
        var replay = self
        replay.log += offset
        return replay
    }

    /// This replay, replayed for `reason`.
    func chosen(_ reason: ReportQuery.Reason) -> ReportReplay {
        var replay = self
        replay.reason = reason
        return replay
    }

    /// This replay with its events, read again from the log at `path` (its `files`) from where
    /// the first one is: the `count` events from it on that are not snapshots (a session's events
    /// come together).
    func readingEvents(of path: String, files: [String], segmented: Bool, mode: RecoveryMode) throws -> ReportReplay {
        guard let first, count > 0 else { return self }
        let reader = LogReader(path: path, mode: mode, threads: 1)
        func events(from start: EventPosition) throws -> [NavigationEvent] {
            var events: [NavigationEvent] = []
            events.reserveCapacity(count)
            _ = try reader.scan(files: files, segmented: segmented, from: start) { event, position in
                if !event.isSnapshot, position.file > first.file || position.offset >= first.offset { events.append(event) }
                return events.count < count
            }
            return events
        }
        var replay = self
        replay.replayed = try events(from: first)
        if replay.replayed.count < count || replay.replayed.last?.seq != lastSeq {
            // A reading from the middle of a file judged a line as the reading in order did not:
            // whether lines must carry a `crc` is the file's first line's to say. From the
            // file's start, then.
            replay.replayed = try events(from: EventPosition(file: first.file, offset: 0, line: 1))
        }
        return replay
    }
}

/// What the report gathers from the views and the events: a query, so that it runs over chunks
/// of a large log at once.
struct ReportGathering: PositionedViewQuery, ScreenViewQuery {
    static var seesEvents: Bool { true }

    let named: Set<String>, limit: Int
    var screens = ScreensQuery()
    var bounces = BouncesQuery()
    var exits: ExitsQuery
    var flow: FlowQuery
    var funnels: [FunnelQuery]
    var tracker = SessionTracker()
    /// The session being read; the one before it until the event that began this one is seen,
    /// so that it takes in the views that event ended and learns how it ended.
    private var current: ReportReplay?, closing: ReportReplay?
    /// The sessions kept: those named, the latest that ended uncleanly, and the latest.
    private var namedKept: [ReportReplay] = []
    private var crashedKept: LatestReplays, recentKept: LatestReplays
    /// Over several logs (``merge(nextLog:)``): how many, and the sessions of those before the
    /// one `tracker` reads.
    private var logs = 1
    private var sessionsBefore: [SessionSummary] = []

    init(options: ReportQuery.Options) {
        (named, limit) = (options.sessions, options.maximumSteps)
        (crashedKept, recentKept) = (LatestReplays(limit: options.crashed), LatestReplays(limit: options.recent))
        exits = ExitsQuery(crashPaths: options.crashPaths)
        flow = FlowQuery(steps: options.steps, top: options.top)
        funnels = options.funnels.map(Self.funnel)
    }

    /// The query of a funnel of the report: ordered, entered at a session's first step-1 view.
    static func funnel(_ steps: [String]) -> FunnelQuery { FunnelQuery(steps: steps, mode: .ordered, entry: .first) }

    /// What the views and events gathered come to, each query finished.
    struct Result: Sendable {
        var screens: [ScreensQuery.Row], bounces: [BouncesQuery.Row], exits: ExitsQuery.Result
        var flow: [FlowQuery.Row], funnels: [[FunnelQuery.Row]]
        var sessions: [SessionSummary], replays: [ReportReplay]
    }

    /// The sessions to replay: the named ones (in log order), then the latest that ended
    /// uncleanly, then the latest others, each latest first (over several logs, those that began
    /// last, each log's latest in its order).
    private var replays: [ReportReplay] {
        var (namedReplays, crashed, recent) = (namedKept, crashedKept, recentKept)
        Self.close(closing, over: true, named: named, into: &namedReplays, &crashed, &recent)
        Self.close(current, over: false, named: named, into: &namedReplays, &crashed, &recent)
        let crashedReplays = crashed.latest(overLogs: logs > 1).reversed().map { $0.chosen(.crashed) }
        let among = Set(crashedReplays.map(\.identity))
        let recentReplays = recent.latest(overLogs: logs > 1).reversed().filter { !among.contains($0.identity) }.map { $0.chosen(.recent) }
        return namedReplays.map { $0.chosen(.named) } + crashedReplays + recentReplays
    }

    mutating func add(_ view: AnalyticsView) {
        var view = view.screenView
        add(lent: &view)
    }

    /// Bounces read how views were entered, a detail.
    static var readsDetails: Bool { true }

    mutating func add(lent view: inout ScreenView) {
        screens.add(lent: &view)
        bounces.add(lent: &view)
        exits.add(lent: &view)
        flow.add(lent: &view)
        for k in funnels.indices { funnels[k].add(lent: &view) }
        // The views the event that began a session ended are the session's before it.
        if closing != nil { closing!.take(view, limit: limit) } else { current?.take(view, limit: limit) }
    }

    mutating func endSession(_ session: String, ending: SessionEnd) {
        exits.endSession(session, ending: ending)
    }

    mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {
        Self.close(closing, over: true, named: named, into: &namedKept, &crashedKept, &recentKept)
        closing = current
        current = ReportReplay(id: event.session, start: event.isSessionStart ? NavigationState() : stateBefore, began: event.timestamp)
    }

    mutating func see(_ event: NavigationEvent, at position: EventPosition, stateAfter state: NavigationState) {
        tracker.consume(event, stateAfter: state)
        // The session before ended with the views and the end this event told.
        Self.close(closing, over: true, named: named, into: &namedKept, &crashedKept, &recentKept)
        closing = nil
        guard current != nil else { return }
        // A store snapshot of another session, before its start, tells nothing of this one.
        if event.isSnapshot {
            if event.session == current!.id { current!.ending.see(event, stateAfter: state) }
            return
        }
        current!.ending.see(event, stateAfter: state)
        current!.events += 1
        guard current!.count < limit else { return }
        if current!.first == nil { current!.first = position }
        current!.count += 1
        current!.lastSeq = event.seq
    }

    consuming func finalize() -> Result {
        Result(screens: screens.finalize(), bounces: bounces.finalize(), exits: exits.finalize(), flow: flow.finalize(),
               funnels: funnels.map { $0.finalize() }, sessions: sessionsBefore + tracker.sessions, replays: replays)
    }

    /// Adds the counts of the views of `later`, of the next chunk or, `nextLog`, of the next log.
    private mutating func mergeViews(_ later: borrowing ReportGathering, nextLog: Bool) {
        if nextLog { screens.merge(nextLog: later.screens) } else { screens.merge(later.screens) }
        bounces.merge(later.bounces)
        exits.merge(later.exits)
        flow.merge(later.flow)
        for k in funnels.indices {
            if nextLog { funnels[k].merge(nextLog: later.funnels[k]) } else { funnels[k].merge(later.funnels[k]) }
        }
    }

    mutating func merge(_ later: consuming ReportGathering) {
        assert(logs == 1 && later.logs == 1, "chunks of one log")
        mergeViews(later, nextLog: false)
        // `later` began with the session.start this chunk saw last: the session it began is
        // later's, and the one before it was closed here.
        tracker.append(later.tracker)
        current = later.current
        closing = later.closing
        namedKept += later.namedKept
        crashedKept.merge(later.crashedKept)
        recentKept.merge(later.recentKept)
    }

    /// Adds `later`, the gathering of the logs after this one's: this log's last session ends
    /// with it, and `later`'s replays are of logs placed after this one's.
    mutating func merge(nextLog later: consuming ReportGathering) {
        mergeViews(later, nextLog: true)
        Self.close(closing, over: true, named: named, into: &namedKept, &crashedKept, &recentKept)
        Self.close(current, over: false, named: named, into: &namedKept, &crashedKept, &recentKept)
        sessionsBefore += tracker.sessions
        sessionsBefore += later.sessionsBefore
        tracker = later.tracker
        let offset = logs
        namedKept += later.namedKept.map { $0.placed(after: offset) }
        crashedKept.merge(nextLog: later.crashedKept, placedAfter: offset)
        recentKept.merge(nextLog: later.recentKept, placedAfter: offset)
        current = later.current?.placed(after: offset)
        closing = later.closing?.placed(after: offset)
        logs += later.logs
    }

    /// Keeps `replay`, which ended, as `over` says (whether a session began after it): among the
    /// named, or the latest — and the latest that crashed, when it ended uncleanly.
    private static func close(_ replay: ReportReplay?, over: Bool, named: Set<String>, into namedKept: inout [ReportReplay],
                              _ crashedKept: inout LatestReplays, _ recentKept: inout LatestReplays) {
        guard var replay, replay.count > 0 else { return }
        replay.end = replay.ending.end(over: over)
        if named.contains(replay.id) { return namedKept.append(replay) }
        if replay.end == .unclean { crashedKept.add(replay) }
        recentKept.add(replay)
    }
}

/// The latest sessions of a kind a report keeps to replay, at most so many: of the log being
/// read, in log order; over several logs, those of the logs before apart — the latest by the
/// time they began, not by the order of the logs.
struct LatestReplays: Sendable {
    let limit: Int
    private var kept: [ReportReplay] = [], before: [ReportReplay] = []

    init(limit: Int) { self.limit = limit }

    /// Keeps `replay`, the latest so far, forgetting the earliest beyond the limit.
    mutating func add(_ replay: ReportReplay) {
        kept.append(replay)
        if kept.count > limit { kept.removeFirst() }
    }

    /// Adds those of `later`, of the next chunk of the log.
    mutating func merge(_ later: LatestReplays) { kept = Array((kept + later.kept).suffix(limit)) }

    /// Adds those of `later`, of the logs after this one's, placed `offset` logs on.
    mutating func merge(nextLog later: LatestReplays, placedAfter offset: Int) {
        before = Self.latest(before + kept + later.before.map { $0.placed(after: offset) }, keeping: limit)
        kept = later.kept.map { $0.placed(after: offset) }
    }

    /// The ones kept, the latest last: over several logs (`overLogs`), by the time they began.
    func latest(overLogs: Bool) -> [ReportReplay] { overLogs ? Self.latest(before + kept, keeping: limit) : kept }

    /// The `limit` of `replays` that began last, in the order they began (in the order given
    /// when they began at once).
    private static func latest(_ replays: [ReportReplay], keeping limit: Int) -> [ReportReplay] {
        let ordered = replays.enumerated().sorted {
            ($0.element.began.millisecondsSince1970, $0.offset) < ($1.element.began.millisecondsSince1970, $1.offset)
        }
        return ordered.suffix(limit).map(\.element)
    }
}
