import NavigationHistory

/// Per screen: views, sessions with at least one view, and dwell median, p90 and total.
///
/// Crashed views count as views but are left out of dwell (they ended when the app died, not when
/// the user moved on). Rows are sorted by views, descending, then by screen.
///
/// ```swift
/// let (rows, _) = try ViewStream.run(ScreensQuery(), over: "app.navlog")
/// for row in rows { print(row.screen, row.views, row.dwellMedian ?? 0) }
/// ```
public struct ScreensQuery: ViewQuery, ScreenViewQuery {
    /// One screen's row.
    public struct Row: Sendable, Hashable {
        /// The screen's name, after path cleaning.
        public var screen: String
        /// Its views.
        public var views: Int
        /// The sessions with at least one of its views.
        public var sessions: Int
        /// Dwell over the views that did not crash, in milliseconds, by nearest rank (nil when
        /// every view crashed).
        public var dwellMedian: Int64?, dwellP90: Int64?
        /// The dwell of the views that did not crash, summed, in milliseconds.
        public var dwellTotal: Int64
    }

    private struct Tally {
        var views = 0
        var sessions = 0
        /// The number of the session that counted last, so that a session counts once.
        var lastSession = -1
        var dwell = QuantileCounter()

        mutating func add(_ view: borrowing ScreenView, session: Int) {
            views += 1
            if lastSession != session {
                lastSession = session
                sessions += 1
            }
            if !view.crashed { dwell.add(view.dwellMilliseconds) }
        }

        /// Adds the counts of another chunk's or log's tally, whose sessions are others; `folding`
        /// the dwell tables into one (``QuantileCounter/merge(_:folding:)``).
        mutating func add(_ other: Tally, folding: Bool) {
            views += other.views
            sessions += other.sessions
            lastSession = -1
            dwell.merge(other.dwell, folding: folding)
        }
    }

    /// Screens are numbered, and their tallies kept by number: found without hashing the name.
    private var screens = NameIDs()
    private var tallies: [Tally] = []
    /// The session of the last view, and its number: a log's sessions do not interleave.
    private var session: String?
    private var sessionNumber = 0

    /// Creates a query that has counted nothing.
    public init() {}

    /// Counts `view`.
    public mutating func add(_ view: AnalyticsView) {
        var view = view.screenView
        add(lent: &view)
    }

    /// Session, screen, dwell and whether it crashed only.
    static var readsDetails: Bool { false }

    mutating func add(lent view: inout ScreenView) {
        if view.session != session {
            session = view.session
            sessionNumber += 1
        }
        let id = Int(screens.id(view.screen.route.screen))
        if id == tallies.count { tallies.append(Tally()) }
        tallies[id].add(view, session: sessionNumber)   // changed in place
    }

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming ScreensQuery) {
        merge(later, folding: false)
    }

    /// Adds the counts of the next log's copy, folding the dwell tables into one: every log counts
    /// much the same dwell times, and a table kept per log would repeat them
    /// (`Tools/bench/run --only many`, peak RSS).
    public mutating func merge(nextLog later: consuming ScreensQuery) {
        merge(later, folding: true)
    }

    private mutating func merge(_ later: consuming ScreensQuery, folding: Bool) {
        session = nil
        for (k, id) in screens.ids(of: later.screens).enumerated() {
            if Int(id) == tallies.count { tallies.append(Tally()) }
            tallies[Int(id)].add(later.tallies[k], folding: folding)
        }
    }

    /// The rows, sorted by views, descending, then by screen.
    public consuming func finalize() -> [Row] {
        tallies.indices.map { k in
            let tally = tallies[k]
            let dwell = tally.dwell.quantiles(percent: [50, 90])
            return Row(screen: screens.names[k], views: tally.views, sessions: tally.sessions, dwellMedian: dwell[0], dwellP90: dwell[1],
                       dwellTotal: tally.dwell.total)
        }.sorted { ($0.views, $1.screen) > ($1.views, $0.screen) }
    }
}
