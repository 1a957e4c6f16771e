import Foundation
import NavigationAnalytics
import NavigationHistory

/// The options every analytics subcommand shares, and its output as a table, JSON or CSV.
enum AnalyticsOutput {
    static let options: [CommandOption] = [
        .option("--since", "TS"), .option("--until", "TS"), .option("--app", "VERSION"), .option("--session", "ID"), .option("--scene", "ID"),
        .option("--alias", "REGEX=NAME"), .option("--idle", "DURATION"), .format(Format.allCases.map(\.rawValue)), .flag("--exact-csv"),
        .recoveryMode,
    ]
    static let optionsHelp = """
          --since TIME      Only views that began at or after this time (see TIME below).
          --until TIME      Only views that began before this time.
          --app VERSION     Only sessions of this app version (repeatable).
          --session ID      Only this session (repeatable).
          --scene ID        Only this scene (repeatable).
          --alias REGEX=NAME  Path cleaning: replace every match of REGEX in screen names with NAME
                            (repeatable, applied in order, before anything else).
          --idle DURATION   Also split a session wherever two consecutive events are at least this
                            far apart (e.g. 30m, see DURATION below); the later parts are named
                            SESSION#2, SESSION#3, ...
          --format FORMAT   text (default): an aligned table under a header naming the log, its
                            event range and the filters. json: {"format": 2, "dropped_lines",
                            "unknown_names", "query", "rows": [...]}.
                            csv: \(csvHelp)
          --exact-csv       \(exactCSVHelp)
          --mode MODE       Recovery mode, as in `navlog verify` (default tolerateTornTail).

        Several PATHs, and directories of logs (each .jsonl file and log directory in them), give
        one answer over all the logs, the same as over their exports put together. A session id
        that several logs use is said on standard error and its sessions kept apart, named ID@K
        in the K-th log after the first that uses it. The JSON adds "logs" ([{"path", "events",
        "first_seq", "last_seq"}]) and "repeated_sessions" ([{"session", "logs", "names"}]).

        What the reading of a log drops — its torn last line; in salvage mode each line skipped, in
        pointInTime where reading stopped and what followed unread — is said on standard error, one
        line each (in salvage, the first 10 and how many in all), and in the JSON as "dropped_lines":
        {"mode", "count", "first": [{"file", "line", "offset", "kind", "detail"}]}, "count" the
        entries of every log, "first" the first 10 of each log's, "file" naming the log's file.

        A screen (--steps, --from, --to), app version, session or scene an option names that the
        logs never hold is said on standard error with the closest names they hold ("no screen
        'categroy' in this log; did you mean 'category'?"), the answer given all the same (exit 0),
        and in the JSON as "unknown_names": [{"option", "kind", "name", "suggestions"}], [] when
        every name is known. Learning the logs' names reads them once more: for a filter's names
        always, for a screen only when the answer found nothing of it.

        \(TimeArgument.help)

        \(DurationArgument.help)
        """

