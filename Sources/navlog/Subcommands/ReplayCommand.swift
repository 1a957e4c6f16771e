import NavigationAnalytics
import NavigationHistory

/// `navlog replay PATH (--session ID | --from SEQ --to SEQ) [--format text|json]`
enum ReplayCommand: Subcommand {
    static let name = "replay"
    static let summary = "Replay a session step by step: each event, the screen after it, and what changed."
    static let help = """
        Usage: navlog replay PATH --session ID [--from SEQ] [--to SEQ] [--format text|json] [--strict]
               navlog replay PATH --from SEQ [--to SEQ] [--format text|json] [--strict]
                                  [--mode MODE] [--interval K] [--no-index]

        Prints a transcript of a session (or of a range of seqs): for each event, its seq, time and
        what it did, the visible screen of its scene after it, and what changed in the state (a
        scene's phase too: where a scene comes back from the background, the text says how long it
        was there, e.g. "main: 2 h 14 min in the background"). With
        --session, only that session's events are shown, narrowed by --from and --to when given.
        A log may use a session id again (a device whose clock or id source was reset): every run
        of the id is replayed, in order, each announced as "run K of N" (text) or numbered by the
        steps' "run" (JSON).

        Options:
          --session ID      The session to replay (see `navlog sessions`).
          --from SEQ        The first seq to show.
          --to SEQ          The last seq to show (default: the session's or the log's last).
          --format FORMAT   text (default): one line per event, then its changes indented.
                            json: {"format": 2, "dropped_lines" (see --mode), "session", "from",
                            "to", "runs": [{"run", "from", "to"}], "steps": [{"seq", "ts",
                            "session", "run", "type", "event", "scene", "visible", "changes",
                            "anomaly"}]} ("runs" and "run" with --session only).
          --strict          Refuse (exit 65) at the first event that does not fit the state.
        \(TimelineOutput.optionsHelp)
        Exit status: 0, 64 on a usage error, 65 on a defect the mode does not tolerate or an anomaly
        with --strict, 66 when PATH or the session does not exist (the closest ids are suggested), 74
        on an I/O error.

        Examples:
          navlog replay app.jsonl --session 4F2A
          navlog replay app.jsonl --session 4F2A --from 40 --to 60 --format json
        """

