import NavigationHistory

/// A funnel over screen views: how many sessions reach each step, in what time.
///
/// Steps are screen names. A session reaches step i when views matching steps 1…i occur within
/// ``window`` of the step-1 view that starts the attempt:
/// - ``Mode/ordered`` (the default): in order, other views may come between;
/// - ``Mode/strict``: in order and consecutive (the very next view of the session);
/// - ``Mode/any``: after the step-1 view, in any order; step i is reached when the last of
///   steps 2…i has been seen.
/// With ``Entry/first`` only a session's first step-1 view starts an attempt (Mixpanel's rule);
/// with ``Entry/any`` every step-1 view may, and the attempt that gets furthest counts (the
/// earliest of those; PostHog's rule). A session's views are taken in seq order, all scenes together.
///
/// ```swift
/// let funnel = FunnelQuery(steps: ["home", "recipe", "reviews"], mode: .strict, window: .seconds(600))
/// let (rows, _) = try ViewStream.run(funnel, over: "app.navlog")
/// for row in rows { print(row.step, row.screen, row.sessions, row.conversionFromFirst ?? 0) }
/// ```
public struct FunnelQuery: ViewQuery, ScreenViewQuery {
    /// How a session's views must follow the step-1 view to reach the next steps.
    public enum Mode: String, Sendable, CaseIterable {
        /// In order; other views may come between.
        case ordered
        /// In order and consecutive.
        case strict
        /// In any order after the step-1 view.
        case any
    }

    /// Which step-1 views start an attempt.
    public enum Entry: String, Sendable, CaseIterable {
        /// Only a session's first (Mixpanel's rule).
        case first
        /// Every one; the attempt that gets furthest counts (PostHog's rule).
        case any
    }

    /// One step's row.
    public struct Row: Sendable, Hashable {
        /// The step's position, from 1.
        public var step: Int
        /// The step's screen.
        public var screen: String
        /// Sessions that reached this step.
        public var sessions: Int
        /// Sessions lost since the previous step (0 for step 1).
        public var dropOff: Int
        /// Reached ÷ reached at the previous step, and ÷ reached at step 1, in basis points rounded
        /// half up (nil when the divisor is 0).
        public var conversionFromPrevious: Int?, conversionFromFirst: Int?
        /// Time from the step-1 view to this step, over the sessions that reached it (ms).
        public var medianMilliseconds: Int64?, p90Milliseconds: Int64?
    }

    /// The steps' screens, in order.
    public let steps: [String]
    /// How the views must follow one another.
    public let mode: Mode
    /// Which step-1 views start an attempt.
    public let entry: Entry
    /// How long after the step-1 view a step may be reached.
    public let window: Duration

    private var reached: [Int]
    private var times: [QuantileCounter]
    private var session: String?
    /// Screens and scenes are kept as numbers: compared without comparing their names, and
    /// forgotten at a session's end without releasing any. The steps' screens are numbered first.
    private var screens = NameIDs(), scenes = NameIDs()
    private let stepIDs: [Int32]

    /// Creates a funnel over `steps` (at least one), reached within `window` of the step-1 view.
    public init(steps: [String], mode: Mode = .ordered, entry: Entry = .first, window: Duration = .seconds(86_400)) {
        precondition(!steps.isEmpty, "a funnel needs at least one step")
        self.steps = steps
        self.mode = mode
        self.entry = entry
        self.window = window
        reached = Array(repeating: 0, count: steps.count)
        times = Array(repeating: QuantileCounter(), count: steps.count)
        var screens = NameIDs()
        stepIDs = steps.map { screens.id($0) }
        self.screens = screens
    }

    /// Adds a view; a session's views must come together (a log's sessions do not interleave), in
    /// any order — they are sorted by seq when the session ends.
    public mutating func add(_ view: AnalyticsView) {
        var view = view.screenView
        add(lent: &view)
    }

    /// Session, scene, screen, seq and start only.
    static var readsDetails: Bool { false }

    mutating func add(lent view: inout ScreenView) {
        // The view's members read where they lie: passed on as arguments, each was copied.
        if view.session != session {
            endSession()
            session = view.session
        }
        pending.append(Pending(seq: view.startSeq, scene: scenes.id(view.scene), screen: screens.id(view.screen.route.screen),
                               start: view.start.millisecondsSince1970))
    }

