/// Counts of from → to between consecutive views of a path (consecutive equal screens included).
/// Rows are sorted by count, descending, then by from and to.
public struct TransitionsQuery: ViewQuery {
    /// One transition's row.
    public struct Row: Sendable, Hashable {
        /// The screens of the view and of the path's next view.
        public var from: String, to: String
        /// How often the one followed the other.
        public var count: Int
    }

    private struct Pair: Hashable { var from: String, to: String }
    private var counts: [Pair: Int] = [:]
    private var paths = PathBuilder(keep: 2)

    /// Creates a query that has counted nothing.
    public init() {}

    /// Counts the transition from the previous view of `view`'s path, if any, to `view`.
    public mutating func add(_ view: AnalyticsView) {
        var step: Pair?
        paths.add(view) { recent, _ in
            if recent.count == 2 { step = Pair(from: recent[0], to: recent[1]) }
        }
        if let step { counts[step, default: 0] += 1 }
    }

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming TransitionsQuery) {
        counts.merge(later.counts, uniquingKeysWith: +)
    }

    /// The rows, sorted by count, descending, then by from and to.
    public consuming func finalize() -> [Row] {
        counts.map { Row(from: $0.key.from, to: $0.key.to, count: $0.value) }
            .sorted { ($0.count, $1.from, $1.to) > ($1.count, $0.from, $0.to) }
    }
}
