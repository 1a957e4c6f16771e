import NavigationHistory

import NavigationAnalytics

/// `navlog sessions PATH ... [--ending ENDING] [--limit N] [--format text|json]`
enum SessionsCommand: Subcommand {
    static let name = "sessions"
    static let summary = "List a log's sessions: start, end, how each ended, events, scenes."
    static let help = """
        Usage: navlog sessions PATH ... [--ending ENDING,...] [--limit N] [--format text|json]
                              [--mode MODE] [--interval K] [--no-index]

        One row per session (a run of events with the same `session`; a `session.start` always begins
        a new one): its id, app version, first and last seq, start and end time, how it ended, its
        events (store snapshots left out) and the scenes they named. A session ended:
          clean       with a `session.end`;
          background  terminated in the background, not a crash: no `session.end`, it recorded a
                      `scene.phase`, and at its last event every open scene was in the background
                      (or none was open);
          unclean     terminated in the foreground — a crash, a watchdog, a kill: another session
                      began without a `session.end`, and it did not end in the background;
          open        the log ends during it: it may still be running.
        A session that recorded no `scene.phase` is clean, unclean or open as its `session.end` says.
        The list is kept in the snapshot index, so it is read, not recomputed, once the index is built.

        Several PATHs (and directories of logs, standing for each .jsonl file and log directory in
        them) list the sessions of each log, told apart by a "log" column; a session id that
        several logs use is said on standard error, its sessions kept apart.

        Options:
          --ending ENDING   Only the sessions that ended so: clean, background, unclean or open; several
                            with commas or the option given again. The counts still count them all.
          --limit N         At most N rows (the first N, in log order).
          --format FORMAT   text (default): an aligned table.
                            json: {"format": 2, "dropped_lines" (see --mode), "sessions": [{"id",
                            "app", "first_seq", "last_seq", "start", "end", "ending", "events",
                            "scenes"}]}; with several logs, {"format": 2, "dropped_lines", "logs":
                            [{"path", "events", "sessions": [...]}], "repeated_sessions":
                            [{"session", "logs", "names"}]}, "events" counting the events of its
                            sessions (store snapshots left out), "dropped_lines" naming the file
                            of each line dropped.
        \(TimelineOutput.optionsHelp)
        Exit status: 0, 64 on a usage error, 65 on a defect the mode does not tolerate, 66 when PATH
        does not exist, 74 on an I/O error.

        Examples:
          navlog sessions app.navlog
          navlog sessions app.navlog --ending unclean --limit 10
          navlog sessions logs/ --format json | jq '.logs[].sessions | length'
        """

    static let options: [CommandOption] = [.choice("--ending", SessionEnd.self), .limit, .textOrJSON] + TimelineOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else {
            return
        }
        let inputs = try LogInputs(parsed)
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        if inputs.isMany { return try many(inputs, parsed, format: format) }
        let input = inputs.inputs[0]
        let path = input.shown
        let timeline = try TimelineOutput.open(input.path, parsed)
        let selection = try Selection(parsed)
        let all = timeline.sessions
        let sessions = selection.apply([all])[0]
        var out = StandardOutput()
        switch format {
        case .text:
            out.line(countsLine(path, all))
            if let note = selection.note(shown: sessions.count, of: all.count) { out.line(note) }
            // Escaped before padding, so that the columns line up.
            let idWidth = max(7, sessions.map { Terminal.escaped($0.id).count }.max() ?? 0)
            func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
                let fill = String(repeating: " ", count: max(0, width - text.count))
                return right ? fill + text : text + fill
            }
            out.line([pad("session", idWidth), pad("app", 8), pad("start", 24), pad("end", 24), pad("ending", 10),
                      pad("events", 7, right: true), pad("scenes", 6, right: true), "seq"].joined(separator: "  "))
            for s in sessions {
                out.line([pad(Terminal.escaped(s.id), idWidth), pad(Terminal.escaped(s.app ?? "-"), 8), pad(s.start.description, 24), pad(s.end.description, 24),
                          pad(s.ending.rawValue, 10), pad(TextFormat.count(s.events), 7, right: true), pad(TextFormat.count(s.scenes), 6, right: true),
                          "\(s.firstSeq)...\(s.lastSeq)"].joined(separator: "  "))
            }
        case .json:
            try JSONOutput.write(Output(droppedLines: try DroppedOutput(path, timeline.report).json,
                                        sessions: sessions.map { session in JSONFragment { $0.session(session, snakeCase: true) } }), to: &out)
        }
        try out.flush()
        return
    }

    /// The JSON output: what the reading dropped, and each session as the snapshot index keeps it.
    struct Output: Encodable {
        let format = JSONOutput.format
        var droppedLines: JSONFragment
        var sessions: [JSONFragment]

        enum CodingKeys: String, CodingKey {
            case format, droppedLines = "dropped_lines", sessions
        }
    }
}
