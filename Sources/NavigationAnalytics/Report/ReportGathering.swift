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

    let recent: Int, named: Set<String>, limit: Int
    var screens = ScreensQuery()
    var bounces = BouncesQuery()
    var exits: ExitsQuery
    var flow: FlowQuery
    var funnels: [FunnelQuery]
    var tracker = SessionTracker()
    /// The session being read, and the ones kept: those named, and the latest others.
    private var current: ReportReplay?
    private var namedKept: [ReportReplay] = [], recentKept: [ReportReplay] = []
    /// Over several logs (``merge(nextLog:)``): how many, the sessions of those before the one
    /// `tracker` reads, and their latest sessions to replay — by the time they began, not by the
    /// order of the logs.
    private var logs = 1
    private var sessionsBefore: [SessionSummary] = []
    private var recentBefore: [ReportReplay] = []

    init(options: ReportQuery.Options) {
        (recent, named, limit) = (options.recent, options.sessions, options.maximumSteps)
        exits = ExitsQuery(crashPaths: options.crashPaths)
        flow = FlowQuery(steps: options.steps, top: options.top)
        funnels = options.funnels.map { FunnelQuery(steps: $0, mode: .ordered, entry: .first) }
    }

    /// What the views and events gathered come to, each query finished.
    struct Result: Sendable {
        var screens: [ScreensQuery.Row], bounces: [BouncesQuery.Row], exits: ExitsQuery.Result
        var flow: [FlowQuery.Row], funnels: [[FunnelQuery.Row]]
        var sessions: [SessionSummary], replays: [ReportReplay]
    }

    /// The sessions to replay: the named ones, then the latest first (over several logs, those
    /// that began last, each log's latest in its order).
    private var replays: [ReportReplay] {
        var (namedReplays, recentReplays) = (namedKept, recentKept)
        Self.close(current, named: named, keeping: recent, into: &namedReplays, &recentReplays)
        if logs > 1 { recentReplays = Self.latest(recentBefore + recentReplays, keeping: recent) }
        return namedReplays + recentReplays.reversed()
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
    }

    mutating func endSession(_ session: String, ending: SessionEnd) {
        exits.endSession(session, ending: ending)
    }

    mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {
        Self.close(current, named: named, keeping: recent, into: &namedKept, &recentKept)
        current = ReportReplay(id: event.session, start: event.isSessionStart ? NavigationState() : stateBefore, began: event.timestamp)
    }

    mutating func see(_ event: NavigationEvent, at position: EventPosition, stateAfter state: NavigationState) {
        tracker.consume(event, stateAfter: state)
        guard !event.isSnapshot else { return }
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
        namedKept += later.namedKept
        recentKept = Array((recentKept + later.recentKept).suffix(recent))
    }

    /// Adds `later`, the gathering of the logs after this one's: this log's last session ends
    /// with it, and `later`'s replays are of logs placed after this one's.
    mutating func merge(nextLog later: consuming ReportGathering) {
        mergeViews(later, nextLog: true)
        Self.close(current, named: named, keeping: recent, into: &namedKept, &recentKept)
        sessionsBefore += tracker.sessions
        sessionsBefore += later.sessionsBefore
        tracker = later.tracker
        let offset = logs
        func placed(_ replays: [ReportReplay]) -> [ReportReplay] {
            replays.map { replay in
                var replay = replay
                replay.log += offset
                return replay
            }
        }
        namedKept += placed(later.namedKept)
        recentBefore = Self.latest(recentBefore + recentKept + placed(later.recentBefore), keeping: recent)
        recentKept = placed(later.recentKept)
        current = later.current.map { placed([$0])[0] }
        logs += later.logs
    }

    /// The `recent` of `replays` that began last, in the order they began (in the order given
    /// when they began at once).
    private static func latest(_ replays: [ReportReplay], keeping recent: Int) -> [ReportReplay] {
        let ordered = replays.enumerated().sorted {
            ($0.element.began.millisecondsSince1970, $0.offset) < ($1.element.began.millisecondsSince1970, $1.offset)
        }
        return ordered.suffix(recent).map(\.element)
    }

    private static func close(_ replay: ReportReplay?, named: Set<String>, keeping recent: Int, into namedKept: inout [ReportReplay], _ recentKept: inout [ReportReplay]) {
        guard let replay, replay.count > 0 else { return }
        if named.contains(replay.id) { return namedKept.append(replay) }
        recentKept.append(replay)
        if recentKept.count > recent { recentKept.removeFirst() }
    }
}
