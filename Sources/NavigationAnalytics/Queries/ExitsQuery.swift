import NavigationHistory

/// Where sessions end: per screen, the sessions whose last view (the one that began last; of views
/// that began with the same event, the one of the last scene by name) it was, split by how the
/// session ended (``SessionEnd``): clean, in the background, uncleanly (in the foreground: a crash
/// or a kill), or not yet (open). With `crashPaths` K, also the most common last-K-screen
/// sequences before an unclean end. Rows are sorted by exits, descending, then by screen.
///
/// How a session ended comes from ``endSession(_:ending:)``, as ``ViewStream`` tells it; a session
/// fed by hand without it counts as unclean when its last view crashed, else clean.
public struct ExitsQuery: ViewQuery, ScreenViewQuery {
    /// One screen's row.
    public struct Row: Sendable, Hashable {
        /// The screen of the sessions' last views.
        public var screen: String
        /// The sessions whose last view it was: all of them, and those of each ending.
        public var exits: Int, clean: Int, background: Int, unclean: Int, open: Int
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
    /// releasing any name. The exits of each screen are kept by its number, one count per ending
    /// in the order of ``SessionEnd/allCases``.
    private var screens = NameIDs(), scenes = NameIDs()
    private var tallies: [[Int]] = []
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
        var view = view.screenView
        add(lent: &view)
    }

    /// Session, scene, screen, seq and whether it crashed only.
    static var readsDetails: Bool { false }

    mutating func add(lent view: inout ScreenView) {
        if view.session != session {
            endSession(nil)
            session = view.session
        }
        views.append(View(seq: view.startSeq, scene: scenes.id(view.scene), screen: screens.id(view.screen.route.screen), crashed: view.crashed))
    }

    /// Counts the exit of `session`, whose views came last, as `ending` says.
    public mutating func endSession(_ session: String, ending: SessionEnd) {
        guard session == self.session else { return }   // none of its views passed the filter
        endSession(ending)
        self.session = nil
    }

    /// Counts the exit of the session whose views came last, if any: as `ending` says, or when
    /// it is not known, unclean when its last view crashed, else clean.
    private mutating func endSession(_ ending: SessionEnd?) {
        defer { views.removeAll(keepingCapacity: true) }
        guard !views.isEmpty else { return }
        scenes.sortInBeginOrder(&views)
        let last = views[views.count - 1]
        let ending = ending ?? (last.crashed ? .unclean : .clean)
        count(Int(last.screen), ending, times: 1)
        if ending == .unclean, crashPaths > 0 {
            crashTallies[views.suffix(crashPaths).map { screens.names[Int($0.screen)] }, default: 0] += 1
        }
    }

    /// The crash path one session of `views` makes when it ends uncleanly, as its counting finds
    /// it: its last screens, and the seq of each one's view. What the report links a crash path
    /// to a replay by.
    func crashPath(of views: [BegunScreen]) -> (screens: [String], seqs: [Int]) {
        var exits = ExitsQuery(crashPaths: crashPaths)
        for view in views { exits.views.append(View(seq: view.seq, scene: exits.scenes.id(view.scene), screen: exits.screens.id(view.screen), crashed: false)) }
        exits.scenes.sortInBeginOrder(&exits.views)
        let last = exits.views.suffix(crashPaths)
        return (last.map { exits.screens.names[Int($0.screen)] }, last.map(\.seq))
    }

    /// Adds `times` exits from screen number `screen` of sessions that ended as `ending` says.
    private mutating func count(_ screen: Int, _ ending: SessionEnd, times: Int) {
        while tallies.count <= screen { tallies.append([0, 0, 0, 0]) }
        tallies[screen][Self.place(ending)] += times
    }

    private static func place(_ ending: SessionEnd) -> Int {
        switch ending {
        case .clean: 0
        case .background: 1
        case .unclean: 2
        case .open: 3
        }
    }

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming ExitsQuery) {
        endSession(nil)
        later.endSession(nil)
        session = nil
        let ids = screens.ids(of: later.screens)
        for (k, tally) in later.tallies.enumerated() {
            for ending in SessionEnd.allCases where tally[Self.place(ending)] > 0 {
                count(Int(ids[k]), ending, times: tally[Self.place(ending)])
            }
        }
        crashTallies.merge(later.crashTallies, uniquingKeysWith: +)
    }

    /// The exits per screen, and the crash paths.
    public consuming func finalize() -> Result {
        endSession(nil)
        let rows = tallies.indices.filter { tallies[$0].reduce(0, +) > 0 }.map { k in
            Row(screen: screens.names[k], exits: tallies[k].reduce(0, +), clean: tallies[k][0], background: tallies[k][1],
                unclean: tallies[k][2], open: tallies[k][3])
        }.sorted { ($0.exits, $1.screen) > ($1.exits, $0.screen) }
        let crashPaths = crashTallies.map { CrashPath(screens: $0.key, sessions: $0.value) }
            .sorted { $0.sessions != $1.sessions ? $0.sessions > $1.sessions : $0.screens.lexicographicallyPrecedes($1.screens) }
        return Result(rows: rows, crashPaths: crashPaths)
    }
}
