import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavigationAnalytics
import NavigationHistory

/// `navlog report PATH ... -o report.html [--session ID ...] [--funnel a,b,c ...] [filters]`
enum ReportCommand: Subcommand {
    static let name = "report"
    static let summary = "Write one HTML page: flows, screens, funnels, crashes and a session replayer."
    static let help = """
        Usage: navlog report PATH ... -o FILE.html [--file-mode MODE] [--session ID ...] [--recent N]
                                 [--crashed N] [--funnel A,B,C ...]
                                 [--steps N] [--top M] [--crash-paths K] [--since TIME] [--until TIME]
                                 [--app V] [--scene ID] [--alias REGEX=NAME] [--idle DURATION]

        Writes one HTML file with inline CSS, JavaScript and SVG — no network requests, no external
        fonts or scripts — that opens offline and can be attached to a bug report. It holds aggregates
        and the chosen sessions, not the whole log:
          Overview   the log's range, sessions and how they ended (clean, background, unclean, open),
                     app versions, sessions per day, and the lines the reading dropped (a torn
                     tail; in salvage mode the lines skipped, in pointInTime where it stopped),
                     which standard error says too, one line each
          Flow       a Sankey-style diagram of the first N steps of every path (top M per step + other)
          Screens    views, dwell median and p90, bounce rate, exits; sortable
          Funnels    each --funnel as bars with conversion and drop-off
          Crashes    the most common last K screens before an unclean end
          Replay     the chosen sessions, crashed first: a device per scene drawing what the user
                     saw, what each event added, removed or replaced, a transcript to jump from,
                     the event and the state after it as JSON; play at 1x to 16x, skipping idle
                     gaps; marks on the slider for deep links, restores, anomalies, time in the
                     background and the crash. The keyboard drives it; FILE.html#session=ID&step=N
                     opens at that moment, which the page copies as a link; each path before a
                     crash and each funnel step links to the replays that show it. At most 2,000
                     events a session and 16 MiB of replays in all: the page and a note on
                     standard error say what was left out, and how to see it

        Several PATHs, and directories of logs, make one report of all their logs, as the
        analytics subcommands answer over them: each log is read on its own and every aggregate is
        theirs together; a session id that several logs use is kept apart, named ID@K in the K-th
        log, and said on standard error. The overview lists the logs read and the events each gave;
        each replay is read from its own log.

        Options:
          -o FILE          The HTML file to write (required; - is standard output). It is written
                           beside FILE and renamed over it once complete; a character device or FIFO
                           is written straight; a symbolic link to a file replaces that file; a
                           directory is refused.
          --file-mode MODE The permissions of FILE in octal (default 600: only you can read it), set
                           whatever the umask.
          --session ID     Embed this session in the replayer, first (repeatable); ID@K names the
                           session of a repeated id in the K-th log.
          --crashed N      Then embed the N most recent sessions that ended uncleanly (default 10).
          --recent N       Then the N most recent sessions (default 10), less those embedded as
                           crashed: those last in the log; over several logs (for --crashed too),
                           those that began last (by the time of their first event) among each
                           log's last N.
          --funnel LIST    A funnel of screens, comma-separated (repeatable).
          --steps N        Steps of the flow diagram (default 5); --top M screens per step (default 6).
          --crash-paths K  Screens before an unclean end (default 3).
          Filters and --alias, --idle, --mode as for the analytics subcommands. A screen of a
                           --funnel, app version or scene that the logs never hold is said on
                           standard error with the closest names they hold.

        \(TimeArgument.help)

        \(DurationArgument.help)

        Examples:
          navlog report app.jsonl -o report.html
          navlog report logs/ -o report.html --funnel home,recipe,reviews
        """

