import NavigationAnalytics
import NavigationHistory

/// `navlog exits PATH [--crash-paths K] [filters] [--format text|json|csv]`
enum ExitsCommand: Subcommand {
    static let name = "exits"
    static let summary = "Where sessions end: per screen, by how they ended; the paths before crashes."
    static let help = """
        Usage: navlog exits PATH ... [--crash-paths K] [--since TIME] [--until TIME] [--app V]
                                 [--session ID] [--scene ID] [--alias REGEX=NAME] [--idle DURATION]
                                 [--format text|json|csv]

        Per screen: the sessions whose last view (the one that began last) it was, split by how the
        session ended: clean (with a session.end), background (terminated in the background without
        notice, as iOS ends suspended apps: not a crash), unclean (terminated in the foreground: a
        crash or a kill) and open (the log's last session, still running as far as the log knows).
        A part of a session that --idle ends counts as background when every open scene was in the
        background at its last event (with phases recorded), else as clean. Sorted by exits, then
        screen.

        Options:
          --crash-paths K   Also list the most common sequences of the last K screens before an
                            unclean end (not a background one), with their sessions ("crash_paths").
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog exits app.jsonl
          navlog exits app.jsonl --crash-paths 5 --format json
        """

    static let options: [CommandOption] = [.option("--crash-paths", "K")] + AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        let crashPaths = try parsed.integer("--crash-paths", range: 1...100) ?? 0
        let (exits, report, filter) = try AnalyticsOutput.run(ExitsQuery(crashPaths: crashPaths), over: input, parsed)
        var sections: [AnalyticsOutput.Section] = []
        if crashPaths > 0 {
            sections.append(.init(name: "crash_paths", table: QueryTable(columns: [.list("path"), .count("sessions")],
                                                                         rows: exits.crashPaths.map { [.list($0.screens), .number(Int64($0.sessions))] })))
        }
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.text("screen"), .count("exits"), .count("clean"), .count("background"),
                                                                   .count("unclean"), .count("open")],
                                                rows: exits.rows.map { [.text($0.screen), .number(Int64($0.exits)), .number(Int64($0.clean)),
                                                                        .number(Int64($0.background)), .number(Int64($0.unclean)),
                                                                        .number(Int64($0.open))] }),
                              sections: sections)
        return
    }
}
