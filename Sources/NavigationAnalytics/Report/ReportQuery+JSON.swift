import NavigationHistory

extension ReportQuery.Result {
    /// The report's data as one JSON object, the page's input, and what it leaves out of the
    /// sessions to replay.
    ///
    /// The object's members are in a fixed order, its lists sorted as the queries sort them, so the
    /// same log gives the same bytes however it was read. Replays come until they take
    /// ``Options/maximumReplayBytes``.
    ///
    /// Gathered over several logs (``logs``), the object also lists them as `logs` — each
    /// log's `path`, `events`, `first_seq` and `last_seq` — and the session ids several use as
    /// `repeated_sessions` — each one's `session`, `logs` and `names` — as the analytics
    /// subcommands' JSON does; `firstSeq` and `lastSeq` are null (seqs are a log's own), `firstTs`
    /// and `lastTs` the earliest start and the latest end of a session, and each replay says its
    /// `log` and its id there (`sessionInLog`).
    ///
    /// Second, after `format`, comes what the readings dropped, as the analytics subcommands' JSON
    /// has it: `dropped_lines`, `{"mode", "count", "first": [{"file", "line", "offset", "kind",
    /// "detail"}]}` (``DroppedLines``).
    ///
    /// - Parameters:
    ///   - path: The log's name, as the page shows it (over several logs: the paths as given,
    ///     which the page puts in the commands it suggests).
    ///   - filter: The filters the data was gathered with, as the page names them.
    ///   - logNames: Over several logs, their names, as the page shows them, in order; by default,
    ///     and for a log past the names given, its path as read.
    ///   - fileName: The name the page gives a file of a log (where a line was dropped); by
    ///     default its path as read.
    public func json(path: String, filter: AnalyticsFilter, logNames: [String]? = nil,
                     fileName: (String) -> String = { $0 }) -> (bytes: [UInt8], leftOut: ReportQuery.LeftOut) {
        var w = JSONWriter(capacity: 1 << 20)
        let names = logs.indices.map { k in logNames.flatMap { k < $0.count ? $0[k] : nil } ?? logs[k].path }
        w.raw("{")
        w.key("format", first: true); w.integer(1)
        w.key("dropped_lines"); w.dropped(logs.isEmpty ? [report.dropped] : logs.map(\.report.dropped), naming: fileName)
        w.key("log"); w.string(path)
        w.key("filters"); w.string(filter.summary)
        w.key("events"); w.integer(report.events)
        if logs.isEmpty {
            w.key("firstSeq"); w.integer(report.firstSeq ?? 0)
            w.key("lastSeq"); w.integer(report.lastSeq ?? 0)
            w.key("firstTs"); if let first = sessions.first { w.timestamp(first.start) } else { w.raw("null") }
            w.key("lastTs"); if let last = sessions.last { w.timestamp(last.end) } else { w.raw("null") }
        } else {
            w.key("firstSeq"); w.raw("null")
            w.key("lastSeq"); w.raw("null")
            w.key("firstTs"); if let first = sessions.min(by: { $0.start < $1.start }) { w.timestamp(first.start) } else { w.raw("null") }
            w.key("lastTs"); if let last = sessions.max(by: { $0.end < $1.end }) { w.timestamp(last.end) } else { w.raw("null") }
            manyLogs(names, into: &w)
        }
        var endings: [String: Int] = [:], apps: [String: Int] = [:], days: [String: Int] = [:]
        for session in sessions {
            endings[session.ending.rawValue, default: 0] += 1
            apps[session.app ?? "unknown", default: 0] += 1
            days[String(session.start.description.prefix(10)), default: 0] += 1
        }
        w.key("sessions"); w.raw("{")
        w.key("total", first: true); w.integer(sessions.count)
        for ending in SessionEnd.allCases.map(\.rawValue) { w.key(named: ending); w.integer(endings[ending] ?? 0) }
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
        let exitRows = Dictionary(uniqueKeysWithValues: exits.rows.map { ($0.screen, $0) })
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
        w.array(exits.crashPaths.prefix(20)) { w, row in
            w.raw("{"); w.key("path", first: true); w.value(.array(row.screens.map { .string($0) })); w.key("sessions"); w.integer(row.sessions); w.raw("}")
        }
        w.key("clockWentBack"); w.integer(clockWentBack)
        w.key("recent"); w.integer(options.recent)
        w.key("maximumSteps"); w.integer(options.maximumSteps)
        w.key("maximumReplayBytes"); w.integer(options.maximumReplayBytes)
        w.key("named"); w.value(.array(options.sessions.sorted().map { .string($0) }))
        let leftOut = replays(into: &w, logNames: names)
        w.raw("}")
        return (w.bytes, leftOut)
    }

