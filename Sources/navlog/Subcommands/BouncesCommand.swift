import NavigationAnalytics
import NavigationHistory

/// `navlog bounces PATH [--within DURATION] [filters] [--format text|json|csv]`
enum BouncesCommand: Subcommand {
    static let name = "bounces"
    static let summary = "U-turns: screens pushed and popped straight back within a few seconds."
    static let help = """
        Usage: navlog bounces PATH ... [--within DURATION] [--since TIME] [--until TIME] [--app V]
                                   [--session ID] [--scene ID] [--alias REGEX=NAME] [--idle DURATION]
                                   [--format text|json|csv]

        A bounce is a view entered by a push whose path's next view is entered by a pop back to the
        screen the push left, within DURATION (default 5s): the pogo-stick. Per screen: its pushes,
        its bounces and the bounce rate as a percentage (bounces per 10,000 pushes rounded half up,
        over 100: 12.5).

        Options:
          --within DURATION  How soon the pop must come: 500ms, 5s, 1m, ... (default 5s; see
                             DURATION below).
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog bounces app.jsonl
          navlog bounces app.jsonl --within 3s --format csv
        """

    static let options: [CommandOption] = [.option("--within", "DURATION")] + AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        let within = try parsed.duration("--within") ?? .seconds(5)
        let (rows, report, filter) = try AnalyticsOutput.run(BouncesQuery(within: within), over: input, parsed)
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.text("screen"), .count("pushes"), .count("bounces"), .rate("rate_pct", "bounce rate")],
                                                rows: rows.map { [.text($0.screen), .number(Int64($0.pushes)), .number(Int64($0.bounces)),
                                                                        .number(Int64($0.rateBasisPoints))] }))
        return
    }
}