    static let options: [CommandOption] = [.file("-o"), .file("--output"), .option("--file-mode", "MODE"), .option("--crashed", "N"),
                                           .option("--recent", "N"),
                                           .option("--funnel", "LIST"), .option("--steps", "N"), .option("--top", "M"),
                                           .option("--crash-paths", "K")]
        + AnalyticsOutput.options.removing("--format").removing("--exact-csv")

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        guard !parsed.positional.isEmpty else { throw UsageError("missing PATH") }
        guard let output = parsed.value("-o") ?? parsed.value("--output") else { throw UsageError("give the HTML file to write with -o FILE") }
        var settings = ReportQuery.Options()
        settings.recent = try parsed.integer("--recent", range: 0...1000) ?? 10
        settings.crashed = try parsed.integer("--crashed", range: 0...1000) ?? 10
        settings.sessions = Set(parsed.all("--session"))
        settings.funnels = parsed.all("--funnel").map { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
        settings.steps = try parsed.integer("--steps", range: 2...50) ?? 5
        settings.top = try parsed.integer("--top", range: 1...50) ?? 6
        settings.crashPaths = try parsed.integer("--crash-paths", range: 1...20) ?? 3
        var filter = try AnalyticsOutput.filter(parsed)
        filter.sessions = []   // --session picks replays here, not a filter
        let recovery: RecoveryMode = try parsed.choice("--mode", default: .tolerateTornTail)
        let cleaning = try PathCleaning(rules: parsed.all("--alias"))
        let idle = try AnalyticsOutput.idle(parsed)
        // Opened once every option is known good, and before the long reading: a path that cannot
        // be written is said at once.
        let mode = try parsed.fileMode()
        let file = try OutputFile(output, mode: mode ?? 0o600, modeGiven: mode != nil)
        guard !file.isTerminal else {
            throw UsageError("\(output) is a terminal; the report is an HTML page: give a file to write, or a pipe")
        }
        // The logs are resolved once the output is open: a pipe is read through a copy, at length.
        let inputs = try LogInputs(parsed)
        if let log = log(replacedBy: output, in: inputs) {
            throw UsageError("-o \(output) is a file of the log \(log), which the report reads: give another file to write")
        }
        let path = inputs.shown
        let progress = SharedProgress(path)
        let data = try ReportQuery(options: settings).run(over: inputs.paths, mode: recovery, filter: filter, cleaning: cleaning, idle: idle,
                                                          progress: progress.enabled ? progress.add : nil)
        progress.finish()
        // Over several logs, the page's commands name them as given.
        let given = inputs.isMany ? parsed.positional.joined(separator: " ") : path
        let names = inputs.inputs.map(\.shown)
        if inputs.isMany { warn(data, inputs, named: settings.sessions) }
        let (json, lines, leftOut) = data.json(path: given, filter: filter, logNames: names, fileName: LogInput.shown)
        // Before the page is written: a file that is not a log leaves no page behind.
        let dropped = try DroppedOutput(inputs, reports: inputs.isMany ? data.logs.map(\.report) : [data.report])
        let page = ReportPage.html(title: path, data: json, lines: lines, manyLogs: inputs.isMany)
        try file.write(page)
        try file.commit()
        for note in leftOut.notes(settings, path: given, output: output, logs: inputs.isMany ? names : []) {
            Diagnostics.note(note, at: output)
        }
        let unknown = settings.sessions.subtracting(data.sessions.map(\.id)).sorted()
        if !unknown.isEmpty {
            Diagnostics.note("--session \(unknown.joined(separator: ", ")) names no session of the report"
                             + " (`navlog sessions \(given)` lists them)", at: output)
        }
        dropped.warn()
        // --session picks replays: the note above says which name none. A funnel's screens are
        // looked up only when no session reached them: learning the names reads the logs again.
        let named = data.funnels.joined().filter { $0.sessions == 0 }.map { ("--funnel", UnknownName.Kind.screen, $0.screen) }
            + KnownNames.filtered(parsed).filter { $0.kind != .session }
        UnknownName.warn(try KnownNames.unknown(named, in: inputs.paths, mode: recovery, cleaning: cleaning, idle: idle), path: path,
                         several: inputs.isMany)
        AnalyticsOutput.warnOfClock(data.clockWentBack, path: path)
        let summary = "\(output): \(TextFormat.count(page.count / 1024)) KiB; \(counted(data.report.events, "event")), \(counted(data.sessions.count, "session"))"
            + (inputs.isMany ? " of \(path)" : "")
        if OutputFile.descriptor(named: file.path) == STDOUT_FILENO {   // the summary does not go into the page
            Diagnostics.note(summary)
        } else {
            var out = StandardOutput()
            out.line(summary)
            try out.flush()
        }
        return
    }

    /// The log of `inputs` one of whose files `output` names (through links too): writing the page
    /// over it would lose the log.
    private static func log(replacedBy output: String, in inputs: LogInputs) -> String? {
        var target = stat()
        guard stat(output, &target) == 0, target.st_mode & S_IFMT == S_IFREG else { return nil }
        for input in inputs.inputs {
            for file in (try? LogFiles.resolve(input.path).files) ?? [] {
                var info = stat()
                if stat(file, &info) == 0, info.st_dev == target.st_dev, info.st_ino == target.st_ino { return input.shown }
            }
        }
        return nil
    }

    /// Warns, as the analytics subcommands do, of each session id several logs use; and notes
    /// which session a `--session` of such an id names.
    private static func warn(_ data: ReportQuery.Result, _ inputs: LogInputs, named: Set<String>) {
        AnalyticsOutput.ManyLogs(inputs, reports: data.logs.map(\.report), repeated: data.repeatedSessions).warn()
        for repeated in data.repeatedSessions where named.contains(repeated.id) && !repeated.names.dropFirst().contains(where: named.contains) {
            Diagnostics.note("--session \(repeated.id) names the session of \(inputs.inputs[repeated.logs[0]].shown);"
                             + " the others are \(repeated.names.dropFirst().joined(separator: ", "))")
        }
    }
}
