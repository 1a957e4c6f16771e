import Foundation
import NavigationAnalytics
import NavigationHistory

/// `navlog export PATH --table screen_views|transitions|deeplinks|sessions --format ndjson|csv [-o FILE] [--redact ...] [--salt S]`
enum ExportCommand: Subcommand {
    static let name = "export"
    static let summary = "Write a table (screen views, transitions, deep links, sessions) as NDJSON or CSV."
    static let help = """
        Usage: navlog export PATH --table screen_views|transitions|deeplinks|sessions
                             [--format ndjson|csv] [--exact-csv]
                             [-o FILE] [--file-mode MODE] [--redact ids|params|urls ...] [--salt SALT]
                             [--since TIME] [--until TIME] [--app V] [--session ID] [--scene ID]

        Writes a derived table that Tools/sql/*.sql read (DuckDB, Spark SQL, ClickHouse):
          screen_views  session, scene, tab, stack, screen, id, depth, entered_by, start_seq,
                        start_ts, end_ts, dwell_ms, background_ms, crashed, in_sheet — one row per
                        screen view; dwell_ms is the time its scene was not in the background,
                        background_ms the rest: end_ts - start_ts = dwell_ms + background_ms.
          transitions   session, scene, step, from_screen, to_screen, from_seq, to_seq — one row per
                        pair of consecutive views of a path; step is the position of the `to` view.
          deeplinks     session, scene, seq, ts, url, pattern, outcome, depth, backed_out — one row
                        per deep link opened; backed_out says whether the session then popped back
                        past the linked screen (as `navlog deeplinks` counts it).
          sessions      session, app, launch, start_seq, start_ts, end_ts, ended, events, scenes,
                        foreground_ms — one row per session (per part with --idle, named as the
                        screen_views rows name it). start_* and end_ts are its first and last
                        events (snapshots aside); ended is clean, background, unclean or open (a
                        part that --idle ends: background when every open scene was in the
                        background at its last event, else clean); events counts its events but
                        snapshots; scenes the scenes open after any of them; foreground_ms the time from
                        start_ts to end_ts during which at least one open scene was not in the
                        background: the sum, over each of its events but the last, of the time to
                        its next event when after it some open scene was not in the background.
                        For a session with one scene, that is the sum of its views' dwell_ms.
                        The filters admit a session by its app, id and start_ts; --scene does not
                        apply to it.

        Options:
          --format FORMAT   ndjson (default): one JSON object per line, exact.
                            csv: \(AnalyticsOutput.csvHelp)
          --exact-csv       \(AnalyticsOutput.exactCSVHelp)
          -o FILE           Write to FILE instead of standard output (- is standard output). A file is
                            written beside FILE and renamed over it once complete, so FILE is never
                            left half-written; a character device or FIFO (/dev/null, a named pipe) is
                            written straight; a symbolic link to a file replaces that file; a directory
                            is refused.
          --file-mode MODE  The permissions of FILE in octal (default 600: only you can read it),
                            set whatever the umask.
          --redact WHAT     Leave out what can name a person or an item (repeatable); none of it
                            appears in any table or format:
                              ids     route ids: the id column;
                              params  route param values (no table holds params);
                              urls    deep links' userinfo, path segments, query and fragment.
                            Deep-link URLs can carry all three, so each choice also redacts the
                            deeplinks url and pattern: the scheme stays, and the host of an http(s)
                            link; the userinfo goes; an app scheme's host (recipes://HOST/...) and
                            each path segment become a salted hash (h: and 16 hex digits of SHA-256
                            of salt and value), the query and fragment one more (?h:...); a pattern
                            keeps its :id segments, so links group as in `navlog deeplinks`. Without
                            --salt, ids become null, URL parts * and queries nothing. Session ids,
                            scenes, tabs, stacks, screens and times are not redacted.
          --salt SALT       The salt of the hashes (with --redact only, not empty); keep it secret,
                            and the same across exports that must join.
          --since, --until, --app, --session, --scene, --alias, --idle   As for the queries: export
                            with the same options as the query the SQL is compared with.
          --mode MODE       Recovery mode, as in `navlog verify` (default tolerateTornTail).

        What the reading drops — a torn last line; in salvage mode each line skipped, in
        pointInTime where reading stopped and what followed unread — is said on standard error, one
        line each (in salvage, the first 10 and how many in all): the table has no envelope to
        carry it. So is an app version, session or scene named that the log never holds.

        \(TimeArgument.help)

        \(DurationArgument.help)

        Examples:
          navlog export app.jsonl --table screen_views -o views.ndjson
          navlog export logs/ --table sessions --format csv -o sessions.csv
        """

    static let options: [CommandOption] = [.choice("--table", Export.Table.self), .file("-o"), .file("--output"), .option("--file-mode", "MODE")]
        + RedactionOptions.options + AnalyticsOutput.options.replacing(.choice("--format", Export.Format.self))

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let argument = try parsed.path()
        let table: Export.Table = try parsed.choice("--table")
        let format = try parsed.choice("--format", default: Export.Format.ndjson)
        let (redactions, salt) = try RedactionOptions.parse(parsed)
        if table == .deeplinks { try AnalyticsOutput.rejectViewOptions(parsed, in: " to --table deeplinks") }
        let exact = parsed.has("--exact-csv")
        if exact && format != .csv { throw UsageError("--exact-csv applies to --format csv") }
        var export = Export(table: table, format: format, redactions: redactions, salt: salt)
        export.guardsFormulas = !exact
        let mode = try parsed.fileMode()
        let output = try OutputFile(parsed.value("-o") ?? parsed.value("--output") ?? "-", mode: mode ?? 0o600, modeGiven: mode != nil)
        // The log is resolved once the output is open: a pipe is read through a copy, at length.
        let input = try LogInput(argument)
        // CSV is for people unless it is exact, and anything on a terminal is read by one: no
        // control character of the log reaches a terminal, nor an invisible one a person's CSV.
        let terminal = output.isTerminal
        func line(_ text: String) -> String {
            switch format {
            case .csv: exact && !terminal ? text : Terminal.escaped(text)
            case .ndjson: terminal ? String(decoding: Terminal.escapedJSON(Array(text.utf8)), as: UTF8.self) : text
            }
        }
        if let header = export.header { try output.line(header) }
        let report: ReadReport
        if table == .sessions {
            report = try AnalyticsOutput.sessions(input.path, parsed) { row in try output.line(line(export.line(row))) }
        } else if table == .deeplinks {
            var links = DeepLinksQuery(filter: try AnalyticsOutput.filter(parsed), keepsRecords: true)
            report = try ViewStream.read(input.path, mode: try parsed.choice("--mode", default: .tolerateTornTail),
                                         events: { event, app, state in links.consume(event, app: app, stateAfter: state) }) { _ in }
            for record in links.finalize().records { try output.line(line(export.line(record))) }
        } else {
            report = try AnalyticsOutput.views(input.path, parsed) { view in
                if let text = export.line(for: view) { try output.line(line(text)) }
            }.0
        }
        // Before the file is committed: a file that is not a log leaves no table behind.
        let dropped = try DroppedOutput(input.shown, report)
        try output.commit()
        dropped.warn()
        let common = try AnalyticsOutput.Common(parsed, recoveryModeOption: true)
        UnknownName.warn(try AnalyticsOutput.unknownNames([input.path], parsed, common, screens: []), path: input.shown)
        return
    }
}
