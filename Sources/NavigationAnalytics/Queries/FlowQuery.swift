/// Transitions keyed by position, for a flow (Sankey) diagram: over the first `steps` views of every
/// path, the count of each transition from position p to p + 1, where each node is `p_screen` and a
/// screen outside the `top` most common at its position is `p_other`. Rows are sorted by step, then
/// count, descending, then from and to.
public struct FlowQuery: ViewQuery {
    public struct Row: Sendable, Hashable {
        /// The position of the transition's `from` view.
        public var step: Int
        public var from: String, to: String
        public var count: Int
    }

    public let steps: Int
    public let top: Int
    private struct Key: Hashable { var session: String, scene: String }
    /// The first `steps` screens of every path (memory grows with paths, not events).
    private var paths: [Key: [String]] = [:]
    /// The path the last view went to, and where it is: a path's views mostly come one after
    /// another, and finding it again spares hashing its session and scene. Forgotten when a path
    /// is added, which may move the others.
    private var last: (key: Key, index: [Key: [String]].Index)?

    public init(steps: Int, top: Int = 5) {
        self.steps = max(2, steps)
        self.top = max(1, top)
    }

    public mutating func add(_ view: AnalyticsView) {
        let key = Key(session: view.session, scene: view.scene)
        let index: [Key: [String]].Index
        if let last, last.key == key {
            index = last.index
        } else if let found = paths.index(forKey: key) {
            index = found
            last = (key, found)
        } else {
            paths[key] = [view.screen]
            last = nil
            return
        }
        if paths.values[index].count < steps { paths.values[index].append(view.screen) }
    }

    public mutating func merge(_ later: FlowQuery) {
        last = nil
        // Paths are keyed by session: the queries merged share none.
        paths.merge(later.paths) { mine, _ in mine }
    }

    public var rows: [Row] {
        // The top screens at each position, by the paths that have them there, then by name.
        var atPosition: [[String: Int]] = Array(repeating: [:], count: steps)
        for screens in paths.values { for (p, screen) in screens.enumerated() { atPosition[p][screen, default: 0] += 1 } }
        let kept: [Set<String>] = atPosition.map { counts in
            Set(counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(top).map(\.key))
        }
        func node(_ p: Int, _ screen: String) -> String { "\(p + 1)_" + (kept[p].contains(screen) ? screen : "other") }
        var counts: [Row: Int] = [:]
        for screens in paths.values where screens.count > 1 {
            for p in 0..<(screens.count - 1) {
                counts[Row(step: p + 1, from: node(p, screens[p]), to: node(p + 1, screens[p + 1]), count: 0), default: 0] += 1
            }
        }
        return counts.map { Row(step: $0.key.step, from: $0.key.from, to: $0.key.to, count: $0.value) }
            .sorted { ($0.step, -$0.count, $0.from, $0.to) < ($1.step, -$1.count, $1.from, $1.to) }
    }
}
