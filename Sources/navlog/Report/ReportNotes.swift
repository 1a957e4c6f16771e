import NavigationAnalytics

extension ReportQuery.LeftOut {
    /// What the page left out, in sentences that say how to see it (for the notes on standard
    /// error), given the log at `path` and the page `output`; over several logs, `path` is the
    /// paths as given and `logs` names each log, the one `navlog replay` reads a session from.
    func notes(_ options: ReportQuery.Options, path: String, output: String, logs: [String] = []) -> [String] {
        /// `navlog replay` of `cut`'s session: from its own log, by its id there.
        func replay(_ cut: Cut, id: String) -> String {
            logs.isEmpty ? "navlog replay \(path) --session \(id)" : "navlog replay \(logs[cut.log]) --session \(cut.idInLog)"
        }
        func list(_ ids: [String]) -> String { ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "") }
        let bytes = options.maximumReplayBytes >= 1 << 20 ? "\(options.maximumReplayBytes >> 20) MiB" : "\(options.maximumReplayBytes >> 10) KiB"
        var notes: [String] = []
        let long = cut.filter { !$0.bytesRanOut }
        if let first = long.first {
            let all = logs.isEmpty ? "`\(replay(first, id: "ID"))` shows all of one" : "`\(replay(first, id: first.id))` shows all of \(first.id)"
            notes.append("the replays of \(long.count == 1 ? "session" : "sessions") \(list(long.map(\.id))) show their first \(options.maximumSteps) events"
                         + " (the page replays at most \(options.maximumSteps) events a session); \(all)")
        }
        if let cut = cut.first(where: \.bytesRanOut) {
            notes.append("the replay of session \(cut.id) shows its first \(cut.replayed) of \(cut.events) events (the page embeds at most"
                         + " \(bytes) of replays); `\(replay(cut, id: cut.id))` shows them all")
        }
        if !omitted.isEmpty {
            let ids = omitted.map(\.id)
            notes.append("left out the replays of \(ids.count == 1 ? "session" : "\(ids.count) sessions") \(list(ids)) (the page embeds at most"
                         + " \(bytes) of replays); `navlog report \(path) -o \(output) --session ID --crashed 0 --recent 0` embeds one")
        }
        return notes
    }
}
