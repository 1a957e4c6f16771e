/// Per screen: views, sessions with at least one view, and dwell median, p90 and total.
///
/// Crashed views count as views but are left out of dwell (they ended when the app died, not when
/// the user moved on). Rows are sorted by views, descending, then by screen.
public struct ScreensQuery: ViewQuery {
    /// One screen's row.
    public struct Row: Sendable, Hashable {
        public var screen: String
        public var views: Int
        public var sessions: Int
        /// Dwell over the views that did not crash, in milliseconds (nil when every view crashed).
        public var dwellMedian: Int64?, dwellP90: Int64?
        public var dwellTotal: Int64
    }

    private struct Tally {
        var views = 0
        var sessions = 0
        var lastSession: String?
        var dwell = QuantileCounter()

        mutating func add(_ view: AnalyticsView) {
            views += 1
            if lastSession != view.session {   // a log's sessions do not interleave
                lastSession = view.session
                sessions += 1
            }
            if !view.crashed { dwell.add(view.dwellMilliseconds) }
        }

        /// Adds the counts of another chunk's tally, whose sessions are others.
        mutating func add(_ other: Tally) {
            views += other.views
            sessions += other.sessions
            lastSession = nil
            dwell.merge(other.dwell)
        }
    }

    private var tallies: [String: Tally] = [:]

    public init() {}

    public mutating func add(_ view: AnalyticsView) {
        tallies[view.screen, default: Tally()].add(view)   // one lookup, the tally changed in place
    }

    public mutating func merge(_ later: ScreensQuery) {
        tallies.merge(later.tallies) { mine, theirs in
            var tally = mine
            tally.add(theirs)
            return tally
        }
    }

    public var rows: [Row] {
        tallies.map { screen, tally in
            let dwell = tally.dwell.quantiles(percent: [50, 90])
            return Row(screen: screen, views: tally.views, sessions: tally.sessions, dwellMedian: dwell[0], dwellP90: dwell[1],
                       dwellTotal: tally.dwell.total)
        }.sorted { ($0.views, $1.screen) > ($1.views, $0.screen) }
    }
}
