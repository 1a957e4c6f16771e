import NavigationHistory

/// U-turns: a view entered by `push` whose path's next view is entered by `pop`, shows the screen
/// the push left (the path's view before it) and came within `within`. Per screen: its pushes (views
/// entered by push), its bounces and the bounce rate in basis points. Rows are sorted by bounces,
/// descending, then by pushes, descending, then by screen.
public struct BouncesQuery: Sendable {
    public struct Row: Sendable, Hashable {
        public var screen: String
        public var pushes: Int, bounces: Int
        /// Bounces per 10,000 pushes, rounded.
        public var rateBasisPoints: Int
    }

    public let within: Duration
    private var tallies: [String: (pushes: Int, bounces: Int)] = [:]
    private struct Key: Hashable { var session: String, scene: String }
    /// The last two views of each open path.
    private var recent: [Key: [AnalyticsView]] = [:]
    private var session: String?

    public init(within: Duration = .seconds(5)) { self.within = within }

    public mutating func add(_ view: AnalyticsView) {
        if view.session != session {
            recent.removeAll(keepingCapacity: true)
            session = view.session
        }
        if view.enteredBy == "push" { tallies[view.screen, default: (0, 0)].pushes += 1 }
        let key = Key(session: view.session, scene: view.scene)
        var last = recent[key] ?? []
        if last.count == 2, last[1].enteredBy == "push", view.enteredBy == "pop", view.screen == last[0].screen,
           last[1].dwellMilliseconds <= within.milliseconds {
            tallies[last[1].screen, default: (0, 0)].bounces += 1
        }
        last.append(view)
        if last.count > 2 { last.removeFirst() }
        recent[key] = last
    }

    public var rows: [Row] {
        tallies.map { screen, tally in
            Row(screen: screen, pushes: tally.pushes, bounces: tally.bounces,
                rateBasisPoints: tally.pushes == 0 ? 0 : (tally.bounces * 10_000 + tally.pushes / 2) / tally.pushes)
        }.sorted { ($0.bounces, $0.pushes, $1.screen) > ($1.bounces, $1.pushes, $0.screen) }
    }
}
