import NavigationHistory

/// Where sessions end: per screen, the sessions whose last view (the one that began last; of views
/// that began with the same event, the one of the last scene by name) it was,
/// split into clean ends and unclean ones (that view crashed: a crash or a kill). With
/// `crashPaths` K, also the most common last-K-screen sequences before an unclean end.
/// Rows are sorted by exits, descending, then by screen.
public struct ExitsQuery: ViewQuery, ScreenViewQuery {
    /// One screen's row.
    public struct Row: Sendable, Hashable {
        /// The screen of the sessions' last views.
        public var screen: String
        /// The sessions whose last view it was: all of them, those whose view did not crash,
        /// and those whose view did.
        public var exits: Int, clean: Int, unclean: Int
    }

    /// One sequence of last screens before unclean ends.
    public struct CrashPath: Sendable, Hashable {
        /// The session's last screens, the last one last (fewer when the session had fewer views).
        public var screens: [String]
        /// The sessions that ended uncleanly after them.
        public var sessions: Int
    }

    /// What the query answers.
    public struct Result: Sendable, Hashable {
        /// The rows, sorted by exits, descending, then by screen.
        public var rows: [Row]
        /// The last-``ExitsQuery/crashPaths``-screen sequences before unclean ends, sorted by
        /// sessions, descending, then by sequence; empty when ``ExitsQuery/crashPaths`` is 0.
        public var crashPaths: [CrashPath]
    }

    /// How many last screens make a crash path; 0 for none.
    public let crashPaths: Int
    /// Screens and scenes are kept as numbers: a session's views are forgotten at its end without
    /// releasing any name. The exits of each screen are kept by its number.
    private var screens = NameIDs(), scenes = NameIDs()
    private var tallies: [(clean: Int, unclean: Int)] = []
    private var crashTallies: [[String]: Int] = [:]
    private var session: String?
    private struct View: BegunView {
        var seq: Int
        var scene: Int32, screen: Int32
        var crashed: Bool
    }
    private var views: [View] = []

    /// Creates a query that also counts the last-`crashPaths`-screen sequences before unclean ends.
    public init(crashPaths: Int = 0) { self.crashPaths = max(0, crashPaths) }

    /// Adds a view; a session's views must come together, in any order.
    public mutating func add(_ view: AnalyticsView) {
        add(view.screenView)
    }

    /// Session, scene, screen, seq and whether it crashed only.
    static var readsDetails: Bool { false }

    mutating func add(_ view: borrowing ScreenView) {
        if view.session != session {
            endSession()
            session = view.session
        }
        views.append(View(seq: view.startSeq, scene: scenes.id(view.scene), screen: screens.id(view.screen.route.screen), crashed: view.crashed))
    }

    private mutating func endSession() {
        defer { views.removeAll(keepingCapacity: true) }
        guard !views.isEmpty else { return }
        scenes.sortInBeginOrder(&views)
        let last = views[views.count - 1]
        count(Int(last.screen), crashed: last.crashed, times: 1)
        if last.crashed, crashPaths > 0 {
            crashTallies[views.suffix(crashPaths).map { screens.names[Int($0.screen)] }, default: 0] += 1
        }
    }

    /// Adds `times` exits from screen number `screen`.
    private mutating func count(_ screen: Int, crashed: Bool, times: Int) {
        while tallies.count <= screen { tallies.append((0, 0)) }
        if crashed { tallies[screen].unclean += times } else { tallies[screen].clean += times }
    }

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming ExitsQuery) {
        endSession()
        later.endSession()
        session = nil
        let ids = screens.ids(of: later.screens)
        for (k, tally) in later.tallies.enumerated() where tally.clean + tally.unclean > 0 {
            count(Int(ids[k]), crashed: false, times: tally.clean)
            count(Int(ids[k]), crashed: true, times: tally.unclean)
        }
        crashTallies.merge(later.crashTallies, uniquingKeysWith: +)
    }

    /// The exits per screen, and the crash paths.
    public consuming func finalize() -> Result {
        endSession()
        let rows = tallies.indices.filter { tallies[$0].clean + tallies[$0].unclean > 0 }.map { k in
            Row(screen: screens.names[k], exits: tallies[k].clean + tallies[k].unclean, clean: tallies[k].clean, unclean: tallies[k].unclean)
        }.sorted { ($0.exits, $1.screen) > ($1.exits, $0.screen) }
        let crashPaths = crashTallies.map { CrashPath(screens: $0.key, sessions: $0.value) }
            .sorted { $0.sessions != $1.sessions ? $0.sessions > $1.sessions : $0.screens.lexicographicallyPrecedes($1.screens) }
        return Result(rows: rows, crashPaths: crashPaths)
    }
}
