import NavigationAnalytics

extension ReportQuery.LeftOut {
    /// What the page left out, in sentences that say how to see it (for the notes on standard
    /// error), given the log at `path` and the page `output`.
    func notes(_ options: ReportQuery.Options, path: String, output: String) -> [String] {
        func list(_ ids: [String]) -> String { ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "") }
        let bytes = options.maximumReplayBytes >= 1 << 20 ? "\(options.maximumReplayBytes >> 20) MiB" : "\(options.maximumReplayBytes >> 10) KiB"
        var notes: [String] = []
        let long = cut.filter { !$0.bytesRanOut }.map(\.id)
        if !long.isEmpty {
            notes.append("the replays of \(long.count == 1 ? "session" : "sessions") \(list(long)) show their first \(options.maximumSteps) events"
                         + " (the page replays at most \(options.maximumSteps) events a session); `navlog replay \(path) --session ID` shows all of one")
        }
        if let cut = cut.first(where: \.bytesRanOut) {
            notes.append("the replay of session \(cut.id) shows its first \(cut.replayed) of \(cut.events) events (the page embeds at most"
                         + " \(bytes) of replays); `navlog replay \(path) --session \(cut.id)` shows them all")
        }
        if !omitted.isEmpty {
            let ids = omitted.map(\.id)
            notes.append("left out the replays of \(ids.count == 1 ? "session" : "\(ids.count) sessions") \(list(ids)) (the page embeds at most"
                         + " \(bytes) of replays); `navlog report \(path) -o \(output) --session ID --recent 0` embeds one")
        }
        return notes
    }
}