    /// The options' help without `--mode`, for a subcommand that gives `--mode` another meaning.
    static var optionsHelpWithoutMode: String {
        optionsHelp.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("--mode MODE") }.joined(separator: "\n")
    }

    enum Format: String, CaseIterable { case text, json, csv }

    /// How CSV treats text cells, in the help of every subcommand that writes CSV.
    static let csvHelp = """
        a header, then a line per row. A text cell beginning with =, +, -,
                            @, tab or carriage return (a formula, to a spreadsheet) gets a ' in front
                            (numbers never do); control characters and invisible or reordering
                            ones (format characters, U+2028, U+2029) are written as \\u001b, \\u202e.
        """
    static let exactCSVHelp = """
        With --format csv: text cells exactly as in the log, without the ' and
                            the escapes, for programs that read the CSV; never open such a file in
                            a spreadsheet.
        """

    /// How a result is printed: its format and, for CSV, whether cells are exact.
    struct Style {
        var format: Format
        var exactCSV: Bool
    }

    /// The `--format` and `--exact-csv` options.
    static func style(_ parsed: Arguments) throws -> Style {
        let style = Style(format: try parsed.choice("--format", default: .text), exactCSV: parsed.has("--exact-csv"))
        if style.exactCSV && style.format != .csv { throw UsageError("--exact-csv applies to --format csv") }
        return style
    }

    /// What reading the screen views found: the reader's report, what each log's reading
    /// dropped, and how many views ended before they began (nil where the rows are not views).
    struct ViewsRead {
        var report: ReadReport
        var dropped: DroppedOutput
        /// The names the options gave that the logs never hold (``KnownNames``).
        var unknownNames: [UnknownName] = []
        var clockWentBack: Int? = nil
        /// With several logs: which were read and what each gave, and the session ids several use.
        var many: ManyLogs? = nil
    }

    /// Reads the screen views of `path` with the common options: filters, path cleaning, idle
    /// splitting, and the recovery mode (unless `--mode` means something else to the subcommand);
    /// warns on standard error of views that ended before they began.
    static func views(_ path: String, _ parsed: Arguments, recoveryModeOption: Bool = true,
                      _ body: (AnalyticsView) throws -> Void) throws -> (ReadReport, AnalyticsFilter) {
        let common = try Common(parsed, recoveryModeOption: recoveryModeOption)
        var progress = Progress(path)
        var clockWentBack = 0
        // No callback at all when nothing is drawn: a call for every event costs 4% of a query.
        let report = try ViewStream.read(path, mode: common.mode, filter: common.filter, cleaning: common.cleaning, idle: common.idle,
                                         events: progress.enabled ? { _, _, _ in progress.tick() } : nil) { view in
            if view.clockWentBack { clockWentBack += 1 }
            try body(view)
        }
        progress.finish()
        warnOfClock(clockWentBack, path: path)
        return (report, common.filter)
    }

    /// Reads the sessions of `path` (parts with `--idle`, named as views name them) with the
    /// common options: those the filters admit by app and id whose time overlaps `--since` and
    /// `--until`, so that every admitted view's session has its row (a session spans scenes:
    /// `--scene` does not apply to it). Returns the reader's report.
    static func sessions(_ path: String, _ parsed: Arguments, _ body: (SessionRows.Row) throws -> Void) throws -> ReadReport {
        let common = try Common(parsed, recoveryModeOption: true)
        var filter = common.filter
        filter.scenes = []
        var rows = SessionRows()
        return try withoutActuallyEscaping(body) { body in
            try ViewStream.read(path, mode: common.mode, filter: common.filter, cleaning: common.cleaning, idle: common.idle,
                                events: { event, app, state in rows.see(event, app: app, stateAfter: state) },
                                endings: { session, ending in
                                    guard let row = rows.end(session, ending: ending),
                                          filter.admits(start: filter.since.map { max($0, row.start) } ?? row.start, app: row.app,
                                                        session: row.id, scene: ""),
                                          filter.since.map({ row.end >= $0 }) ?? true else { return }
                                    try body(row)
                                }) { _ in }
        }
    }

    /// Runs `query` over the screen views of `path` with the common options, as ``views(_:_:recoveryModeOption:_:)``
    /// reads them, on every core when the log is large, and returns its answer.
    static func run<Query: ViewQuery>(_ query: Query, over path: String, _ parsed: Arguments, recoveryModeOption: Bool = true,
                                      naming screens: (Query.Result) -> [(option: String, name: String)] = { _ in [] })
        throws -> (Query.Result, ViewsRead, AnalyticsFilter) {
        let common = try Common(parsed, recoveryModeOption: recoveryModeOption)
        let progress = SharedProgress(path)
        let run = try ViewStream.run(query, over: path, mode: common.mode, filter: common.filter, cleaning: common.cleaning, idle: common.idle,
                                     threads: ProcessInfo.processInfo.activeProcessorCount, chunkedFrom: LogReader.chunkedBytes,
                                     progress: progress.enabled ? progress.add : nil)
        progress.finish()
        let dropped = try DroppedOutput(LogInput.shown(path), run.report)
        return (run.result, ViewsRead(report: run.report, dropped: dropped, unknownNames: try unknownNames([path], parsed, common, screens: screens(run.result)),
                                      clockWentBack: run.clockWentBack),
                common.filter)
    }

    /// The names the filters of `parsed` and `screens` give that the logs at `paths` never hold,
    /// screens as the common options' path cleaning names them. Learning the logs' names reads
    /// them once more: a subcommand names in `screens` only those its answer found nothing of.
    static func unknownNames(_ paths: [String], _ parsed: Arguments, _ common: Common,
                             screens: [(option: String, name: String)]) throws -> [UnknownName] {
        try KnownNames.unknown(screens.map { ($0.option, .screen, $0.name) } + KnownNames.filtered(parsed), in: paths, mode: common.mode,
                               cleaning: common.cleaning, idle: common.idle)
    }

    /// Warns that `count` views ended before they began: the clock went back while they were
    /// visible. They count, with a dwell of 0.
    static func warnOfClock(_ count: Int, path: String) {
        guard count > 0 else { return }
        Diagnostics.warning("\(count) screen view\(count == 1 ? "" : "s") ended before \(count == 1 ? "it" : "they") began"
                            + " (the clock went back while \(count == 1 ? "it was" : "they were") visible); counted, with a dwell of 0", at: path)
    }

    /// The common options' values: filters, path cleaning, idle splitting and the recovery mode
    /// (unless `--mode` means something else to the subcommand).
    struct Common {
        var filter: AnalyticsFilter
        var cleaning: PathCleaning
        var idle: Duration?
        var mode: RecoveryMode

        init(_ parsed: Arguments, recoveryModeOption: Bool) throws {
            filter = try AnalyticsOutput.filter(parsed)
            cleaning = try PathCleaning(rules: parsed.all("--alias"))
            idle = try AnalyticsOutput.idle(parsed)
            mode = recoveryModeOption ? try parsed.choice("--mode", default: .tolerateTornTail) : .tolerateTornTail
        }
    }

    /// Refuses `--alias` and `--idle` where the rows are deep links: events, not screen views.
    static func rejectViewOptions(_ parsed: Arguments, in context: String) throws {
        if parsed.has("--alias") || parsed.has("--idle") {
            throw UsageError("deep links are events, not screen views: --alias and --idle do not apply\(context)")
        }
    }

    /// The idle gap `--idle` gives, above 0; nil when it is not given.
    static func idle(_ parsed: Arguments) throws -> Duration? {
        guard let idle = try parsed.duration("--idle") else { return nil }
        guard idle > .zero else { throw UsageError("--idle '\(parsed.value("--idle")!)': give a gap above 0, such as 30m") }
        return idle
    }

    static func filter(_ parsed: Arguments) throws -> AnalyticsFilter {
        AnalyticsFilter(since: try parsed.time("--since"), until: try parsed.time("--until"), apps: Set(parsed.all("--app")),
                               sessions: Set(parsed.all("--session")), scenes: Set(parsed.all("--scene")))
    }
}

