/// Counts of from → to between consecutive views of a path (consecutive equal screens included).
/// Rows are sorted by count, descending, then by from and to.
public struct TransitionsQuery: ViewQuery {
    public struct Row: Sendable, Hashable {
        public var from: String, to: String
        public var count: Int
    }

    private struct Pair: Hashable { var from: String, to: String }
    private var counts: [Pair: Int] = [:]
    private var paths = PathBuilder(keep: 2)

    public init() {}

    public mutating func add(_ view: AnalyticsView) {
        var step: Pair?
        paths.add(view) { recent, _ in
            if recent.count == 2 { step = Pair(from: recent[0], to: recent[1]) }
        }
        if let step { counts[step, default: 0] += 1 }
    }

    public mutating func merge(_ later: TransitionsQuery) {
        counts.merge(later.counts, uniquingKeysWith: +)
    }

    public var rows: [Row] {
        counts.map { Row(from: $0.key.from, to: $0.key.to, count: $0.value) }
            .sorted { ($0.count, $1.from, $1.to) > ($1.count, $0.from, $0.to) }
    }
}
