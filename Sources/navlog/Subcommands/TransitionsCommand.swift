import NavigationAnalytics
import NavigationHistory

/// `navlog transitions PATH [filters] [--format text|json|csv]`
enum TransitionsCommand: Subcommand {
    static let name = "transitions"
    static let summary = "Counts of from → to between consecutive screen views of each path."
    static let help = """
        Usage: navlog transitions PATH ... [--since TIME] [--until TIME] [--app V] [--session ID]
                                   [--scene ID] [--alias REGEX=NAME] [--idle DURATION]
                                   [--steps N [--top M]] [--limit N] [--format text|json|csv]

        A path is the screen views of one (session, scene) in order; each pair of consecutive views is
        a transition from → to (a screen followed by itself counts: recipe → recipe is a real path).
        One row per (from, to), sorted by count, then from and to.

        With --steps N, transitions are keyed by position for a flow (Sankey) diagram: over the first
        N views of every path, one row per (step, from, to), a screen outside the --top M most common
        at its position (default 5) named `other`. Text names each screen, its step being in the
        step column; JSON and CSV name the nodes `p_screen` (`1_home`, `2_other`), one per position.

        Options:
          --steps N         Position-keyed transitions over the first N views of each path.
          --top M           With --steps: screens kept per position (default 5).
          --limit N         At most N rows (the first N, in the order above).
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog transitions app.jsonl --limit 20
          navlog transitions app.jsonl --steps 4 --top 5 --format json
        """

    static let options: [CommandOption] = [.option("--steps", "N"), .option("--top", "M"), .limit] + AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        if parsed.has("--top") && !parsed.has("--steps") { throw UsageError("--top applies with --steps N") }
        if let steps = try parsed.integer("--steps", range: 2...1000) {
            let (flow, report, filter) = try AnalyticsOutput.run(FlowQuery(steps: steps, top: try parsed.integer("--top", range: 1...1000) ?? 5),
                                                                 over: input, parsed)
            try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format, table: QueryTable(columns: [.ordinal("step"), .node("from"), .node("to"), .count("count")],
                                                    rows: flow.prefix(try parsed.limit() ?? Int.max).map { [.number(Int64($0.step)), .text($0.from), .text($0.to), .number(Int64($0.count))] }),
                                  extra: [("steps", steps)])
            return
        }
        let (rows, report, filter) = try AnalyticsOutput.run(TransitionsQuery(), over: input, parsed)
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format, table: QueryTable(columns: [.text("from"), .text("to"), .count("count")],
                                                rows: rows.prefix(try parsed.limit() ?? Int.max).map { [.text($0.from), .text($0.to), .number(Int64($0.count))] }))
        return
    }
}