    private struct Pending: BegunView {
        var seq: Int
        var scene: Int32, screen: Int32
        var start: Int64
    }
    private var pending: [Pending] = []

    /// Adds the counts of `later`, which counted other sessions.
    public mutating func merge(_ later: consuming FunnelQuery) {
        merge(later, folding: false)
    }

    /// Adds the counts of the next log's copy, folding the tables of step times into one, as
    /// ``ScreensQuery/merge(nextLog:)`` does its dwell times.
    public mutating func merge(nextLog later: consuming FunnelQuery) {
        merge(later, folding: true)
    }

    private mutating func merge(_ later: consuming FunnelQuery, folding: Bool) {
        endSession()
        later.endSession()
        session = nil
        for k in steps.indices {
            reached[k] += later.reached[k]
            times[k].merge(later.times[k], folding: folding)
        }
    }

    private mutating func endSession() {
        defer { pending.removeAll(keepingCapacity: true) }
        guard !pending.isEmpty else { return }
        scenes.sortInBeginOrder(&pending)
        for (k, step) in bestAttempt().enumerated() {
            reached[k] += 1
            times[k].add(step.time)
        }
    }

    /// The seqs of the views by which one session of `views` reaches each step, as its counting
    /// finds them (as many as it reaches): what the report links a funnel's steps to a replay by.
    func reachedSeqs(_ views: [BegunScreen]) -> [Int] {
        var funnel = FunnelQuery(steps: steps, mode: mode, entry: entry, window: window)
        for view in views {
            funnel.pending.append(Pending(seq: view.seq, scene: funnel.scenes.id(view.scene), screen: funnel.screens.id(view.screen), start: view.start))
        }
        funnel.scenes.sortInBeginOrder(&funnel.pending)
        return funnel.bestAttempt().map { funnel.pending[$0.view].seq }
    }

    /// The steps the best attempt of the session in ``pending`` (in the order its views began)
    /// reaches: each one's view there, and its time from step 1.
    private func bestAttempt() -> [(view: Int, time: Int64)] {
        var best: [(view: Int, time: Int64)] = []
        for start in pending.indices where pending[start].screen == stepIDs[0] {
            let attempt = self.attempt(from: start)
            if attempt.count > best.count { best = attempt }
            if entry == .first || best.count == steps.count { break }
        }
        return best
    }

    /// The steps an attempt starting at view `start` reaches: each one's view, and its time from
    /// step 1 (in `any` mode, the latest view so far of the steps reached).
    private func attempt(from start: Int) -> [(view: Int, time: Int64)] {
        let views = pending
        let t0 = views[start].start
        let limit = t0 + window.milliseconds
        var result: [(view: Int, time: Int64)] = [(start, 0)]
        switch mode {
        case .ordered, .strict:
            var position = start
            for step in stepIDs.dropFirst() {
                var next = position + 1
                if mode == .ordered {
                    while next < views.count, views[next].screen != step, views[next].start <= limit { next += 1 }
                }
                guard next < views.count, views[next].screen == step, views[next].start <= limit else { break }
                result.append((next, views[next].start - t0))
                position = next
            }
        case .any:
            var latest: Int64 = 0
            for step in stepIDs.dropFirst() {
                guard let seen = views.indices.dropFirst(start + 1).first(where: { views[$0].screen == step && views[$0].start <= limit }) else { break }
                latest = max(latest, views[seen].start - t0)
                result.append((seen, latest))
            }
        }
        return result
    }

    /// One row per step, in order.
    public consuming func finalize() -> [Row] {
        endSession()
        func basisPoints(_ part: Int, _ whole: Int) -> Int? { whole > 0 ? (part * 10_000 + whole / 2) / whole : nil }
        let quantiles = times.map { $0.quantiles(percent: [50, 90]) }
        return steps.indices.map { k in
            Row(step: k + 1, screen: steps[k], sessions: reached[k], dropOff: k == 0 ? 0 : reached[k - 1] - reached[k],
                conversionFromPrevious: k == 0 ? basisPoints(reached[0], reached[0]) : basisPoints(reached[k], reached[k - 1]),
                conversionFromFirst: basisPoints(reached[k], reached[0]),
                medianMilliseconds: quantiles[k][0], p90Milliseconds: quantiles[k][1])
        }
    }
}
