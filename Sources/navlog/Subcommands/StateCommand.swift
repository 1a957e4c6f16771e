import NavigationHistory

/// `navlog state PATH [--at SEQ|TIME | --at-time TIME] [--scene S] [--format text|json] [--strict]`
enum StateCommand: Subcommand {
    static let name = "state"
    static let summary = "Print the navigation state at any moment of a log."
    static let help = """
        Usage: navlog state PATH [--at SEQ|TIME | --at-time TIME] [--scene ID] [--format text|json]
                                 [--strict] [--mode MODE] [--interval K] [--no-index]

        Prints every scene's tabs, stacks, sheets, split view and phase (in brackets, unless active)
        after the event at SEQ (by default the log's last event). The state is rebuilt through the
        log's snapshot index, a file beside the log (index.navidx in a log directory, FILE.navidx
        beside a single file) that is built on first use, extended as the log grows, and rebuilt
        when it is missing, damaged or stale.

        Options:
          --at SEQ          The state after the event with this seq.
          --at TIME         Given a TIME rather than digits alone, as --at-time.
          --at-time TIME    The state after the last event at or before this time (see TIME below).
          --scene ID        Only this scene, which must be open at that moment: another is refused
                            (exit 65), naming the scenes open then.
          --format FORMAT   text (default): an indented tree per scene; the selected tab is marked `*`
                            and the visible route `<- visible`.
                            json: the State shape of the event format with "format": 2,
                            "dropped_lines" (see --mode), "seq", "ts" and "session" of the event at SEQ.
          --strict          Refuse (exit 65) when an event up to SEQ did not fit the state (an anomaly).
        \(TimelineOutput.optionsHelp)
        \(TimeArgument.help)

        Exit status: 0, 64 on a usage error, 65 on a defect the mode does not tolerate, an anomaly
        with --strict or a --scene not open, 66 when PATH or SEQ does not exist, 74 on an I/O error.

        Examples:
          navlog state app.jsonl
          navlog state app.jsonl --at 1200 --scene main --format json
        """

    static let options: [CommandOption] = [.option("--at", "SEQ"), .option("--at-time", "TS"), .option("--scene", "ID"), .textOrJSON,
                                           .flag("--strict")] + TimelineOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInput(parsed.path())
        let path = input.shown
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        guard !parsed.has("--at") || !parsed.has("--at-time") else { throw UsageError("give --at or --at-time, not both") }
        // --at takes a seq, or a TIME as --at-time does: digits alone are a seq.
        let atSeq = parsed.value("--at").map { $0.allSatisfy { "0123456789_".contains($0) } } ?? false
        let at = atSeq ? try parsed.integer("--at", range: 0...Int.max) : nil
        let time = try parsed.time("--at-time") ?? (atSeq ? nil : try parsed.time("--at"))
        let timeline = try TimelineOutput.open(input.path, parsed)
        if let time {
            try timeline.seek(toTime: time)
        } else if let target = at ?? timeline.lastSeq {
            try timeline.seek(to: target)
        }
        try TimelineOutput.refuseAnomalies(timeline, parsed)
        let scene = parsed.value("--scene")
        if let scene, timeline.state.scenes[scene] == nil { throw notOpen(scene, timeline, path: path) }
        var out = StandardOutput()
        switch format {
        case .text:
            if let event = timeline.event {
                out.line("\(path): state after seq \(event.seq) at \(event.timestamp), session \(event.session)")
            } else {
                out.line("\(path): state before the first event" + (timeline.lastSeq == nil ? " (the log has no events yet)" : ""))
            }
            for line in TimelineOutput.text(timeline.state, scene: scene) { out.line(line) }
        case .json:
            try JSONOutput.write(TimelineOutput.StateOutput(timeline.state, seq: timeline.seq, event: timeline.event, scene: scene,
                                                                 dropped: try DroppedOutput(path, timeline.report)), to: &out)
        }
        try out.flush()
        return
    }

    /// The refusal of `--scene scene`, not open at the timeline's moment: an empty answer would
    /// hide a typo or a scene closed by then. Bad data for this moment (exit 65), naming the
    /// scenes open then and the closest of them.
    static func notOpen(_ scene: String, _ timeline: Timeline, path: String) -> NavigationHistoryError {
        let open = timeline.state.scenes.keys.sorted()
        let moment = timeline.event.map { "after seq \($0.seq)" } ?? "before the first event"
        let openThen = open.isEmpty ? "no scene is open then" : "open then: " + open.map { "'\($0)'" }.joined(separator: ", ")
        return NavigationHistoryError(code: .corruptLog, message: "scene '\(scene)' is not open \(moment)"
                                      + Suggestions.phrase(Suggestions.closest(to: scene, among: open)) + " (\(openThen))", path: path)
    }
}
