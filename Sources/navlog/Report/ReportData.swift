import Foundation
import NavigationAnalytics
import NavigationHistory

/// Everything the HTML report shows, gathered in one pass over the log: the overview, the flow, the
/// screens, the funnels, the crash-adjacent paths, and the sessions to replay (their events read
/// again at the end, each step embedded as what it changed).
struct ReportData {
    struct Options {
        var recent = 10
        var sessions: Set<String> = []
        var funnels: [[String]] = []
        var steps = 5
        var top = 6
        var crashPaths = 3
        /// The events of one session the page replays at most.
        var maximumSteps = 2000
        /// The bytes of replays the page embeds at most: the sessions after are left out.
        var maximumReplayBytes = 16 << 20
    }

    /// What the page leaves out of the sessions it was to replay, to stay small.
    struct LeftOut {
        /// The sessions of which only the first events are replayed: their id, the events
        /// replayed, the events they have, and whether the page's bytes ran out (else the
        /// session's own limit of steps).
        var cut: [(id: String, replayed: Int, events: Int, bytesRanOut: Bool)] = []
        /// The sessions left out, and their events.
        var omitted: [(id: String, events: Int)] = []

        /// What the page left out, in sentences that say how to see it (for the notes on standard
        /// error), the log at `path` and the page `output`.
        func notes(_ settings: Options, path: String, output: String) -> [String] {
            func list(_ ids: [String]) -> String { ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "") }
            let bytes = settings.maximumReplayBytes >= 1 << 20 ? "\(settings.maximumReplayBytes >> 20) MiB" : "\(settings.maximumReplayBytes >> 10) KiB"
            var notes: [String] = []
            let long = cut.filter { !$0.bytesRanOut }.map(\.id)
            if !long.isEmpty {
                notes.append("the replays of \(long.count == 1 ? "session" : "sessions") \(list(long)) show their first \(settings.maximumSteps) events"
                             + " (the page replays at most \(settings.maximumSteps) events a session); `navlog replay \(path) --session ID` shows all of one")
            }
            if let cut = cut.first(where: \.bytesRanOut) {
                notes.append("the replay of session \(cut.id) shows its first \(cut.replayed) of \(cut.events) events (the page embeds at most"
                             + " \(bytes) of replays); `navlog replay \(path) --session \(cut.id)` shows them all")
            }
            if !omitted.isEmpty {
                let ids = omitted.map(\.id)
                notes.append("left out the replays of \(ids.count == 1 ? "session" : "\(ids.count) sessions") \(list(ids)) (the page embeds at most"
                             + " \(bytes) of replays); `navlog report \(path) -o \(output) --session ID --recent 0` embeds one")
            }
            return notes
        }
    }

    var report = ReadReport(mode: .tolerateTornTail)
    var sessions: [SessionSummary] = []
    private var screens: [ScreensQuery.Row] = [], bounces: [BouncesQuery.Row] = [], flow: [FlowQuery.Row] = []
    private var exits: [ExitsQuery.Row] = [], crashPaths: [ExitsQuery.CrashPath] = [], funnels: [[FunnelQuery.Row]] = []
    private var replays: [Replay] = []
    /// In how many chunks the log was read at once; 1 when in order.
    private(set) var chunks = 1
    /// How many of the views ended before they began (the clock went back while they were visible).
    private(set) var clockWentBack = 0

    private let options: Options

    init(options: ReportData.Options) { self.options = options }

    /// Reads the log once, on every core when it is large.
    mutating func gather(_ path: String, mode: RecoveryMode, filter: AnalyticsFilter, cleaning: PathCleaning, idle: Duration?,
                         threads: Int = ProcessInfo.processInfo.activeProcessorCount, chunkedFrom: Int = LogReader.chunkedBytes) throws {
        let progress = SharedProgress(path)
        defer { progress.finish() }
        let run = try ViewStream.run(Gathering(options: options), over: path, mode: mode, filter: filter, cleaning: cleaning, idle: idle,
                                     threads: threads, chunkedFrom: chunkedFrom, progress: progress.enabled ? progress.add : nil)
        let gathered = run.result
        (report, chunks, clockWentBack, screens, bounces) = (run.report, run.chunks, run.clockWentBack, gathered.screens, gathered.bounces)
        (exits, crashPaths, flow, funnels) = (gathered.exits.rows, gathered.exits.crashPaths, gathered.flow, gathered.funnels)
        // The sessions to replay are a few: their events are read again, from where each began.
        let (files, segmented) = try LogFiles.resolve(path)
        replays = try gathered.replays.map { try $0.readingEvents(of: path, files: files, segmented: segmented, mode: mode) }
        // The overview counts the sessions the filters admit by their app, id and start time (a
        // session spans scenes, so the scene filter does not apply to it).
        var sessionFilter = filter
        sessionFilter.scenes = []
        sessions = gathered.sessions.filter { sessionFilter.admits(start: $0.start, app: $0.app, session: $0.id, scene: "") }
    }

    /// The report's data as one JSON object, and what it leaves out of the sessions to replay.
    func json(path: String, filter: AnalyticsFilter) -> (bytes: [UInt8], leftOut: LeftOut) {
        var w = JSONWriter(capacity: 1 << 20)
        w.raw("{")
        w.key("format", first: true); w.integer(1)
        w.key("log"); w.string(path)
        w.key("filters"); w.string(filter.summary)
        w.key("events"); w.integer(report.events)
        w.key("firstSeq"); w.integer(report.firstSeq ?? 0)
        w.key("lastSeq"); w.integer(report.lastSeq ?? 0)
        w.key("firstTs"); if let first = sessions.first { w.timestamp(first.start) } else { w.raw("null") }
        w.key("lastTs"); if let last = sessions.last { w.timestamp(last.end) } else { w.raw("null") }
        var endings: [String: Int] = [:], apps: [String: Int] = [:], days: [String: Int] = [:]
        for session in sessions {
            endings[session.ending.rawValue, default: 0] += 1
            apps[session.app ?? "unknown", default: 0] += 1
            days[String(session.start.description.prefix(10)), default: 0] += 1
        }
        w.key("sessions"); w.raw("{")
        w.key("total", first: true); w.integer(sessions.count)
        for ending in ["clean", "unclean", "open"] { w.key(named: ending); w.integer(endings[ending] ?? 0) }
        w.raw("}")
        w.key("apps")
        w.array(apps.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) })) { w, app in
            w.raw("{"); w.key("app", first: true); w.string(app.key); w.key("sessions"); w.integer(app.value); w.raw("}")
        }
        w.key("perDay")
        w.array(days.sorted(by: { $0.key < $1.key })) { w, day in
            w.raw("{"); w.key("day", first: true); w.string(day.key); w.key("sessions"); w.integer(day.value); w.raw("}")
        }
        w.key("flow")
        w.array(flow) { w, row in
            w.raw("{"); w.key("step", first: true); w.integer(row.step); w.key("from"); w.string(row.from)
            w.key("to"); w.string(row.to); w.key("count"); w.integer(row.count); w.raw("}")
        }
        let bounceRows = Dictionary(uniqueKeysWithValues: bounces.map { ($0.screen, $0) })
        let exitRows = Dictionary(uniqueKeysWithValues: exits.map { ($0.screen, $0) })
        w.key("screens")
        w.array(screens) { w, row in
            w.raw("{"); w.key("screen", first: true); w.string(row.screen)
            w.key("views"); w.integer(row.views)
            w.key("sessions"); w.integer(row.sessions)
            w.key("medianMs"); if let m = row.dwellMedian { w.integer(Int(m)) } else { w.raw("null") }
            w.key("p90Ms"); if let p = row.dwellP90 { w.integer(Int(p)) } else { w.raw("null") }
            w.key("bounceBp"); w.integer(bounceRows[row.screen]?.rateBasisPoints ?? 0)
            w.key("exits"); w.integer(exitRows[row.screen]?.exits ?? 0)
            w.key("unclean"); w.integer(exitRows[row.screen]?.unclean ?? 0)
            w.raw("}")
        }
        w.key("funnels")
        w.array(funnels) { w, funnel in
            w.array(funnel) { w, row in
                w.raw("{"); w.key("screen", first: true); w.string(row.screen); w.key("sessions"); w.integer(row.sessions)
                w.key("dropOff"); w.integer(row.dropOff)
                w.key("conversionBp"); if let c = row.conversionFromFirst { w.integer(c) } else { w.raw("null") }
                w.key("medianMs"); if let m = row.medianMilliseconds { w.integer(Int(m)) } else { w.raw("null") }
                w.raw("}")
            }
        }
        w.key("crashPaths")
        w.array(crashPaths.prefix(20)) { w, row in
            w.raw("{"); w.key("path", first: true); w.value(.array(row.screens.map { .string($0) })); w.key("sessions"); w.integer(row.sessions); w.raw("}")
        }
        w.key("clockWentBack"); w.integer(clockWentBack)
        w.key("recent"); w.integer(options.recent)
        w.key("maximumSteps"); w.integer(options.maximumSteps)
        w.key("maximumReplayBytes"); w.integer(options.maximumReplayBytes)
        let leftOut = replays(into: &w)
        w.raw("}")
        return (w.bytes, leftOut)
    }

    /// Writes the sessions to replay, as `"replays"` and `"omitted"`, until they take
    /// ``Options/maximumReplayBytes``: each with its first state and its steps, each step what its
    /// event changed (or, when it replaced the state, the state after it) and what the scenes it
    /// changed show after it. The page applies the changes in turn; it computes nothing about
    /// navigation.
    private func replays(into w: inout JSONWriter) -> LeftOut {
        var leftOut = LeftOut()
        let summaries = Dictionary(sessions.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        w.key("replays"); w.raw("[")
        let start = w.bytes.count
        var written = 0
        for replay in replays {
            guard w.bytes.count - start < options.maximumReplayBytes else {
                leftOut.omitted.append((replay.id, replay.events))
                continue
            }
            if written > 0 { w.raw(",") }
            written += 1
            w.raw("{"); w.key("id", first: true); w.string(replay.id)
            w.key("ending"); w.string(summaries[replay.id]?.ending.rawValue ?? "open")
            w.key("app"); if let app = summaries[replay.id]?.app { w.string(app) } else { w.raw("null") }
            w.key("events"); w.integer(replay.events)
            w.key("start"); w.raw("{")
            w.key("state", first: true); w.state(replay.start)
            w.key("visible"); Self.visible(replay.start, replay.start.scenes.keys.sorted(), into: &w)
            w.raw("}")
            w.key("steps"); w.raw("[")
            var fold = DiffingFold(replay.start)
            var steps = 0
            for event in replay.replayed {
                if w.bytes.count - start >= options.maximumReplayBytes { break }
                if steps > 0 { w.raw(",") }
                steps += 1
                Self.step(event, folding: &fold, into: &w)
            }
            w.raw("]")
            w.raw("}")
            if steps < replay.events {
                leftOut.cut.append((replay.id, steps, replay.events, bytesRanOut: steps < replay.replayed.count))
            }
        }
        w.raw("]")
        w.key("omitted")
        w.array(leftOut.omitted) { w, session in
            w.raw("{"); w.key("id", first: true); w.string(session.id); w.key("events"); w.integer(session.events); w.raw("}")
        }
        return leftOut
    }

    /// One step of a replay: the event, and what it changed, folded into `fold`.
    private static func step(_ event: NavigationEvent, folding fold: inout DiffingFold, into w: inout JSONWriter) {
        let (anomaly, changes) = fold.fold(event)
        w.raw("{"); w.key("seq", first: true); w.integer(event.seq)
        w.key("ts"); w.timestamp(event.timestamp)
        w.key("event"); w.string(TimelineOutput.summary(event))
        if let anomaly { w.key("anomaly"); w.string(anomaly.kind.rawValue) }
        if event.action.changesEveryScene {
            w.key("state"); w.state(fold.after)
            w.key("visible"); visible(fold.after, fold.after.scenes.keys.sorted(), into: &w)
        } else {
            // A stack change names a sheet's stack by the sheet's id: the page gets the sheet's
            // place, found as the fold finds it (the topmost sheet of that id).
            w.key("changes")
            w.array(changes) { w, change in
                var sheet: Int?
                if case .stack(let scene, let stack, _, _) = change {
                    sheet = fold.after.scenes[scene]?.sheets.lastIndex { $0.id == stack }
                }
                w.change(change, sheet: sheet)
            }
            var scenes: [String] = []
            for change in changes {
                if let scene = change.scene, !scenes.contains(scene) { scenes.append(scene) }
            }
            w.key("visible"); visible(fold.after, scenes, into: &w)
        }
        w.raw("}")
    }

    /// What each of `scenes` shows in `state`, as the format defines it (null for a scene not
    /// open), so that the page need not work it out.
    private static func visible(_ state: NavigationState, _ scenes: [String], into w: inout JSONWriter) {
        w.raw("{")
        for (k, name) in scenes.enumerated() {
            w.key(named: name, first: k == 0)
            guard let screen = state.scenes[name]?.visibleScreen else {
                w.raw("null")
                continue
            }
            w.raw("{")
            w.key("source", first: true); w.string(screen.source.rawValue)
            w.key("stack"); if let stack = screen.stack { w.string(stack) } else { w.raw("null") }
            w.key("route"); w.string(screen.route.text)
            w.raw("}")
        }
        w.raw("}")
    }
}

