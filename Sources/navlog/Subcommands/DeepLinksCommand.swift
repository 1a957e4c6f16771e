import NavigationAnalytics
import NavigationHistory

/// `navlog deeplinks PATH [filters] [--format text|json|csv]`
enum DeepLinksCommand: Subcommand {
    static let name = "deeplinks"
    static let summary = "Deep links per outcome and URL pattern, and how often users backed out past them."
    static let help = """
        Usage: navlog deeplinks PATH ... [--since TIME] [--until TIME] [--app V] [--session ID] [--scene ID]
                                     [--limit N] [--format text|json|csv] [--mode MODE]

        Per outcome (resolved, partial, unmatched) and URL pattern (the URL without query and
        fragment, each path segment holding a digit replaced by :id): the links opened, and how many
        times the session then backed out past the linked screen — popped that stack below the route
        the link opened, before the session ended, the scene closed or another link replaced it.

        Options:
          --limit N         At most N rows (the first N: the most links first).
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog deeplinks app.jsonl --limit 10
        """

    static let options: [CommandOption] = [.limit] + AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        try AnalyticsOutput.rejectViewOptions(parsed, in: "")
        let filter = try AnalyticsOutput.filter(parsed)
        let mode: RecoveryMode = try parsed.choice("--mode", default: .tolerateTornTail)
        var (rows, read) = try deepLinks(input, mode: mode, filter: filter)
        read.unknownNames = try KnownNames.unknown(KnownNames.filtered(parsed), in: input.paths, mode: mode)
        try AnalyticsOutput.print(query: name, path: path, report: read, filter: filter, format: format,
                              table: QueryTable(columns: [.text("outcome"), .text("pattern"), .count("links"), .count("backed_out", "backed out")],
                                                rows: rows.prefix(try parsed.limit() ?? Int.max).map { [.text($0.outcome), .text($0.pattern), .number(Int64($0.links)), .number(Int64($0.backedOut))] }))
        return
    }

    /// A row of the answer.
    struct Row: Sendable {
        var outcome: String, pattern: String, links: Int, backedOut: Int
    }

    /// The deep links of every log in `inputs`, each read on its own, several at once, and their
    /// counts added up (a session's backing out is counted within its log).
    private static func deepLinks(_ inputs: LogInputs, mode: RecoveryMode,
                                  filter: AnalyticsFilter) throws -> ([Row], AnalyticsOutput.ViewsRead) {
        let parts = try ViewStream.inParallel(inputs.paths.count) { [paths = inputs.paths] k in
            var query = DeepLinksQuery(filter: filter)
            var sessions = StringSet()
            let report = try ViewStream.read(paths[k], mode: mode, events: { event, app, state in
                sessions.insert(event.session)
                query.consume(event, app: app, stateAfter: state)
            }) { _ in }
            return (rows: query.finalize().rows.map { Row(outcome: $0.outcome, pattern: $0.pattern, links: $0.links, backedOut: $0.backedOut) },
                    report: report, sessions: sessions)
        }
        let dropped = try DroppedOutput(inputs, reports: parts.map(\.report))
        guard inputs.isMany else { return (parts[0].rows, AnalyticsOutput.ViewsRead(report: parts[0].report, dropped: dropped)) }
        var links: [String: [String: (links: Int, backedOut: Int)]] = [:]
        for row in parts.flatMap(\.rows) {
            let sum = links[row.outcome, default: [:]][row.pattern, default: (0, 0)]
            links[row.outcome, default: [:]][row.pattern] = (sum.links + row.links, sum.backedOut + row.backedOut)
        }
        // Ordered as the query orders its rows: by links, then outcome and pattern.
        let rows = links.flatMap { outcome, patterns in
            patterns.map { Row(outcome: outcome, pattern: $0.key, links: $0.value.links, backedOut: $0.value.backedOut) }
        }.sorted { ($0.links, $1.outcome, $1.pattern) > ($1.links, $0.outcome, $0.pattern) }
        let many = AnalyticsOutput.ManyLogs(inputs, reports: parts.map(\.report), repeated: ViewStream.repeatedSessions(parts.map(\.sessions)))
        many.warn()
        return (rows, AnalyticsOutput.ViewsRead(report: parts[0].report, dropped: dropped, many: many))
    }
}
