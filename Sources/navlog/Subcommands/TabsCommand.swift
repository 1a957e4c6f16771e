import NavigationAnalytics
import NavigationHistory

/// `navlog tabs PATH [filters] [--format text|json|csv]`
enum TabsCommand: Subcommand {
    static let name = "tabs"
    static let summary = "Per tab: views, dwell and its share of time; and the tab-switch matrix."
    static let help = """
        Usage: navlog tabs PATH ... [--since TIME] [--until TIME] [--app V] [--session ID] [--scene ID]
                                [--alias REGEX=NAME] [--idle DURATION] [--format text|json|csv]

        Per tab (the scene's selected tab when a view began): its views, the dwell (ms: time seen, the
        background left out) of its views that did not crash, and that dwell's share of all tabs' as a
        percentage (basis points rounded half up, over 100: 35.48). Then the switch matrix
        ("switches"): how often a path's next view is under another tab, per (from, to).

        Options:
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog tabs app.jsonl
        """

    static let options: [CommandOption] = AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        let (tabs, report, filter) = try AnalyticsOutput.run(TabsQuery(), over: input, parsed)
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.text("tab"), .count("views"), .duration("dwell_ms", "dwell"), .rate("share_pct", "share")],
                                                rows: tabs.rows.map { [.text($0.tab), .number(Int64($0.views)), .number($0.dwellMilliseconds),
                                                                        .number(Int64($0.shareBasisPoints))] }),
                              sections: [.init(name: "switches", table: QueryTable(columns: [.text("from"), .text("to"), .count("count")],
                                                                                   rows: tabs.switches.map { [.text($0.from), .text($0.to), .number(Int64($0.count))] }))])
        return
    }
}