extension StateDiff.Change {
    /// The scene the change is in; nil for a change of the active scene.
    fileprivate var scene: String? {
        switch self {
        case .sceneOpened(let scene), .sceneClosed(let scene), .tab(let scene, _, _), .stack(let scene, _, _, _),
             .sheetPresented(let scene, _), .sheetDismissed(let scene, _), .split(let scene, _, _):
            scene
        case .activeScene:
            nil
        }
    }
}

/// A session to replay: its first state and its events.
private struct Replay: Sendable {
    var id: String
    var start: NavigationState
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
    func readingEvents(of path: String, files: [String], segmented: Bool, mode: RecoveryMode) throws -> Replay {
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
private struct Gathering: PositionedViewQuery {
    static var seesEvents: Bool { true }

    let recent: Int, named: Set<String>, limit: Int
    var screens = ScreensQuery()
    var bounces = BouncesQuery()
    var exits: ExitsQuery
    var flow: FlowQuery
    var funnels: [FunnelQuery]
    var tracker = SessionTracker()
    /// The session being read, and the ones kept: those named, and the latest others.
    private var current: Replay?
    private var namedKept: [Replay] = [], recentKept: [Replay] = []

    init(options: ReportData.Options) {
        (recent, named, limit) = (options.recent, options.sessions, options.maximumSteps)
        exits = ExitsQuery(crashPaths: options.crashPaths)
        flow = FlowQuery(steps: options.steps, top: options.top)
        funnels = options.funnels.map { FunnelQuery(steps: $0, mode: .ordered, entry: .first) }
    }

    /// What the report shows of the views and the events, and the sessions to replay (their
    /// events not read yet).
    struct Result: Sendable {
        var screens: [ScreensQuery.Row], bounces: [BouncesQuery.Row], exits: ExitsQuery.Result
        var flow: [FlowQuery.Row], funnels: [[FunnelQuery.Row]]
        var sessions: [SessionSummary], replays: [Replay]
    }

    /// The sessions to replay: the named ones, then the latest first.
    private var replays: [Replay] {
        var (namedReplays, recentReplays) = (namedKept, recentKept)
        Self.close(current, named: named, keeping: recent, into: &namedReplays, &recentReplays)
        return namedReplays + recentReplays.reversed()
    }

    mutating func add(_ view: AnalyticsView) {
        screens.add(view)
        bounces.add(view)
        exits.add(view)
        flow.add(view)
        for k in funnels.indices { funnels[k].add(view) }
    }

    mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {
        Self.close(current, named: named, keeping: recent, into: &namedKept, &recentKept)
        current = Replay(id: event.session, start: event.isSessionStart ? NavigationState() : stateBefore)
    }

    mutating func see(_ event: NavigationEvent, at position: EventPosition) {
        tracker.consume(event)
        guard !event.isSnapshot else { return }
        current!.events += 1
        guard current!.count < limit else { return }
        if current!.first == nil { current!.first = position }
        current!.count += 1
        current!.lastSeq = event.seq
    }

    consuming func finalize() -> Result {
        Result(screens: screens.finalize(), bounces: bounces.finalize(), exits: exits.finalize(), flow: flow.finalize(),
               funnels: funnels.map { $0.finalize() }, sessions: tracker.sessions, replays: replays)
    }

    mutating func merge(_ later: consuming Gathering) {
        screens.merge(later.screens)
        bounces.merge(later.bounces)
        exits.merge(later.exits)
        flow.merge(later.flow)
        for k in funnels.indices { funnels[k].merge(later.funnels[k]) }
        // `later` began with the session.start this chunk saw last: the session it began is
        // later's, and the one before it was closed here.
        tracker.append(later.tracker)
        current = later.current
        namedKept += later.namedKept
        recentKept = Array((recentKept + later.recentKept).suffix(recent))
    }

    private static func close(_ replay: Replay?, named: Set<String>, keeping recent: Int, into namedKept: inout [Replay], _ recentKept: inout [Replay]) {
        guard let replay, replay.count > 0 else { return }
        if named.contains(replay.id) { return namedKept.append(replay) }
        recentKept.append(replay)
        if recentKept.count > recent { recentKept.removeFirst() }
    }
}
