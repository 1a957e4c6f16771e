import NavigationHistory

/// `navlog state PATH [--at SEQ | --at-time TS] [--scene S] [--format text|json] [--strict]`
enum StateCommand: Subcommand {
    static let name = "state"
    static let summary = "Print the navigation state at any moment of a log."
    static let help = """
        Usage: navlog state PATH [--at SEQ | --at-time TS] [--scene ID] [--format text|json] [--strict]
                                 [--mode MODE] [--interval K] [--no-index]

        Prints every scene's tabs, stacks, sheets, split view and phase (in brackets, unless active)
        after the event at SEQ (by default the log's last event). The state is rebuilt through the log's snapshot index, a file beside the log
        (index.navidx in a log directory, FILE.navidx beside a single file) that is built on first use,
        extended as the log grows, and rebuilt when it is missing, damaged or stale.

        Options:
          --at SEQ          The state after the event with this seq.
          --at-time TS      The state after the last event at or before this time (RFC 3339 with
                            milliseconds, e.g. 2026-11-29T12:00:00.000Z).
          --scene ID        Only this scene.
          --format FORMAT   text (default): an indented tree per scene; the selected tab is marked `*`
                            and the visible route `<- visible`.
                            json: the State shape of the event format with "format": 1,
                            "dropped_lines" (see --mode), "seq", "ts" and "session" of the event at SEQ.
          --strict          Refuse (exit 65) when an event up to SEQ did not fit the state (an anomaly).
        \(TimelineOutput.optionsHelp)
        Exit status: 0, 64 on a usage error, 65 on a defect the mode does not tolerate or an anomaly
        with --strict, 66 when PATH or SEQ does not exist, 74 on an I/O error.
        """

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments, options: TimelineOutput.options.union(["--at", "--at-time", "--scene", "--format"]),
                                     flags: TimelineOutput.flags.union(["--strict"])) else { return }
        let input = try LogInput(parsed.path())
        let path = input.shown
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        let at = try parsed.integer("--at", range: 0...Int.max)
        let time = try parsed.time("--at-time")
        guard at == nil || time == nil else { throw UsageError("give --at or --at-time, not both") }
        let timeline = try TimelineOutput.open(input.path, parsed)
        if let time {
            try timeline.seek(toTime: time)
        } else if let target = at ?? timeline.lastSeq {
            try timeline.seek(to: target)
        }
        try TimelineOutput.refuseAnomalies(timeline, parsed)
        let scene = parsed.value("--scene")
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
}
