import NavigationHistory

/// Transitions keyed by position, for a flow (Sankey) diagram: over the first `steps` views of every
/// path, the count of each transition from position p to p + 1, where each node is `p_screen` and a
/// screen outside the `top` most common at its position is `p_other`. Rows are sorted by step, then
/// count, descending, then from and to.
public struct FlowQuery: ViewQuery, ScreenViewQuery {
    /// One transition's row.
    public struct Row: Sendable, Hashable {
        /// The position of the transition's `from` view.
        public var step: Int
        /// The nodes: `p_screen`, or `p_other` for a screen outside the top at position p.
        public var from: String, to: String
        /// The paths that go from the one to the other.
        public var count: Int
    }

    /// The views of each path counted (at least 2).
    public let steps: Int
    /// The screens kept at each position (at least 1); the others are `other`.
    public let top: Int
    // Screens are numbered: a path is a short array of Int32, and the rows are counted in arrays.
    private var screens = NameIDs()
    /// The first `steps` screens of every path that ended (memory grows with paths, not events).
    private var done: [[Int32]] = []
    /// The paths of the current session, one per scene of ``openScenes``: views come session by
    /// session (a log's sessions do not interleave), so a session's paths are done when the next
    /// begins.
    private var open: [[Int32]] = []
    private var openScenes = SceneIndex()
    private var session: String?

    /// Creates a flow over the first `steps` views of every path, `top` screens a position.
    public init(steps: Int, top: Int = 5) {
        self.steps = max(2, steps)
        self.top = max(1, top)
    }

    /// Adds `view` to its path.
    public mutating func add(_ view: AnalyticsView) {
        var view = view.screenView
        add(lent: &view)
    }

    /// Session, scene and screen only.
    static var readsDetails: Bool { false }

    mutating func add(lent view: inout ScreenView) {
        if view.session != session {
            endSession()
            session = view.session
        }
        let screen = screens.id(view.screen.route.screen)
        let (k, inserted) = openScenes.index(inserting: view.scene)
        guard !inserted else { return open.append([screen]) }
        if open[k].count < steps { open[k].append(screen) }
    }

    private mutating func endSession() {
        done += open
        open.removeAll(keepingCapacity: true)
        openScenes.removeAll(keepingCapacity: true)
    }

    /// Adds the paths of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming FlowQuery) {
        endSession()
        later.endSession()
        session = nil
        // Paths are of sessions: the queries merged share none.
        let ids = screens.ids(of: later.screens)
        for path in later.done { done.append(path.map { ids[Int($0)] }) }
    }

    /// The rows, sorted by step, then by count, descending, then by from and to.
    public consuming func finalize() -> [Row] {
        endSession()
        let names = screens.names
        // The top screens at each position, by the paths that have them there, then by name.
        var atPosition = Array(repeating: Array(repeating: 0, count: names.count), count: steps)
        for path in done { for (p, screen) in path.enumerated() { atPosition[p][Int(screen)] += 1 } }
        // Each position's nodes: the kept screens, then `other` (a kept screen named "other" is
        // that node too), as indexes into `nodes[p]`.
        var nodes: [[String]] = [], nodeOf: [[Int]] = []
        for counts in atPosition {
            let kept = counts.indices.filter { counts[$0] > 0 }
                .sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : names[$0] < names[$1] }.prefix(top)
            let position = kept.map { names[$0] }.filter { $0 != "other" } + ["other"]
            var of = Array(repeating: position.count - 1, count: names.count)
            for screen in kept where names[screen] != "other" { of[screen] = position.firstIndex(of: names[screen])! }
            nodes.append(position)
            nodeOf.append(of)
        }
        let width = top + 1
        var counts = Array(repeating: 0, count: steps * width * width)
        for path in done where path.count > 1 {
            for p in 0..<(path.count - 1) {
                counts[(p * width + nodeOf[p][Int(path[p])]) * width + nodeOf[p + 1][Int(path[p + 1])]] += 1
            }
        }
        var rows: [Row] = []
        for p in 0..<(steps - 1) {
            for from in nodes[p].indices {
                for to in nodes[p + 1].indices where counts[(p * width + from) * width + to] > 0 {
                    rows.append(Row(step: p + 1, from: "\(p + 1)_\(nodes[p][from])", to: "\(p + 2)_\(nodes[p + 1][to])",
                                    count: counts[(p * width + from) * width + to]))
                }
            }
        }
        return rows.sorted { ($0.step, -$0.count, $0.from, $0.to) < ($1.step, -$1.count, $1.from, $1.to) }
    }
}
