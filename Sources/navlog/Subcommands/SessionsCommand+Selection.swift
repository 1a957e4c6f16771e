import NavigationHistory

extension SessionsCommand {
    /// The sessions `--ending` and `--limit` keep: those that ended in one of the ways named
    /// (`--ending unclean,background`, or the option given again), then the first N of them.
    struct Selection {
        /// The endings kept; nil keeps every session.
        var endings: Set<SessionEnd>?
        /// How many rows at most; nil for all.
        var limit: Int?

        init(_ parsed: Arguments) throws {
            let named = parsed.all("--ending").flatMap { $0.split(separator: ",").map(String.init) }
            endings = named.isEmpty ? nil : Set(try named.map { try Arguments.choice("--ending", $0) as SessionEnd })
            limit = try parsed.limit()
        }

        /// Whether a session that ended so is kept.
        func keeps(_ ending: SessionEnd) -> Bool { endings?.contains(ending) ?? true }

        /// Of each log's `sessions`, in order, those kept, the first `limit` of all the logs'.
        func apply(_ logs: [[SessionSummary]]) -> [[SessionSummary]] {
            var left = limit ?? Int.max
            return logs.map { sessions in
                let kept = Array(sessions.lazy.filter { keeps($0.ending) }.prefix(left))
                left -= kept.count
                return kept
            }
        }

        /// The line after the counts that says which rows follow when not all do: "showing 5
        /// (--ending unclean, --limit 5)"; nil when every session is listed.
        func note(shown: Int, of total: Int) -> String? {
            guard shown < total || endings != nil else { return nil }
            var given: [String] = []
            if let endings { given.append("--ending " + SessionEnd.allCases.filter(endings.contains).map(\.rawValue).joined(separator: ",")) }
            if let limit { given.append("--limit \(TextFormat.count(limit))") }
            return "showing \(TextFormat.count(shown)) of \(TextFormat.count(total)) (\(given.joined(separator: ", ")))"
        }
    }

    /// The counts line of the text output: "app.jsonl: 1,204 sessions: 1,100 clean, 40 background, ...".
    static func countsLine(_ name: String, _ sessions: some Collection<SessionSummary>) -> String {
        let counts = Dictionary(grouping: sessions, by: \.ending).mapValues(\.count)
        return "\(name): \(counted(sessions.count, "session")): "
            + SessionEnd.allCases.map { "\(TextFormat.count(counts[$0] ?? 0)) \($0.rawValue)" }.joined(separator: ", ")
    }
}
