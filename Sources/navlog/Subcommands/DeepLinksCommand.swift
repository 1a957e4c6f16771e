import NavigationAnalytics
import NavigationHistory

/// `navlog deeplinks PATH [filters] [--format text|json|csv]`
enum DeepLinksCommand: Subcommand {
    static let name = "deeplinks"
    static let summary = "Deep links per outcome and URL pattern, and how often users backed out past them."
    static let help = """
        Usage: navlog deeplinks PATH [--since TS] [--until TS] [--app V] [--session ID] [--scene ID]
                                     [--format text|json|csv] [--mode MODE]

        Per outcome (resolved, partial, unmatched) and URL pattern (the URL without query and
        fragment, each path segment holding a digit replaced by :id): the links opened, and how many
        times the session then backed out past the linked screen — popped that stack below the route
        the link opened, before the session ended, the scene closed or another link replaced it.

        Options:
        \(AnalyticsOutput.optionsHelp)
        """

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments, options: AnalyticsOutput.options, flags: AnalyticsOutput.flags) else { return }
        let input = try LogInput(parsed.path())
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        try AnalyticsOutput.rejectViewOptions(parsed, in: "")
        let filter = try AnalyticsOutput.filter(parsed)
        var query = DeepLinksQuery(filter: filter)
        let report = try ViewStream.read(input.path, mode: try parsed.choice("--mode", default: .tolerateTornTail),
                                         events: { event, app, state in query.consume(event, app: app, stateAfter: state) }) { _ in }
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.text("outcome"), .text("pattern"), .count("links"), .count("backed_out", "backed out")],
                                                rows: query.finalize().rows.map { [.text($0.outcome), .text($0.pattern), .number(Int64($0.links)), .number(Int64($0.backedOut))] }))
        return
    }
}
