import NavigationHistory

/// U-turns: a view entered by `push` whose path's next view is entered by `pop`, shows the screen
/// the push left (the path's view before it) and came within `within`. Per screen: its pushes (views
/// entered by push), its bounces and the bounce rate in basis points. Rows are sorted by bounces,
/// descending, then by pushes, descending, then by screen.
public struct BouncesQuery: ViewQuery {
    public struct Row: Sendable, Hashable {
        public var screen: String
        public var pushes: Int, bounces: Int
        /// Bounces per 10,000 pushes, rounded.
        public var rateBasisPoints: Int
    }

    public let within: Duration
    private var tallies: [String: (pushes: Int, bounces: Int)] = [:]
    /// What a bounce needs of a view.
    private struct Step {
        var screen: String
        var byPush: Bool
        var dwell: Int64
    }
    /// The last two views of each open path of the current session, one per scene: a session has
    /// a few scenes, found by comparing ids.
    private var recent: [(scene: String, steps: [Step])] = []
    private var session: String?

    public init(within: Duration = .seconds(5)) { self.within = within }

    public mutating func add(_ view: AnalyticsView) {
        if view.session != session {
            recent.removeAll(keepingCapacity: true)
            session = view.session
        }
        let step = Step(screen: view.screen, byPush: view.enteredBy == "push", dwell: view.dwellMilliseconds)
        if step.byPush { tallies[view.screen, default: (0, 0)].pushes += 1 }
        let scene = view.scene
        let index = recent.firstIndex { $0.scene == scene } ?? {
            recent.append((scene, []))
            return recent.count - 1
        }()
        let bounced = Self.add(step, poppedBack: view.enteredBy == "pop", within: within.milliseconds, to: &recent[index].steps)
        if let bounced { tallies[bounced, default: (0, 0)].bounces += 1 }
    }

    /// Adds `step` to a path's last two steps, in place; returns the screen that bounced, if the
    /// step pops back over a push that came within `within` ms.
    private static func add(_ step: Step, poppedBack: Bool, within: Int64, to last: inout [Step]) -> String? {
        var bounced: String?
        if last.count == 2, last[1].byPush, poppedBack, step.screen == last[0].screen, last[1].dwell <= within {
            bounced = last[1].screen
        }
        last.append(step)
        if last.count > 2 { last.removeFirst() }
        return bounced
    }

    public mutating func merge(_ later: BouncesQuery) {
        session = nil
        recent.removeAll()
        tallies.merge(later.tallies) { ($0.pushes + $1.pushes, $0.bounces + $1.bounces) }
    }

    public var rows: [Row] {
        tallies.map { screen, tally in
            Row(screen: screen, pushes: tally.pushes, bounces: tally.bounces,
                rateBasisPoints: tally.pushes == 0 ? 0 : (tally.bounces * 10_000 + tally.pushes / 2) / tally.pushes)
        }.sorted { ($0.bounces, $0.pushes, $1.screen) > ($1.bounces, $1.pushes, $0.screen) }
    }
}
