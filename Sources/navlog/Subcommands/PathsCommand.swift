import NavigationAnalytics
import NavigationHistory

/// `navlog paths PATH [--length K] [--from X] [--to X] [--top N] [filters] [--format text|json|csv]`
enum PathsCommand: Subcommand {
    static let name = "paths"
    static let summary = "The most common sequences of K consecutive screens, with occurrences and sessions."
    static let help = """
        Usage: navlog paths PATH ... [--length K] [--from SCREEN] [--to SCREEN] [--top N]
                                 [--since TIME] [--until TIME] [--app V] [--session ID] [--scene ID]
                                   [--alias REGEX=NAME] [--idle DURATION]
                                 [--format text|json|csv]

        Counts every run of K consecutive screen views (an n-gram) in every path — the views of one
        (session, scene) in order — with how often it occurs and in how many sessions.

        Options:
          --length K        Screens per sequence (default 3).
          --from SCREEN     Take each path from its first view of SCREEN on.
          --to SCREEN       Take each path up to its last view of SCREEN.
          --top N           Print the N most common (default 20; 0 prints all). Sorted by
                            occurrences, then by the sequence.
        \(AnalyticsOutput.optionsHelp)

        Examples:
          navlog paths app.jsonl --length 3
          navlog paths app.jsonl --from home --top 5
        """

    static let options: [CommandOption] = [.option("--length", "K"), .option("--from", "SCREEN"), .option("--to", "SCREEN"), .option("--top", "N")]
        + AnalyticsOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else {
            return
        }
        let input = try LogInputs(parsed)
        let path = input.shown
        let format = try AnalyticsOutput.style(parsed)
        let length = try parsed.integer("--length", range: 1...100) ?? 3
        let top = try parsed.integer("--top", range: 0...Int.max) ?? 20
        let (found, report, filter) = try AnalyticsOutput.run(PathsQuery(length: length, from: parsed.value("--from"), to: parsed.value("--to")),
                                                              over: input, parsed,
                                                              naming: { found in
            found.isEmpty ? ["--from", "--to"].compactMap { option in parsed.value(option).map { (option, $0) } } : []
        })
        let rows = top == 0 ? found : Array(found.prefix(top))
        try AnalyticsOutput.print(query: name, path: path, report: report, filter: filter, format: format,
                              table: QueryTable(columns: [.list("path"), .count("occurrences"), .count("sessions")],
                                                rows: rows.map { [.list($0.screens), .number(Int64($0.occurrences)), .number(Int64($0.sessions))] }),
                              extra: [("length", length)])
        return
    }
}
