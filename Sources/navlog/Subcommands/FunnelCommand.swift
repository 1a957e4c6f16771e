import NavigationAnalytics
import NavigationHistory

/// `navlog funnel PATH --steps a,b,c [--mode M] [--entry E] [--window D] [filters] [--format ...]`
enum FunnelCommand: Subcommand {
    static let name = "funnel"
    static let summary = "How many sessions reach each step of a funnel of screens, and how fast."
    static let help = """
        Usage: navlog funnel PATH ... --steps SCREEN,SCREEN,... [--mode ordered|strict|any]
                             [--entry first|any] [--window DURATION] [--since TIME] [--until TIME]
                             [--app V] [--session ID] [--scene ID] [--format text|json|csv]

        A session reaches step i when views of steps 1..i occur within the window of the step-1 view
        that starts the attempt. Per step: the sessions reaching it, the drop-off from the step before,
        the conversion from the step before and from step 1 (percentages), and the median and p90 time
        from step 1 (ms, nearest rank). A session's views are taken in seq order, all its scenes together.

        Options:
          --steps LIST      The funnel's screens, comma-separated (at least one).
          --mode MODE       ordered (default): in order, other views may come between.
                            strict: in order and consecutive. any: after step 1, in any order.
          --entry ENTRY     first (default): only a session's first step-1 view starts an attempt.
                            any: every step-1 view may; the attempt that gets furthest counts.
          --window DURATION How long after step 1 the other steps may come, such as 90s, 30m,
                            1h30m or 7d (default 1d; see DURATION below).
        \(AnalyticsOutput.optionsHelpWithoutMode)

        Examples:
          navlog funnel app.jsonl --steps home,recipe,reviews
          navlog funnel logs/ --steps home,recipe,reviews --mode strict --format json
        """

    static let options: [CommandOption] = [.option("--steps", "LIST"), .choice("--entry", FunnelQuery.Entry.self), .option("--window", "DURATION")]
        + AnalyticsOutput.options.replacing(.choice("--mode", FunnelQuery.Mode.self))

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else {
            return
        }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        let steps = (parsed.value("--steps") ?? "").split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
        guard !steps.isEmpty else { throw UsageError("give the funnel's screens with --steps a,b,c") }
        let mode = try parsed.choice("--mode", default: FunnelQuery.Mode.ordered)
        let entry = try parsed.choice("--entry", default: FunnelQuery.Entry.first)
        let window = try parsed.duration("--window") ?? .seconds(86_400)
        // --mode is the recovery mode elsewhere; here it names the funnel's mode, so the log is read tolerating a torn tail.
        let (rows, report, filter) = try AnalyticsOutput.run(FunnelQuery(steps: steps, mode: mode, entry: entry, window: window),
                                                              over: input, parsed, recoveryModeOption: false,
                                                              naming: { rows in rows.filter { $0.sessions == 0 }.map { ("--steps", $0.screen) } })
        func ratio(_ value: Int?) -> Cell { .number(value.map(Int64.init)) }
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.ordinal("step"), .text("screen"), .count("sessions"), .count("drop_off", "drop-off"),
                                                          .rate("conversion_from_previous_pct", "conversion"), .rate("conversion_from_first_pct", "from step 1"),
                                                          .duration("median_ms", "median time"), .duration("p90_ms", "p90 time")],
                                                rows: rows.map { [.number(Int64($0.step)), .text($0.screen), .number(Int64($0.sessions)),
                                                                        .number(Int64($0.dropOff)), ratio($0.conversionFromPrevious), ratio($0.conversionFromFirst),
                                                                        .number($0.medianMilliseconds), .number($0.p90Milliseconds)] }))
        return
    }
}
