/// The distribution of stack depth at each view: how many routes were on the visible route's stack
/// (0 for a root), counted separately for views in stacks and views in sheets (where depth is the
/// routes pushed inside the sheet). Rows are sorted by depth.
public struct DepthQuery: ViewQuery {
    public struct Row: Sendable, Hashable {
        public var depth: Int
        public var stackViews: Int, sheetViews: Int
    }

    private var counts: [Int: (stack: Int, sheet: Int)] = [:]

    public init() {}

    public mutating func add(_ view: AnalyticsView) {
        if view.inSheet { counts[view.depth, default: (0, 0)].sheet += 1 } else { counts[view.depth, default: (0, 0)].stack += 1 }
    }

    public mutating func merge(_ later: DepthQuery) {
        counts.merge(later.counts) { ($0.stack + $1.stack, $0.sheet + $1.sheet) }
    }

    public var rows: [Row] {
        counts.map { Row(depth: $0.key, stackViews: $0.value.stack, sheetViews: $0.value.sheet) }.sorted { $0.depth < $1.depth }
    }
}
