import NavigationHistory

/// What ``ViewStream`` keeps while it reads.
struct ViewStreamState {
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
    /// Whether it keeps ``unseenSessions``: a chunk's stream does, for the chunks to be checked.
    let tracksUnseenSessions: Bool
    /// The sessions of the views handed over, as they are named, that are not among the ``seen``
    /// ids: later parts (`SESSION#2`) and the session of a view a store snapshot began. A few:
    /// every other view is named by a seen id (a set of all, at 10M events some 100,000 ids a
    /// chunk, took 4% of a funnel's time and 8 MB).
    private(set) var unseenSessions = StringSet()

    /// Called with every 65,536 events read.
    let progress: (@Sendable (Int) -> Void)?
    private var counted = 0

    /// A stream whose views, unless `detailed`, leave out what ``ScreenViewTracker/init(detailed:)``
    /// says; it keeps ``unseenSessions`` when `tracksUnseenSessions`.
    init(filter: AnalyticsFilter, cleaning: PathCleaning, idle: Duration?, detailed: Bool, tracksUnseenSessions: Bool = false,
         progress: (@Sendable (Int) -> Void)? = nil) {
        self.tracksUnseenSessions = tracksUnseenSessions
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
                    let partEnding = tracker.endOfPart
                    for view in tracker.resume(before: event) { ended.append(view) }
                    try deliverEnded(into: &sink)
                    try sink.endSession(partName(event.session, before: event.seq), ending: partEnding)
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
        if let (session, ending) = tracker.endedSession {   // after the views its end ended
            try sink.endSession(partName(session, before: event.seq), ending: ending)
        }
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
        let session = tracker.session
        let (views, ending) = tracker.finish()
        for view in views { ended.append(view) }
        try deliverEnded(into: &sink)
        if let session, let ending { try sink.endSession(partName(session, before: Int.max), ending: ending) }
    }

    /// The name views of `session` get in its last part that began before `seq`: `session`, or
    /// `session#N` for its N-th part.
    private func partName(_ session: String, before seq: Int) -> String {
        let number = 1 + (cuts[session]?.countOfLeading { $0 < seq } ?? 0)
        return number > 1 ? "\(session)#\(number)" : session
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

    /// Hands the views in ``ended`` that pass the filter to `sink`, readied by ``ready(_:)``, and
    /// empties ``ended`` (unless `sink` throws).
    private mutating func deliverEnded<Sink: ViewSink>(into sink: inout Sink) throws {
        // Most events end no view: the sink is not called for them.
        guard ended.held > 0 else { return }
        try sink.takeEnded(from: &self)
    }

    /// Readies `view` for its sink: its session numbered by part and its screen cleaned; returns
    /// whether the filter admits it. A view whose session, as named, is not one of ``seen`` (added
    /// by an event before the one being consumed) is noted in ``unseenSessions``.
    @inline(__always)
    mutating func ready(_ view: inout ScreenView) -> Bool {
        // Views come session by session: look each session's app version up once.
        if viewApp?.session != view.session {
            // Mostly the session that started last, whose app version is at hand.
            if eventApp?.session == view.session {
                viewApp = (view.session, eventApp!.app, true)
            } else {
                // An id the event being consumed added was not seen before it (a chunk's last
                // event adds the next chunk's first id, and may end a view a snapshot began).
                let index = seen.index(of: view.session)
                let seenBefore = index != nil && !(addedSession && view.session == last?.session)
                viewApp = (view.session, index.flatMap { apps[$0] }, seenBefore)
            }
        }
        // Filtered on the session id as the log has it.
        guard admitsAll || filter.admits(start: view.start, app: viewApp!.app, session: view.session, scene: view.scene) else {
            return false
        }
        let number = cuts.isEmpty ? 1 : part(view.session, at: view.startSeq)
        if number > 1 { view.session += "#\(number)" }
        if tracksUnseenSessions, number > 1 || !viewApp!.seen { unseenSessions.insert(view.session) }
        if let clean { view.screen.route.screen = clean(view.screen.route.screen) }
        if view.clockWentBack { clockWentBack += 1 }
        return true
    }

    /// The app version of the session of the view ``ready(_:)`` readied last: asked for only by
    /// sinks that hand it on, as a copy of it for every view was 0.6% of `navlog funnel`'s
    /// instructions (callgrind).
    var readiedApp: String? { viewApp!.app }
}
