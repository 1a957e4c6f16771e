/// Tabs: per tab (the scene's selected tab when a view began), its views, the dwell of its views that
/// did not crash and that dwell's share of all tabs' in basis points; and the switch matrix: how
/// often a path's next view is under another tab. Rows are sorted by views, descending, then tab.
public struct TabsQuery: ViewQuery {
    /// One tab's row.
    public struct Row: Sendable, Hashable {
        /// The tab's id.
        public var tab: String
        /// The views that began under it.
        public var views: Int
        /// The dwell of those views that did not crash, summed, in milliseconds.
        public var dwellMilliseconds: Int64
        /// That dwell's share of all tabs', per 10,000, rounded.
        public var shareBasisPoints: Int
    }

    /// How often a path's next view is under another tab.
    public struct Switch: Sendable, Hashable {
        /// The tab of the view, and of the path's next view.
        public var from: String, to: String
        /// How often the one followed the other.
        public var count: Int
    }

    /// What the query answers.
    public struct Result: Sendable, Hashable {
        /// The rows, sorted by views, descending, then by tab.
        public var rows: [Row]
        /// The switch matrix's cells that are not 0, sorted by count, descending, then by from and to.
        public var switches: [Switch]
    }

    private var tallies: [String: (views: Int, dwell: Int64)] = [:]
    private var switches: [[String]: Int] = [:]
    private struct Key: Hashable { var session: String, scene: String }
    private var lastTab: [Key: String] = [:]
    private var session: String?

    /// Creates a query that has counted nothing.
    public init() {}

    /// Counts `view` under its tab, and the switch to it; a view without a tab counts nowhere.
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

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming TabsQuery) {
        session = nil
        lastTab.removeAll()
        tallies.merge(later.tallies) { ($0.views + $1.views, $0.dwell + $1.dwell) }
        switches.merge(later.switches, uniquingKeysWith: +)
    }

    /// The tabs' rows and the switches.
    public consuming func finalize() -> Result {
        let total = tallies.values.reduce(Int64(0)) { $0 + $1.dwell }
        let rows = tallies.map { tab, tally in
            Row(tab: tab, views: tally.views, dwellMilliseconds: tally.dwell,
                shareBasisPoints: total == 0 ? 0 : Int((tally.dwell * 10_000 + total / 2) / total))
        }.sorted { ($0.views, $1.tab) > ($1.views, $0.tab) }
        let switches = switches.map { Switch(from: $0.key[0], to: $0.key[1], count: $0.value) }
            .sorted { ($0.count, $1.from, $1.to) > ($1.count, $0.from, $0.to) }
        return Result(rows: rows, switches: switches)
    }
}