    static let options: [CommandOption] = [.option("--session", "ID"), .option("--from", "SEQ"), .option("--to", "SEQ"), .textOrJSON,
                                           .flag("--strict")] + TimelineOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInput(parsed.path())
        let path = input.shown
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        let session = parsed.value("--session")
        let from = try parsed.integer("--from", range: 1...Int.max)
        let to = try parsed.integer("--to", range: 1...Int.max)
        guard session != nil || from != nil else { throw UsageError("give --session ID, or a range with --from SEQ") }
        let timeline = try TimelineOutput.open(input.path, parsed)
        // The seqs replayed: each run of the session's id, narrowed by --from and --to; else one range.
        let ranges: [(first: Int, last: Int)]
        if let session {
            let runs = timeline.sessions(withID: session)
            guard !runs.isEmpty else {
                let close = Suggestions.phrase(Suggestions.closest(to: session, among: timeline.sessions.map(\.id)))
                throw NavigationHistoryError(code: .noInput, message: "no session '\(session)' in this log\(close) (`navlog sessions \(path)` lists them)",
                                             path: path)
            }
            ranges = runs.map { (max(from ?? $0.firstSeq, $0.firstSeq), min(to ?? $0.lastSeq, $0.lastSeq)) }
        } else {
            ranges = [(from!, to ?? timeline.lastSeq ?? from!)]
        }
        let first = ranges.first!.first, last = ranges.last!.last
        let strict = parsed.has("--strict")
        // Each step of every run, in order, to `body`.
        func replay(_ body: (Step) throws -> Void) throws {
            for (k, range) in ranges.enumerated() where range.first <= range.last {
                try timeline.replay(from: range.first, through: range.last) { step in
                    if let session, step.event.session != session { return }
                    if let anomaly = step.anomaly, strict {
                        throw NavigationHistoryError(code: .corruptLog, message: "--strict: \(anomaly)", path: path)
                    }
                    try body(Step(step, run: session == nil ? nil : k + 1))
                }
            }
        }
        var out = StandardOutput()
        switch format {
        case .json:
            let runs = session == nil ? nil : ranges.enumerated().map { Output.Run(run: $0.offset + 1, from: $0.element.first, to: $0.element.last) }
            try JSONOutput.write(Output(droppedLines: try DroppedOutput(path, timeline.report).json, session: session, from: first, to: last,
                                        runs: runs, steps: Output.Steps(replay)), to: &out)
        case .text:
            let runs = ranges.count > 1 ? ", \(ranges.count) runs of the id" : ""
            out.line("\(path): replay of \(session.map { "session \($0), " } ?? "")seq \(first)...\(last)\(runs)")
            var steps = 0, run = 0
            // When each scene went to the background, to say how long it stayed there when it comes back.
            var wentToBackground: [String: Timestamp] = [:]
            try replay { step in
                if ranges.count > 1, let k = step.run, k != run {
                    run = k
                    out.line("run \(k) of \(ranges.count): seq \(ranges[k - 1].first)...\(ranges[k - 1].last)")
                }
                var line = "\(step.seq)  \(step.timestamp)  \(step.event)"
                if let scene = step.scene, let visible = step.visibleRoute { line += "  →  \(scene): \(visible.text)" }
                if let anomaly = step.anomalyKind { line += "  [anomaly: \(anomaly)]" }
                out.line(line)
                for change in step.stateChanges {
                    out.line("      \(change)")
                    guard case .phase(let scene, let from, let to) = change else { continue }
                    if to == .background {
                        wentToBackground[scene] = step.timestamp
                    } else if from == .background, let since = wentToBackground.removeValue(forKey: scene) {
                        let gap = step.timestamp.millisecondsSince1970 - since.millisecondsSince1970
                        out.line("      \(scene): \(TextFormat.duration(milliseconds: gap)) in the background")
                    }
                }
                steps += 1
            }
            out.line(counted(steps, "event"))
        }
        try out.flush()
    }

    /// The JSON output: the steps written as they are replayed, so a long replay takes bounded memory.
    struct Output: Encodable {
        /// One run of the session's id.
        struct Run: Encodable {
            var run: Int
            var from: Int
            var to: Int
        }

        /// The steps, encoded as the replay hands them over.
        struct Steps: Encodable {
            let replay: ((Step) throws -> Void) throws -> Void

            init(_ replay: @escaping ((Step) throws -> Void) throws -> Void) { self.replay = replay }

            func encode(to encoder: any Encoder) throws {
                var steps = encoder.unkeyedContainer()
                try replay { try steps.encode($0) }
            }
        }

        let format = JSONOutput.format
        /// What the reading dropped.
        var droppedLines: JSONFragment
        var session: String?
        var from: Int
        var to: Int
        /// With `--session` only.
        var runs: [Run]?
        var steps: Steps

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: AnyKey.self)
            try members.encode(format, forKey: AnyKey("format"))
            try members.encode(droppedLines, forKey: AnyKey("dropped_lines"))
            try members.encode(session, forKey: AnyKey("session"))
            try members.encode(from, forKey: AnyKey("from"))
            try members.encode(to, forKey: AnyKey("to"))
            if let runs { try members.encode(runs, forKey: AnyKey("runs")) }
            try members.encode(steps, forKey: AnyKey("steps"))
        }
    }

    /// One event replayed: what it did, what its scene shows after it, and what changed.
    struct Step: Encodable {
        var seq: Int
        var timestamp: Timestamp
        var session: String
        /// The run of the session's id, with `--session` only.
        var run: Int?
        var type: String
        var event: String
        var scene: String?
        var visibleRoute: Route?
        var stateChanges: [StateDiff.Change]
        var anomalyKind: String?
        var anomaly: String?

        init(_ step: ReplayStep, run: Int?) {
            let event = step.event
            (seq, timestamp, session, self.run, type, self.event) = (event.seq, event.timestamp, event.session, run, event.type, event.summary)
            scene = event.action.scene ?? step.after.active
            visibleRoute = scene.flatMap { step.after.scenes[$0]?.visibleScreen.route }
            stateChanges = step.changes
            (anomalyKind, anomaly) = (step.anomaly?.kind.rawValue, step.anomaly?.description)
        }

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: AnyKey.self)
            try members.encode(seq, forKey: AnyKey("seq"))
            try members.encode(JSONFragment { [timestamp] in $0.timestamp(timestamp) }, forKey: AnyKey("ts"))
            try members.encode(session, forKey: AnyKey("session"))
            if let run { try members.encode(run, forKey: AnyKey("run")) }
            try members.encode(type, forKey: AnyKey("type"))
            try members.encode(event, forKey: AnyKey("event"))
            try members.encode(scene, forKey: AnyKey("scene"))
            try members.encode(JSONFragment { [visibleRoute] in $0.optionalRoute(visibleRoute) }, forKey: AnyKey("visible"))
            try members.encode(stateChanges.map { change in JSONFragment { $0.change(change) } }, forKey: AnyKey("changes"))
            try members.encode(anomaly, forKey: AnyKey("anomaly"))
        }
    }
}
