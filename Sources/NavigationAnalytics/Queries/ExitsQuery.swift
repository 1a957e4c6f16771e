/// Where sessions end: per screen, the sessions whose last view (the one that began last; of views
/// that began with the same event, the one of the last scene by name) it was,
/// split into clean ends and unclean ones (that view crashed: a crash or a kill). With
/// `crashPaths` K, also the most common last-K-screen sequences before an unclean end.
/// Rows are sorted by exits, descending, then by screen.
public struct ExitsQuery: ViewQuery {
    public struct Row: Sendable, Hashable {
        public var screen: String
        public var exits: Int, clean: Int, unclean: Int
    }

    public struct CrashPath: Sendable, Hashable {
        public var screens: [String]
        public var sessions: Int
    }

    public let crashPaths: Int
    private var tallies: [String: (clean: Int, unclean: Int)] = [:]
    private var crashTallies: [[String]: Int] = [:]
    private var session: String?
    private var views: [(seq: Int, scene: String, screen: String, crashed: Bool)] = []

    public init(crashPaths: Int = 0) { self.crashPaths = max(0, crashPaths) }

    public mutating func add(_ view: AnalyticsView) {
        if view.session != session {
            endSession()
            session = view.session
        }
        views.append((view.startSeq, view.scene, view.screen, view.crashed))
    }

    /// Ends the last session; call once after the last view.
    public mutating func finish() { endSession() }

    private mutating func endSession() {
        defer { views.removeAll(keepingCapacity: true) }
        guard !views.isEmpty else { return }
        // Views that began with the same event (several scenes resuming after an idle gap) are
        // ordered by scene.
        views.sort { ($0.seq, $0.scene) < ($1.seq, $1.scene) }
        let last = views[views.count - 1]
        var tally = tallies[last.screen] ?? (0, 0)
        if last.crashed { tally.unclean += 1 } else { tally.clean += 1 }
        tallies[last.screen] = tally
        if last.crashed, crashPaths > 0 {
            crashTallies[views.suffix(crashPaths).map(\.screen), default: 0] += 1
        }
    }

    public mutating func merge(_ later: ExitsQuery) {
        session = nil
        tallies.merge(later.tallies) { ($0.clean + $1.clean, $0.unclean + $1.unclean) }
        crashTallies.merge(later.crashTallies, uniquingKeysWith: +)
    }

    public var rows: [Row] {
        tallies.map { Row(screen: $0.key, exits: $0.value.clean + $0.value.unclean, clean: $0.value.clean, unclean: $0.value.unclean) }
            .sorted { ($0.exits, $1.screen) > ($1.exits, $0.screen) }
    }

    /// The last-K-screen sequences before unclean ends, by sessions, descending, then sequence.
    public var crashPathRows: [CrashPath] {
        crashTallies.map { CrashPath(screens: $0.key, sessions: $0.value) }
            .sorted { $0.sessions != $1.sessions ? $0.sessions > $1.sessions : $0.screens.lexicographicallyPrecedes($1.screens) }
    }
}
