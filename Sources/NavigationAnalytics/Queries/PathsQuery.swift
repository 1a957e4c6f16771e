import NavigationHistory

/// The most common sequences of `length` consecutive screens (n-grams) over all paths, with how
/// often each occurs and in how many sessions. With `from`, each path is taken from its first view
/// of that screen on; with `to`, up to its last view of that screen. Rows are sorted by
/// occurrences, descending, then by the sequence.
///
/// ```swift
/// let (rows, _) = try ViewStream.run(PathsQuery(length: 3, from: "home"), over: "app.navlog")
/// for row in rows.prefix(10) { print(row.screens.joined(separator: " → "), row.occurrences) }
/// ```
public struct PathsQuery: ViewQuery, ScreenViewQuery {
    /// One sequence's row.
    public struct Row: Sendable, Hashable {
        /// The `length` screens, in path order.
        public var screens: [String]
        /// How often the sequence occurs over all paths.
        public var occurrences: Int
        /// The sessions it occurs in.
        public var sessions: Int
    }

    /// The screens in a sequence (at least 1).
    public let length: Int
    /// The screen each path is taken from (its first view of it), and the one it is taken up to
    /// (its last view of it); nil for the path's start and end.
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

    /// Creates a query of sequences of `length` screens (1 if less), taken `from` a screen and
    /// `to` a screen when they are given.
    public init(length: Int, from: String? = nil, to: String? = nil) {
        self.length = max(1, length)
        self.from = from
        self.to = to
        counts = NGramCounts(length: self.length)
    }

    /// Adds `view` to its path, counting the sequence it ends.
    public mutating func add(_ view: AnalyticsView) {
        var view = view.screenView
        add(lent: &view)
    }

    /// Session, scene and screen only.
    static var readsDetails: Bool { false }

    mutating func add(lent view: inout ScreenView) {
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
            if let from, view.screen.route.screen != from { return }   // before the path's first `from`
            openScenes.append(view.scene)
            open.append([])
            index = open.count - 1
        }
        open[index].append(screens.id(view.screen.route.screen))
        guard to == nil else { return }
        let count = open[index].count
        if count >= length { counts.count(open[index][(count - length)...], session: sessionNumber) }
        // Only the last `length - 1` screens make the next n-gram: the ones before are dropped
        // in batches rather than one by one.
        if count >= 2 * length { open[index].removeFirst(count - length + 1) }
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

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming PathsQuery) {
        endPaths()
        later.endPaths()
        currentSession = nil
        let ids = screens.ids(of: later.screens)
        for k in later.counts.tallies.indices {
            counts.add(later.counts.tallies[k], of: ArraySlice(later.counts.gram(k).map { ids[Int($0)] }))
        }
    }

    /// The rows, sorted by occurrences, descending, then by the sequence.
    public consuming func finalize() -> [Row] {
        endPaths()
        return counts.tallies.indices.map { k in
            Row(screens: counts.gram(k).map { screens.names[Int($0)] }, occurrences: counts.tallies[k].occurrences,
                sessions: counts.tallies[k].sessions)
        }
        .sorted { $0.occurrences != $1.occurrences ? $0.occurrences > $1.occurrences : $0.screens.lexicographicallyPrecedes($1.screens) }
    }
}
