/// The most common sequences of `length` consecutive screens (n-grams) over all paths, with how
/// often each occurs and in how many sessions. With `from`, each path is taken from its first view
/// of that screen on; with `to`, up to its last view of that screen. Rows are sorted by
/// occurrences, descending, then by the sequence.
public struct PathsQuery: Sendable {
    public struct Row: Sendable, Hashable {
        public var screens: [String]
        public var occurrences: Int
        public var sessions: Int
    }

    public let length: Int
    public let from: String?, to: String?

    private struct Tally { var occurrences = 0, sessions = 0; var lastSession: String? }
    private var tallies: [[String]: Tally] = [:]
    private struct Key: Hashable { var session: String, scene: String }
    /// Paths being read: their screens since `from` (all of them when `to` is set, as the last
    /// `to` is only known at the path's end), or the recent ones otherwise.
    private var open: [Key: [String]] = [:]
    private var currentSession: String?

    public init(length: Int, from: String? = nil, to: String? = nil) {
        self.length = max(1, length)
        self.from = from
        self.to = to
    }

    public mutating func add(_ view: AnalyticsView) {
        // A log's sessions do not interleave: when one begins, the paths of the one before are done.
        if view.session != currentSession {
            endPaths()
            currentSession = view.session
        }
        let key = Key(session: view.session, scene: view.scene)
        var screens = open[key] ?? []
        if screens.isEmpty, let from, view.screen != from { return }   // before the path's first `from`
        screens.append(view.screen)
        if to == nil {
            if screens.count >= length { count(Array(screens.suffix(length)), session: view.session) }
            if screens.count > length { screens.removeFirst(screens.count - length) }
        }
        open[key] = screens
    }

    /// Counts what the last paths held back until their end; call once after the last view.
    public mutating func finish() {
        endPaths()
    }

    /// With `to`, counts the n-grams of each open path up to its last `to`; then forgets the paths.
    private mutating func endPaths() {
        defer { open.removeAll(keepingCapacity: true) }
        guard let to else { return }
        for (key, screens) in open.sorted(by: { $0.key.scene < $1.key.scene }) {
            guard let last = screens.lastIndex(of: to) else { continue }
            let path = Array(screens[...last])
            guard path.count >= length else { continue }
            for start in 0...(path.count - length) { count(Array(path[start..<(start + length)]), session: key.session) }
        }
    }

    private mutating func count(_ gram: [String], session: String) {
        var tally = tallies.removeValue(forKey: gram) ?? Tally()
        tally.occurrences += 1
        if tally.lastSession != session {
            tally.lastSession = session
            tally.sessions += 1
        }
        tallies[gram] = tally
    }

    public var rows: [Row] {
        tallies.map { Row(screens: $0.key, occurrences: $0.value.occurrences, sessions: $0.value.sessions) }
            .sorted { $0.occurrences != $1.occurrences ? $0.occurrences > $1.occurrences : $0.screens.lexicographicallyPrecedes($1.screens) }
    }
}
