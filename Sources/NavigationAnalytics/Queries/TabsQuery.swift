/// Tabs: per tab (the scene's selected tab when a view began), its views, the dwell of its views that
/// did not crash and that dwell's share of all tabs' in basis points; and the switch matrix: how
/// often a path's next view is under another tab. Rows are sorted by views, descending, then tab.
public struct TabsQuery: ViewQuery {
    public struct Row: Sendable, Hashable {
        public var tab: String
        public var views: Int
        public var dwellMilliseconds: Int64
        public var shareBasisPoints: Int
    }

    public struct Switch: Sendable, Hashable {
        public var from: String, to: String
        public var count: Int
    }

    private var tallies: [String: (views: Int, dwell: Int64)] = [:]
    private var switches: [[String]: Int] = [:]
    private struct Key: Hashable { var session: String, scene: String }
    private var lastTab: [Key: String] = [:]
    private var session: String?

    public init() {}

    public mutating func add(_ view: AnalyticsView) {
        if view.session != session {
            lastTab.removeAll(keepingCapacity: true)
            session = view.session
        }
        guard let tab = view.tab else { return }
        tallies[tab, default: (0, 0)].views += 1
        if !view.crashed { tallies[tab, default: (0, 0)].dwell += view.dwellMilliseconds }
        let key = Key(session: view.session, scene: view.scene)
        if let before = lastTab[key], before != tab { switches[[before, tab], default: 0] += 1 }
        lastTab[key] = tab
    }

    public mutating func merge(_ later: TabsQuery) {
        session = nil
        lastTab.removeAll()
        tallies.merge(later.tallies) { ($0.views + $1.views, $0.dwell + $1.dwell) }
        switches.merge(later.switches, uniquingKeysWith: +)
    }

    public var rows: [Row] {
        let total = tallies.values.reduce(Int64(0)) { $0 + $1.dwell }
        return tallies.map { tab, tally in
            Row(tab: tab, views: tally.views, dwellMilliseconds: tally.dwell,
                shareBasisPoints: total == 0 ? 0 : Int((tally.dwell * 10_000 + total / 2) / total))
        }.sorted { ($0.views, $1.tab) > ($1.views, $0.tab) }
    }

    public var switchRows: [Switch] {
        switches.map { Switch(from: $0.key[0], to: $0.key[1], count: $0.value) }
            .sorted { ($0.count, $1.from, $1.to) > ($1.count, $0.from, $0.to) }
    }
}
