import NavigationHistory

extension ReportQuery.Result {
    /// The report's data as one JSON object, the page's input; the lines of the events its
    /// replays step through, apart; and what it leaves out of the sessions to replay.
    ///
    /// Its first member is `"format": 2`; its members are named in snake_case, in a fixed order,
    /// its lists sorted as the queries sort them, so that the same log gives the same bytes however
    /// it was read. Rates are percentages (`bounce_pct`, `conversion_pct`): the queries' basis
    /// points over 100, with at most 2 decimals, written in their shortest form (94.5, 100).
    /// Replays come until they take ``Options/maximumReplayBytes``; each says why it is replayed
    /// (`reason`: `named`, `crashed` or `recent`). Each crash path and each funnel step lists as
    /// `replays` the moments of the replays written that show it — `{"session", "step"}`, the
    /// step 0-based — where the path's first screen, or the step's screen, began.
    ///
    /// Gathered over several logs (``logs``), the object also lists them as `logs` — each
    /// log's `path`, `events`, `first_seq` and `last_seq` — and the session ids several use as
    /// `repeated_sessions` — each one's `session`, `logs` and `names` — as the analytics
    /// subcommands' JSON does; `first_seq` and `last_seq` are null (seqs are a log's own),
    /// `first_ts` and `last_ts` the earliest start and the latest end of a session, and each
    /// replay says its `log` and its id there (`session_in_log`), which are null over one log.
    ///
    /// The lines are a JSON array holding, for each replay written, an array of its steps' events
    /// each as navlog writes its line, `crc` and all, less the `v`, `seq`, `ts` and `session` the
    /// replay already says (``JSONWriter/line(of:)``): the page reads them only to show an event
    /// raw, so they are kept out of the data it reads to draw. They count towards
    /// ``Options/maximumReplayBytes``.
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
                     fileName: (String) -> String = { $0 }) -> (bytes: [UInt8], lines: [UInt8], leftOut: ReportQuery.LeftOut) {
        let names = logs.indices.map { k in logNames.flatMap { k < $0.count ? $0[k] : nil } ?? logs[k].path }
        // The replays first, apart: the links to them name the steps written.
        var replayed = JSONWriter(capacity: 1 << 20), lines = JSONWriter(capacity: 1 << 20)
        let (leftOut, links) = replays(into: &replayed, lines: &lines, logNames: names)
        var w = JSONWriter(capacity: replayed.bytes.count + (1 << 16))
        w.raw("{")
        w.key("format", first: true); w.integer(2)
        w.key("dropped_lines"); w.dropped(logs.isEmpty ? [report.dropped] : logs.map(\.report.dropped), naming: fileName)
        w.key("log"); w.string(path)
        w.key("filters"); w.string(filter.summary)
        w.key("events"); w.integer(report.events)
        if logs.isEmpty {
            w.key("first_seq"); w.integer(report.firstSeq ?? 0)
            w.key("last_seq"); w.integer(report.lastSeq ?? 0)
            w.key("first_ts"); if let first = sessions.first { w.timestamp(first.start) } else { w.raw("null") }
            w.key("last_ts"); if let last = sessions.last { w.timestamp(last.end) } else { w.raw("null") }
        } else {
            w.key("first_seq"); w.raw("null")
            w.key("last_seq"); w.raw("null")
            w.key("first_ts"); if let first = sessions.min(by: { $0.start < $1.start }) { w.timestamp(first.start) } else { w.raw("null") }
            w.key("last_ts"); if let last = sessions.max(by: { $0.end < $1.end }) { w.timestamp(last.end) } else { w.raw("null") }
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
        w.key("per_day")
        w.array(days.sorted(by: { $0.key < $1.key })) { w, day in
            w.raw("{"); w.key("day", first: true); w.string(day.key); w.key("sessions"); w.integer(day.value); w.raw("}")
        }
        // The flow's nodes by their screen (or `other`), the step saying where they are.
        w.key("flow")
        w.array(flow) { w, row in
            w.raw("{"); w.key("step", first: true); w.integer(row.step)
            w.key("from"); w.string(String(row.from.dropFirst("\(row.step)_".count)))
            w.key("to"); w.string(String(row.to.dropFirst("\(row.step + 1)_".count)))
            w.key("count"); w.integer(row.count); w.raw("}")
        }
        let bounceRows = Dictionary(uniqueKeysWithValues: bounces.map { ($0.screen, $0) })
        let exitRows = Dictionary(uniqueKeysWithValues: exits.rows.map { ($0.screen, $0) })
        w.key("screens")
        w.array(screens) { w, row in
            w.raw("{"); w.key("screen", first: true); w.string(row.screen)
            w.key("views"); w.integer(row.views)
            w.key("sessions"); w.integer(row.sessions)
            w.key("median_ms"); if let m = row.dwellMedian { w.integer(Int(m)) } else { w.raw("null") }
            w.key("p90_ms"); if let p = row.dwellP90 { w.integer(Int(p)) } else { w.raw("null") }
            w.key("bounce_pct"); w.raw(Percent.text(basisPoints: Int64(bounceRows[row.screen]?.rateBasisPoints ?? 0)))
            w.key("exits"); w.integer(exitRows[row.screen]?.exits ?? 0)
            w.key("unclean"); w.integer(exitRows[row.screen]?.unclean ?? 0)
            w.raw("}")
        }
        w.key("funnels")
        w.array(zip(funnels, links.funnels)) { w, funnel in
            w.array(zip(funnel.0, funnel.1)) { w, step in
                let row = step.0
                w.raw("{"); w.key("screen", first: true); w.string(row.screen); w.key("sessions"); w.integer(row.sessions)
                w.key("drop_off"); w.integer(row.dropOff)
                w.key("conversion_pct"); if let c = row.conversionFromFirst { w.raw(Percent.text(basisPoints: Int64(c))) } else { w.raw("null") }
                w.key("median_ms"); if let m = row.medianMilliseconds { w.integer(Int(m)) } else { w.raw("null") }
                w.key("replays"); w.moments(step.1)
                w.raw("}")
            }
        }
        w.key("crash_paths")
        w.array(exits.crashPaths.prefix(20)) { w, row in
            w.raw("{"); w.key("path", first: true); w.value(.array(row.screens.map { .string($0) })); w.key("sessions"); w.integer(row.sessions)
            w.key("replays"); w.moments(links.crashPaths[row.screens] ?? [])
            w.raw("}")
        }
        w.key("clock_went_back"); w.integer(clockWentBack)
        w.key("recent"); w.integer(options.recent)
        w.key("crashed"); w.integer(options.crashed)
        w.key("maximum_steps"); w.integer(options.maximumSteps)
        w.key("maximum_replay_bytes"); w.integer(options.maximumReplayBytes)
        w.key("named"); w.value(.array(options.sessions.sorted().map { .string($0) }))
        w.key("replays"); w.bytes += replayed.bytes
        w.key("omitted")
        w.array(leftOut.omitted) { w, session in
            w.raw("{"); w.key("id", first: true); w.string(session.id); w.key("events"); w.integer(session.events); w.raw("}")
        }
        w.raw("}")
        return (w.bytes, lines.bytes, leftOut)
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

    /// Writes the list of the sessions to replay until they take ``Options/maximumReplayBytes``:
    /// each with its first state and its steps, each step what its event changed (or, when it
    /// replaced the state, the state after it), what the scenes it changed show after it
    /// (``visible(_:_:naming:into:)``), a scene's stacks when it made one and its tabs when they
    /// changed (``ReplayTabs``); then the spans its scenes spent in the background
    /// (``ReplayAway``). Only what changed is sent, so that the page grows with the steps, not
    /// with their stacks. The page applies the changes in turn and draws what it is told. Writes
    /// the steps' events into `lines`, an array for each replay written.
    /// Returns what it left out, and where the replays written show each crash path and funnel step.
    private func replays(into w: inout JSONWriter, lines: inout JSONWriter, logNames: [String]) -> (ReportQuery.LeftOut, ReportLinks) {
        var leftOut = ReportQuery.LeftOut()
        var links = ReportLinks(funnels: options.funnels.map(\.count))
        let exitsQuery = ExitsQuery(crashPaths: options.crashPaths), funnelQueries = options.funnels.map(ReportGathering.funnel)
        let apps = Dictionary(sessions.map { ($0.id, $0.app) }, uniquingKeysWith: { _, last in last })
        w.raw("["); lines.raw("[")
        let start = w.bytes.count + lines.bytes.count
        var written = 0
        for replay in replays {
            guard w.bytes.count + lines.bytes.count - start < options.maximumReplayBytes else {
                leftOut.omitted.append(ReportQuery.LeftOut.Omitted(id: replay.id, events: replay.events))
                continue
            }
            if written > 0 { w.raw(","); lines.raw(",") }
            written += 1
            w.raw("{"); w.key("id", first: true); w.string(replay.id)
            w.key("log"); if logs.isEmpty { w.raw("null") } else { w.string(logNames[replay.log]) }
            w.key("session_in_log"); if logs.isEmpty { w.raw("null") } else { w.string(replay.idInLog ?? replay.id) }
            w.key("reason"); w.string(replay.reason.rawValue)
            w.key("ending"); w.string(replay.end.rawValue)
            w.key("app"); if let app = apps[replay.id] ?? nil { w.string(app) } else { w.raw("null") }
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
            w.key("steps"); w.raw("["); lines.raw("[")
            var fold = DiffingFold(replay.start)
            var away = ReplayAway()
            away.restate(replay.start, at: 0)
            var steps = 0, stepOf: [Int: Int] = [:]
            for event in replay.replayed {
                if w.bytes.count + lines.bytes.count - start >= options.maximumReplayBytes { break }
                if steps > 0 { w.raw(","); lines.raw(",") }
                if stepOf[event.seq] == nil { stepOf[event.seq] = steps }
                steps += 1
                let changes = Self.step(event, since: origin ?? event.timestamp, folding: &fold, tabs: &tabs, into: &w)
                lines.line(of: event)
                if event.setsWholeState { away.restate(fold.after, at: steps - 1) } else { away.take(changes, at: steps - 1) }
            }
            w.raw("]"); lines.raw("]")
            w.key("away")
            w.array(away.spans) { w, span in
                w.raw("{"); w.key("scene", first: true); w.string(span.scene); w.key("from"); w.integer(span.from)
                w.key("to"); if let to = span.to { w.integer(to) } else { w.raw("null") }
                w.raw("}")
            }
            w.raw("}")
            links.add(replay, steps: stepOf, exits: exitsQuery, funnels: funnelQueries)
            if steps < replay.events {
                leftOut.cut.append(ReportQuery.LeftOut.Cut(id: replay.id, replayed: steps, events: replay.events, bytesRanOut: steps < replay.replayed.count,
                                                           log: replay.log, idInLog: replay.idInLog ?? replay.id))
            }
        }
        w.raw("]"); lines.raw("]")
        return (leftOut, links)
    }
}
