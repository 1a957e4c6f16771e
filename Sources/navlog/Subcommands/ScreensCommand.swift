import NavigationAnalytics
import NavigationHistory

/// `navlog screens PATH [filters] [--format text|json|csv]`
enum ScreensCommand: Subcommand {
    static let name = "screens"
    static let summary = "Per screen: views, sessions, and dwell median, p90 and total."
    static let help = """
        Usage: navlog screens PATH ... [--since TIME] [--until TIME] [--app V] [--session ID] [--scene ID]
                                   [--alias REGEX=NAME] [--idle DURATION]
                                   [--format text|json|csv]

        One row per screen, from the log's screen views (a view begins whenever a scene's visible
        route changes): its views, the sessions with at least one, and its dwell time — median, p90
        and total in milliseconds — over the views that did not crash (crashed views count as views).
        Dwell is the time a view was seen: its time in the background (scene.phase) is left out.
        Quantiles are exact: the nearest rank, a dwell that occurred. Sorted by views, then screen.

        Options:
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog screens app.jsonl
          navlog screens logs/ --app 2.1 --format csv > screens.csv
        """

    static let options: [CommandOption] = AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        let (rows, report, filter) = try AnalyticsOutput.run(ScreensQuery(), over: input, parsed)
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.text("screen"), .count("views"), .count("sessions"), .duration("dwell_median_ms", "dwell median"),
                                                          .duration("dwell_p90_ms", "dwell p90"), .duration("dwell_total_ms", "dwell total")],
                                                rows: rows.map { [.text($0.screen), .number(Int64($0.views)), .number(Int64($0.sessions)),
                                                                        .number($0.dwellMedian), .number($0.dwellP90), .number($0.dwellTotal)] }))
        return
    }
}
