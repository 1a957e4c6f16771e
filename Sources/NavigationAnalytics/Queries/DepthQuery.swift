/// The distribution of stack depth at each view: how many routes were on the visible route's stack
/// (0 for a root), counted separately for views in stacks and views in sheets (where depth is the
/// routes pushed inside the sheet). Rows are sorted by depth.
public struct DepthQuery: ViewQuery {
    /// One depth's row.
    public struct Row: Sendable, Hashable {
        /// The routes on the visible route's stack (0 for a root).
        public var depth: Int
        /// The views at this depth in a scene's stacks, and inside sheets.
        public var stackViews: Int, sheetViews: Int
    }

    private var counts: [Int: (stack: Int, sheet: Int)] = [:]

    /// Creates a query that has counted nothing.
    public init() {}

    /// Counts `view` at its depth.
    public mutating func add(_ view: AnalyticsView) {
        if view.inSheet { counts[view.depth, default: (0, 0)].sheet += 1 } else { counts[view.depth, default: (0, 0)].stack += 1 }
    }

    /// Adds the counts of `later`, which counted other views.
    public mutating func merge(_ later: consuming DepthQuery) {
        counts.merge(later.counts) { ($0.stack + $1.stack, $0.sheet + $1.sheet) }
    }

    /// The rows, sorted by depth.
    public consuming func finalize() -> [Row] {
        counts.map { Row(depth: $0.key, stackViews: $0.value.stack, sheetViews: $0.value.sheet) }.sorted { $0.depth < $1.depth }
    }
}