extension AnalyticsOutput {
    /// A further table of a result (the crash paths of `exits`, the switches of `tabs`): named
    /// as a JSON member and CSV comment (`crash_paths`), titled in text (`crash paths`).
    struct Section {
        var name: String
        var table: QueryTable
    }

    /// Prints the result of a query: its table, then any further sections (in JSON, arrays named
    /// after them; in text and CSV, tables after a blank line and the section's name). Says what
    /// the readings dropped on standard error, and in JSON as `dropped_lines`; and, of views, how
    /// many ended before they began (in JSON `clock_went_back`, and a warning when any did).
    static func print(query: String, path: String, report read: ViewsRead, filter: AnalyticsFilter, format style: Style,
                      table: QueryTable, extra: [(String, Int)] = [], sections: [Section] = []) throws {
        let report = read.report
        var out = StandardOutput()
        switch style.format {
        case .text:
            if let many = read.many {
                out.line("\(path): \(query), \(counted(many.events, "event")), \(filter.summary)")
            } else {
                let range = report.firstSeq.map { "seq \($0)...\(report.lastSeq!)" } ?? "no events"
                out.line("\(path): \(query), \(counted(report.events, "event")) (\(range)), \(filter.summary)")
            }
            table.text(into: &out)
            for section in sections {
                out.line("")
                out.line(section.name.replacingOccurrences(of: "_", with: " "))
                section.table.text(into: &out)
            }
        case .json:
            try JSONOutput.write(QueryOutput(dropped: read.dropped, unknownNames: read.unknownNames, query: query, extra: extra, clockWentBack: read.clockWentBack, many: read.many, table: table,
                                             sections: sections.map { ($0.name, $0.table) }), to: &out)
        case .csv:
            table.csv(exact: style.exactCSV, into: &out)
            for section in sections {
                out.line("")
                out.line("# " + section.name)
                section.table.csv(exact: style.exactCSV, into: &out)
            }
        }
        try out.flush()
        read.dropped.warn()
        UnknownName.warn(read.unknownNames, path: path, several: read.many != nil)
        warnOfClock(read.clockWentBack ?? 0, path: path)
    }
}
