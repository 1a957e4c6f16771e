import NavigationHistory

/// U-turns: a view entered by `push` whose path's next view is entered by `pop`, shows the screen
/// the push left (the path's view before it) and came within `within`. Per screen: its pushes (views
/// entered by push), its bounces and the bounce rate in basis points. Rows are sorted by bounces,
/// descending, then by pushes, descending, then by screen.
public struct BouncesQuery: ViewQuery, ScreenViewQuery {
    /// One screen's row.
    public struct Row: Sendable, Hashable {
        /// The screen pushed.
        public var screen: String
        /// Its views entered by push, and those of them that bounced.
        public var pushes: Int, bounces: Int
        /// Bounces per 10,000 pushes, rounded.
        public var rateBasisPoints: Int
    }

    /// How long a pushed view may last and still bounce.
    public let within: Duration
    private let withinMilliseconds: Int64
    /// Screens are numbered, and their pushes and bounces kept by number.
    private var screens = NameIDs()
    private var tallies: [(pushes: Int, bounces: Int)] = []
    /// What a bounce needs of a view.
    private struct Step {
        var screen: Int32
        var byPush: Bool
        var dwell: Int64
    }
    /// The last two views of each open path of the current session, one per scene of
    /// ``recentScenes``.
    private var recent: [(older: Step?, newer: Step?)] = []
    private var recentScenes = SceneIndex()
    private var session: String?

    /// Creates a query of the views popped within `within` of their push.
    public init(within: Duration = .seconds(5)) {
        self.within = within
        withinMilliseconds = within.milliseconds
    }

    /// Adds `view` to its path, counting its push and the bounce it ends.
    public mutating func add(_ view: AnalyticsView) {
        var view = view.screenView
        add(lent: &view)
    }

    /// How a view was entered is a detail.
    static var readsDetails: Bool { true }

    mutating func add(lent view: inout ScreenView) {
        if view.session != session {
            recent.removeAll(keepingCapacity: true)
            recentScenes.removeAll(keepingCapacity: true)
            session = view.session
        }
        let screen = screens.id(view.screen.route.screen)
        if Int(screen) == tallies.count { tallies.append((0, 0)) }
        let step = Step(screen: screen, byPush: view.enteredBy == "push", dwell: view.dwellMilliseconds)
        if step.byPush { tallies[Int(screen)].pushes += 1 }
        let (k, inserted) = recentScenes.index(inserting: view.scene)
        if inserted { recent.append((nil, nil)) }
        // A pop back to the screen the push before left, which came within `within`.
        if let older = recent[k].older, let newer = recent[k].newer, newer.byPush, view.enteredBy == "pop",
           step.screen == older.screen, newer.dwell <= withinMilliseconds {
            tallies[Int(newer.screen)].bounces += 1
        }
        recent[k].older = recent[k].newer
        recent[k].newer = step
    }

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming BouncesQuery) {
        session = nil
        recent.removeAll()
        recentScenes.removeAll()
        for (k, id) in screens.ids(of: later.screens).enumerated() {
            if Int(id) == tallies.count { tallies.append((0, 0)) }
            tallies[Int(id)].pushes += later.tallies[k].pushes
            tallies[Int(id)].bounces += later.tallies[k].bounces
        }
    }

    /// The rows of the screens pushed, sorted by bounces, descending, then by pushes,
    /// descending, then by screen.
    public consuming func finalize() -> [Row] {
        // The screens pushed: a screen bounces only after a push.
        tallies.indices.filter { tallies[$0].pushes > 0 || tallies[$0].bounces > 0 }.map { k in
            let (screen, tally) = (screens.names[k], tallies[k])
            return Row(screen: screen, pushes: tally.pushes, bounces: tally.bounces,
                       rateBasisPoints: tally.pushes == 0 ? 0 : (tally.bounces * 10_000 + tally.pushes / 2) / tally.pushes)
        }.sorted { ($0.bounces, $0.pushes, $1.screen) > ($1.bounces, $1.pushes, $0.screen) }
    }
}
