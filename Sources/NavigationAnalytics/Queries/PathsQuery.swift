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

    // Screens are interned as small integers: n-grams are then arrays of Int32, cheap to hash.
    private var ids: [String: Int32] = [:]
    private var names: [String] = []
    private struct Tally {
        var occurrences = 0, sessions = 0, lastSession = -1

        /// Adds the counts of another chunk's tally, whose sessions are others.
        mutating func add(_ other: Tally) {
            occurrences += other.occurrences
            sessions += other.sessions
            lastSession = -1
        }

        mutating func add(session: Int) {
            occurrences += 1
            if lastSession != session {
                lastSession = session
                sessions += 1
            }
        }
    }
    private var tallies: [[Int32]: Tally] = [:]
    /// The n-gram being counted: one array refilled for every lookup, rather than one allocated
    /// for each (it is allocated again only after a new n-gram was stored).
    private var gram: [Int32] = []
    /// The paths of the current session, one per scene: their screens since `from` (all of them
    /// when `to` is set, as the last `to` is only known at the path's end), or the recent ones
    /// otherwise. A session has a few scenes, found by comparing ids.
    private var open: [(scene: String, screens: [Int32])] = []
    private var currentSession: String?
    private var sessionNumber = 0

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
            sessionNumber += 1
        }
        let index: Int
        if let found = open.firstIndex(where: { $0.scene == view.scene }) {
            index = found
        } else {
            if let from, view.screen != from { return }   // before the path's first `from`
            open.append((view.scene, []))
            index = open.count - 1
        }
        open[index].screens.append(intern(view.screen))
        guard to == nil else { return }
        let count = open[index].screens.count
        if count >= length {
            gram.removeAll(keepingCapacity: true)
            gram.append(contentsOf: open[index].screens[(count - length)...])
            countGram()
        }
        if count > length { open[index].screens.removeFirst(count - length) }
    }

    /// Counts what the last paths held back until their end; call once after the last view.
    public mutating func finish() {
        endPaths()
    }

    private mutating func intern(_ screen: String) -> Int32 {
        if let id = ids[screen] { return id }
        let id = Int32(names.count)
        ids[screen] = id
        names.append(screen)
        return id
    }

    /// With `to`, counts the n-grams of each open path up to its last `to`; then forgets the paths.
    private mutating func endPaths() {
        defer { open.removeAll(keepingCapacity: true) }
        guard let to, let target = ids[to] else { return }
        for (_, screens) in open.sorted(by: { $0.scene < $1.scene }) {
            guard let last = screens.lastIndex(of: target) else { continue }
            let path = screens[...last]
            guard path.count >= length else { continue }
            for start in 0...(path.count - length) {
                gram.removeAll(keepingCapacity: true)
                gram.append(contentsOf: path[start..<(start + length)])
                countGram()
            }
        }
    }

    /// Counts the n-gram in `gram`.
    private mutating func countGram() {
        tallies[gram, default: Tally()].add(session: sessionNumber)   // one lookup
    }

    public mutating func merge(_ later: PathsQuery) {
        currentSession = nil
        let ids = later.names.map { intern($0) }   // later's ids, as this query's
        for (gram, tally) in later.tallies {
            tallies[gram.map { ids[Int($0)] }, default: Tally()].add(tally)
        }
    }

    public var rows: [Row] {
        tallies.map { Row(screens: $0.key.map { names[Int($0)] }, occurrences: $0.value.occurrences, sessions: $0.value.sessions) }
            .sorted { $0.occurrences != $1.occurrences ? $0.occurrences > $1.occurrences : $0.screens.lexicographicallyPrecedes($1.screens) }
    }
}
