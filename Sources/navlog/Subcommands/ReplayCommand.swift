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
        what it did, the visible screen of its scene after it, and what changed in the state. With
        --session, only that session's events are shown, narrowed by --from and --to when given.
        A log may use a session id again (a device whose clock or id source was reset): every run
        of the id is replayed, in order, each announced as "run K of N" (text) or numbered by the
        steps' "run" (JSON).

        Options:
          --session ID      The session to replay (see `navlog sessions`).
          --from SEQ        The first seq to show.
          --to SEQ          The last seq to show (default: the session's or the log's last).
          --format FORMAT   text (default): one line per event, then its changes indented.
                            json: {"format": 1, "session", "from", "to", "runs": [{"run", "from",
                            "to"}], "steps": [{"seq", "ts", "session", "run", "type", "event",
                            "scene", "visible", "changes", "anomaly"}]} ("runs" and "run" with
                            --session only).
          --strict          Refuse (exit 65) at the first event that does not fit the state.
        \(TimelineOutput.optionsHelp)
        Exit status: 0, 64 on a usage error, 65 on a defect the mode does not tolerate or an anomaly
        with --strict, 66 when PATH or the session does not exist, 74 on an I/O error.
        """

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments, options: TimelineOutput.options.union(["--session", "--from", "--to", "--format"]),
                                     flags: TimelineOutput.flags.union(["--strict"])) else { return }
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
            let runs = timeline.sessions.filter { $0.id == session }
            guard !runs.isEmpty else {
                throw NavigationHistoryError(code: .noInput, message: "no session '\(session)' in this log (`navlog sessions \(path)` lists them)", path: path)
            }
            ranges = runs.map { (max(from ?? $0.firstSeq, $0.firstSeq), min(to ?? $0.lastSeq, $0.lastSeq)) }
        } else {
            ranges = [(from!, to ?? timeline.lastSeq ?? from!)]
        }
        let first = ranges.first!.first, last = ranges.last!.last
        var out = StandardOutput()
        var w = JSONWriter(capacity: 1 << 16)
        if format == .json {
            w.raw("{")
            w.key("format", first: true); w.integer(1)
            w.key("session"); if let session { w.string(session) } else { w.raw("null") }
            w.key("from"); w.integer(first)
            w.key("to"); w.integer(last)
            if session != nil {
                w.key("runs")
                w.array(Array(ranges.enumerated())) { w, run in
                    w.raw("{"); w.key("run", first: true); w.integer(run.offset + 1)
                    w.key("from"); w.integer(run.element.first); w.key("to"); w.integer(run.element.last); w.raw("}")
                }
            }
            w.key("steps"); w.raw("[")
        } else {
            let runs = ranges.count > 1 ? ", \(ranges.count) runs of the id" : ""
            out.line("\(path): replay of \(session.map { "session \($0), " } ?? "")seq \(first)...\(last)\(runs)")
        }
        var steps = 0
        for (k, range) in ranges.enumerated() where range.first <= range.last {
            if ranges.count > 1, format == .text { out.line("run \(k + 1) of \(ranges.count): seq \(range.first)...\(range.last)") }
            try timeline.replay(from: range.first, through: range.last) { step in
                let event = step.event
                if let session, event.session != session { return }
                if let anomaly = step.anomaly, parsed.has("--strict") {
                    throw NavigationHistoryError(code: .corruptLog, message: "--strict: \(anomaly)", path: path)
                }
                let scene = event.action.scene ?? step.after.active
                let visible = scene.flatMap { step.after.scenes[$0]?.visibleScreen }
                switch format {
                case .text:
                    var line = "\(event.seq)  \(event.timestamp)  \(event.summary)"
                    if let scene, let visible { line += "  →  \(scene): \(visible.route.text)" }
                    if let anomaly = step.anomaly { line += "  [anomaly: \(anomaly.kind.rawValue)]" }
                    out.line(line)
                    for change in step.changes { out.line("      \(change)") }
                case .json:
                    if steps > 0 { w.raw(",") }
                    w.raw("{")
                    w.key("seq", first: true); w.integer(event.seq)
                    w.key("ts"); w.timestamp(event.timestamp)
                    w.key("session"); w.string(event.session)
                    if session != nil { w.key("run"); w.integer(k + 1) }
                    w.key("type"); w.string(event.type)
                    w.key("event"); w.string(event.summary)
                    w.key("scene"); if let scene { w.string(scene) } else { w.raw("null") }
                    w.key("visible"); w.optionalRoute(visible?.route)
                    w.key("changes"); w.array(step.changes) { $0.change($1) }
                    w.key("anomaly"); if let anomaly = step.anomaly { w.string(anomaly.description) } else { w.raw("null") }
                    w.raw("}")
                    if w.bytes.count >= 1 << 16 {
                        out.write(w.bytes)
                        w.bytes.removeAll(keepingCapacity: true)
                    }
                }
                steps += 1
            }
        }
        if format == .json {
            w.raw("]}\n")
            out.write(w.bytes)
        } else {
            out.line("\(steps) event\(steps == 1 ? "" : "s")")
        }
        try out.flush()
        return
    }
}
