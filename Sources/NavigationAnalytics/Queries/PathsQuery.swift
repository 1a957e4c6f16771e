import NavigationHistory

/// The most common sequences of `length` consecutive screens (n-grams) over all paths, with how
/// often each occurs and in how many sessions. With `from`, each path is taken from its first view
/// of that screen on; with `to`, up to its last view of that screen. Rows are sorted by
/// occurrences, descending, then by the sequence.
public struct PathsQuery: ViewQuery {
    public struct Row: Sendable, Hashable {
        public var screens: [String]
        public var occurrences: Int
        public var sessions: Int
    }

    public let length: Int
    public let from: String?, to: String?

    // Screens are numbered: n-grams are then runs of Int32, cheap to hash and compare.
    private var screens = NameIDs()
    private var counts: NGramCounts
    /// The paths of the current session, one per scene of ``openScenes``: their screens since
    /// `from` (all of them when `to` is set, as the last `to` is only known at the path's end), or
    /// the recent ones otherwise.
    private var open: [[Int32]] = []
    private var openScenes = SceneIndex()
    private var currentSession: String?
    private var sessionNumber = 0

    public init(length: Int, from: String? = nil, to: String? = nil) {
        self.length = max(1, length)
        self.from = from
        self.to = to
        counts = NGramCounts(length: self.length)
    }

    public mutating func add(_ view: AnalyticsView) {
        // A log's sessions do not interleave: when one begins, the paths of the one before are done.
        if view.session != currentSession {
            endPaths()
            currentSession = view.session
            sessionNumber += 1
        }
        let index: Int
        if let found = openScenes.index(of: view.scene) {
            index = found
        } else {
            if let from, view.screen != from { return }   // before the path's first `from`
            openScenes.append(view.scene)
            open.append([])
            index = open.count - 1
        }
        open[index].append(screens.id(view.screen))
        guard to == nil else { return }
        let count = open[index].count
        if count >= length { counts.count(open[index][(count - length)...], session: sessionNumber) }
        // Only the last `length - 1` screens make the next n-gram: the ones before are dropped
        // in batches rather than one by one.
        if count >= 2 * length { open[index].removeFirst(count - length + 1) }
    }

    /// Counts what the last paths held back until their end; call once after the last view.
    public mutating func finish() {
        endPaths()
    }

    /// With `to`, counts the n-grams of each open path up to its last `to`; then forgets the paths.
    private mutating func endPaths() {
        defer {
            open.removeAll(keepingCapacity: true)
            openScenes.removeAll(keepingCapacity: true)
        }
        guard let to, let target = screens.existingID(to) else { return }
        for k in open.indices.sorted(by: { openScenes.scenes[$0] < openScenes.scenes[$1] }) {
            let ids = open[k]
            guard let last = ids.lastIndex(of: target) else { continue }
            let path = ids[...last]
            guard path.count >= length else { continue }
            for start in 0...(path.count - length) { counts.count(path[start..<(start + length)], session: sessionNumber) }
        }
    }

    public mutating func merge(_ later: PathsQuery) {
        currentSession = nil
        let ids = screens.ids(of: later.screens)
        for k in later.counts.tallies.indices {
            counts.add(later.counts.tallies[k], of: ArraySlice(later.counts.gram(k).map { ids[Int($0)] }))
        }
    }

    public var rows: [Row] {
        counts.tallies.indices.map { k in
            Row(screens: counts.gram(k).map { screens.names[Int($0)] }, occurrences: counts.tallies[k].occurrences,
                sessions: counts.tallies[k].sessions)
        }
        .sorted { $0.occurrences != $1.occurrences ? $0.occurrences > $1.occurrences : $0.screens.lexicographicallyPrecedes($1.screens) }
    }
}
