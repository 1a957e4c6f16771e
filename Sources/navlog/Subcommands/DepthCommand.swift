import NavigationAnalytics
import NavigationHistory

/// `navlog depth PATH [filters] [--format text|json|csv]`
enum DepthCommand: Subcommand {
    static let name = "depth"
    static let summary = "How deep users go: views per stack depth, in stacks and in sheets."
    static let help = """
        Usage: navlog depth PATH ... [--since TIME] [--until TIME] [--app V] [--session ID] [--scene ID]
                                 [--alias REGEX=NAME] [--idle DURATION] [--format text|json|csv]

        The distribution of stack depth at each screen view: the routes on the visible route's stack
        (0 for a root), counted separately for views in a tab's or the main stack and for views
        inside a sheet (where depth counts the routes pushed in the sheet). One row per depth.

        Options:
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog depth app.jsonl --format json
        """

    static let options: [CommandOption] = AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        let (rows, report, filter) = try AnalyticsOutput.run(DepthQuery(), over: input, parsed)
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.ordinal("depth"), .count("stack_views", "stack views"), .count("sheet_views", "sheet views")],
                                                rows: rows.map { [.number(Int64($0.depth)), .number(Int64($0.stackViews)), .number(Int64($0.sheetViews))] }))
        return
    }
}