    /// Writes `logs` and `repeated_sessions`, as the analytics subcommands' JSON has them, the
    /// logs named `names`.
    private func manyLogs(_ names: [String], into w: inout JSONWriter) {
        w.key("logs")
        w.array(Array(zip(names, logs))) { w, log in
            w.raw("{"); w.key("path", first: true); w.string(log.0); w.key("events"); w.integer(log.1.report.events)
            w.key("first_seq"); if let seq = log.1.report.firstSeq { w.integer(seq) } else { w.raw("null") }
            w.key("last_seq"); if let seq = log.1.report.lastSeq { w.integer(seq) } else { w.raw("null") }
            w.raw("}")
        }
        w.key("repeated_sessions")
        w.array(repeatedSessions) { w, repeated in
            w.raw("{"); w.key("session", first: true); w.string(repeated.id)
            w.key("logs"); w.value(.array(repeated.logs.map { .string(names[$0]) }))
            w.key("names"); w.value(.array(repeated.names.map { .string($0) }))
            w.raw("}")
        }
    }

    /// Writes the sessions to replay, as `"replays"` and `"omitted"`, until they take
    /// ``Options/maximumReplayBytes``: each with its first state and its steps, each step what its
    /// event changed (or, when it replaced the state, the state after it), what the scenes it
    /// changed show after it (``visible(_:_:naming:into:)``), a scene's stacks when it made one and its
    /// tabs when they changed (``ReplayTabs``); then the spans its scenes spent in the background
    /// (``ReplayAway``). Only what changed is sent, so that the page grows with the steps, not
    /// with their stacks. The page applies the changes in turn and draws what it is told.
    private func replays(into w: inout JSONWriter, logNames: [String]) -> ReportQuery.LeftOut {
        var leftOut = ReportQuery.LeftOut()
        let summaries = Dictionary(sessions.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        w.key("replays"); w.raw("[")
        let start = w.bytes.count
        var written = 0
        for replay in replays {
            guard w.bytes.count - start < options.maximumReplayBytes else {
                leftOut.omitted.append(ReportQuery.LeftOut.Omitted(id: replay.id, events: replay.events))
                continue
            }
            if written > 0 { w.raw(",") }
            written += 1
            w.raw("{"); w.key("id", first: true); w.string(replay.id)
            if !logs.isEmpty { w.key("log"); w.string(logNames[replay.log]); w.key("sessionInLog"); w.string(replay.idInLog ?? replay.id) }
            w.key("ending"); w.string(summaries[replay.id]?.ending.rawValue ?? "open")
            w.key("app"); if let app = summaries[replay.id]?.app { w.string(app) } else { w.raw("null") }
            w.key("events"); w.integer(replay.events)
            let origin = replay.replayed.first?.timestamp
            w.key("ts"); if let origin { w.timestamp(origin) } else { w.raw("null") }
            var tabs = ReplayTabs()
            let scenes = replay.start.scenes.keys.sorted()
            w.key("start"); w.raw("{")
            w.key("state", first: true); w.state(replay.start)
            w.key("visible"); Self.visible(replay.start, scenes, naming: Set(scenes), into: &w)
            w.key("tabs"); Self.tabs(tabs.update(replay.start, scenes: scenes), of: tabs, into: &w)
            w.raw("}")
            w.key("steps"); w.raw("[")
            var fold = DiffingFold(replay.start)
            var away = ReplayAway()
            away.restate(replay.start, at: 0)
            var steps = 0
            for event in replay.replayed {
                if w.bytes.count - start >= options.maximumReplayBytes { break }
                if steps > 0 { w.raw(",") }
                steps += 1
                let changes = Self.step(event, since: origin ?? event.timestamp, folding: &fold, tabs: &tabs, into: &w)
                if event.setsWholeState { away.restate(fold.after, at: steps - 1) } else { away.take(changes, at: steps - 1) }
            }
            w.raw("]")
            w.key("away")
            w.array(away.spans) { w, span in
                w.raw("{"); w.key("scene", first: true); w.string(span.scene); w.key("from"); w.integer(span.from)
                w.key("to"); if let to = span.to { w.integer(to) } else { w.raw("null") }
                w.raw("}")
            }
            w.raw("}")
            if steps < replay.events {
                leftOut.cut.append(ReportQuery.LeftOut.Cut(id: replay.id, replayed: steps, events: replay.events, bytesRanOut: steps < replay.replayed.count,
                                                           log: replay.log, idInLog: replay.idInLog ?? replay.id))
            }
        }
        w.raw("]")
        w.key("omitted")
        w.array(leftOut.omitted) { w, session in
            w.raw("{"); w.key("id", first: true); w.string(session.id); w.key("events"); w.integer(session.events); w.raw("}")
        }
        return leftOut
    }

    /// One step of a replay: the event — its seq, its time in milliseconds since `origin` (the
    /// session's first event, the replay's `ts`; negative when the clock went back), what the
    /// time axis marks it as, and its summary, which begins with its type — and what it changed,
    /// folded into `fold`; and, for each scene whose tabs it changed (every scene, when it set the
    /// state whole), the scene's tabs, as `tabs` finds them.
    /// Returns what the event changed.
    private static func step(_ event: NavigationEvent, since origin: Timestamp, folding fold: inout DiffingFold,
                             tabs: inout ReplayTabs, into w: inout JSONWriter) -> [StateDiff.Change] {
        // A stack is made by the event that first names it, and stays while its scene is open;
        // popToRoot, an empty setPath or a deep link's empty path make one with no change in the
        // diff. So a scene's stacks changed exactly when their number did.
        let scene = event.action.scene
        let stacksBefore = scene.flatMap { fold.after.scenes[$0]?.stacks.count } ?? 0
        let (anomaly, changes) = fold.fold(event)
        w.raw("{"); w.key("seq", first: true); w.integer(event.seq)
        w.key("t"); w.integer(Int(event.timestamp.millisecondsSince1970 - origin.millisecondsSince1970))
        if let mark = event.replayMark { w.key("mark"); w.string(mark) }
        w.key("event"); w.string(event.summary)
        if let anomaly { w.key("anomaly"); w.string(anomaly.kind.rawValue) }
        if event.setsWholeState {
            let scenes = fold.after.scenes.keys.sorted()
            w.key("state"); w.state(fold.after)
            w.key("visible"); visible(fold.after, scenes, naming: Set(scenes), into: &w)
            _ = tabs.update(fold.after, scenes: fold.before.scenes.keys)   // scenes closed
            _ = tabs.update(fold.after, scenes: scenes)
            w.key("tabs"); Self.tabs(scenes, of: tabs, into: &w)
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
            // The scene's stacks, empty ones too, when the event made one: no change says so.
            if let scene, let stacks = fold.after.scenes[scene]?.stacks, stacks.count != stacksBefore {
                w.key("stacks"); w.raw("{"); w.key(named: scene, first: true)
                w.value(.array(stacks.keys.sorted().map { .string($0) }))
                w.raw("}")
            }
            var scenes: [String] = []
            for change in changes {
                if let scene = change.scene, !scenes.contains(scene) { scenes.append(scene) }
            }
            var tabbed: Set<String> = []
            for case .tab(let scene, _, _) in changes { tabbed.insert(scene) }
            w.key("visible"); visible(fold.after, scenes, naming: tabbed, into: &w)
            let changed = tabs.update(fold.after, scenes: scenes)
            if !changed.isEmpty { w.key("tabs"); Self.tabs(changed, of: tabs, into: &w) }
        }
        w.raw("}")
        return changes
    }

    /// The tabs of each of `scenes`, as an object of sorted lists.
    private static func tabs(_ scenes: [String], of tabs: ReplayTabs, into w: inout JSONWriter) {
        w.raw("{")
        for (k, name) in scenes.enumerated() {
            w.key(named: name, first: k == 0)
            w.value(.array(tabs.tabs(of: name).map { .string($0) }))
        }
        w.raw("}")
    }

    /// What each of `scenes` shows in `state`, as the format defines it (null for a scene not
    /// open), so that the page need not work it out: the visible route, where it comes from, the
    /// route a back button names (``backRoute(of:in:)``; absent when there is none), the stack
    /// shown when no sheet is (absent when it is the visible route's stack, or `main` for none),
    /// as `under` the title and back label of each layer drawn beneath the visible one
    /// (``ReplayLayers/covered(in:showing:)``; absent when there is none), as `columns` the split
    /// view's columns beside its detail (``ReplayLayers/columns(of:)``; absent with no split
    /// view), and for `roots`, the scenes whose tab changed, the root's name at the head of a
    /// stack's trail (``ReplayLayers/rootName(of:)``): the page keeps it until it changes.
    private static func visible(_ state: NavigationState, _ scenes: [String], naming roots: Set<String>, into w: inout JSONWriter) {
        w.raw("{")
        for (k, name) in scenes.enumerated() {
            w.key(named: name, first: k == 0)
            guard let scene = state.scenes[name] else {
                w.raw("null")
                continue
            }
            let screen = scene.visibleScreen
            w.raw("{")
            w.key("source", first: true); w.string(screen.source.rawValue)
            w.key("stack"); if let stack = screen.stack { w.string(stack) } else { w.raw("null") }
            w.key("route"); w.string(screen.route.text)
            if let back = backRoute(of: screen, in: scene) { w.key("back"); w.string(back.text) }
            if scene.currentStack != screen.stack ?? "main" { w.key("current"); w.string(scene.currentStack) }
            if roots.contains(name) { w.key("root"); w.string(ReplayLayers.rootName(of: scene)) }
            if let split = scene.split {
                w.key("columns")
                w.array(ReplayLayers.columns(of: split)) { w, column in
                    w.raw("{"); w.key("column", first: true); w.string(column.column); w.key("title"); w.string(column.title); w.raw("}")
                }
            }
            let covered = ReplayLayers.covered(in: scene, showing: screen)
            if !covered.isEmpty {
                w.key("under")
                w.array(covered) { w, layer in
                    w.raw("{"); w.key("title", first: true); w.string(layer.title)
                    if let back = layer.back { w.key("back"); w.string(back) }
                    w.raw("}")
                }
            }
            w.raw("}")
        }
        w.raw("}")
    }

    /// The route a back button over `screen` names: the one below it on its stack, the sheet's
    /// root under a sheet's first pushed route, the root (named by the selected tab, or `root`)
    /// under a stack's first route; nil at a sheet's root, a split selection or a root, where
    /// there is no going back.
    static func backRoute(of screen: VisibleScreen, in scene: SceneState) -> Route? {
        switch screen.source {
        case .sheet:
            guard let sheet = scene.sheets.last, !sheet.stack.isEmpty else { return nil }
            return sheet.stack.count >= 2 ? sheet.stack[sheet.stack.count - 2] : sheet.root
        case .stack:
            guard let stack = screen.stack, let routes = scene.stacks[stack], !routes.isEmpty else { return nil }
            return routes.count >= 2 ? routes[routes.count - 2] : Route(screen: ReplayLayers.rootName(of: scene))
        case .splitContent, .splitSidebar, .root:
            return nil
        }
    }
}

extension StateDiff.Change {
    /// The scene the change is in; nil for a change of the active scene.
    fileprivate var scene: String? {
        switch self {
        case .sceneOpened(let scene), .sceneClosed(let scene), .tab(let scene, _, _), .stack(let scene, _, _, _),
             .sheetPresented(let scene, _), .sheetDismissed(let scene, _), .split(let scene, _, _), .phase(let scene, _, _):
            scene
        case .activeScene:
            nil
        }
    }
}

