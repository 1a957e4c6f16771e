/// Works out, at launch, where to put the user back: the navigation state at the end of the last
/// session, however it ended (``SessionEnd``), with the routes that no longer exist taken out.
///
/// It reads the log backwards only as far as the nearest `snapshot` (the store writes one every
/// ``EventLog/Options/snapshotInterval`` events), so its cost does not grow with the log. Guards,
/// each configurable, decide not to restore:
/// - **crash loop**: the last ``Options/crashLoopSessions`` sessions each started from a restored
///   state and ended ``SessionEnd/unclean`` with their last recorded event within
///   ``Options/crashLoopWindow`` of their start — the user is not put back into the screen that
///   keeps crashing. A session terminated in the background (``SessionEnd/background``) is no
///   crash and breaks a loop as a clean end does. (The crash itself is not in the log: a session
///   that sat idle after its last event is judged by that event.);
/// - **staleness**: the state is older than ``Options/maximumAge``;
/// - **version**: routes whose screen the app does not know are dropped (``Options/knowsScreen``).
///
/// ```swift
/// let result = try Restorer(options: .init(resolve: { route in store.exists(route) })).restore(from: logPath)
/// if let reason = result.guardFired { print("starting at the root:", reason) }
/// ```
public struct Restorer: Sendable {
    /// What to do with a stack when one of its routes no longer resolves.
    public enum Policy: String, Sendable, Hashable, CaseIterable {
        /// Drop just the missing routes and keep the others (a `compactMap`).
        case dropMissing
        /// Cut the stack at the first missing route: its children go too (the default).
        case truncateAtFirstMissing
    }

    /// How a restore is decided.
    public struct Options: Sendable {
        /// What to do with a stack whose routes do not all resolve.
        public var policy: Policy
        /// Whether a route still exists (the app's data may have changed since).
        public var resolve: @Sendable (Route) -> Bool
        /// Whether the app knows a screen (routes of screens it does not are dropped).
        public var knowsScreen: @Sendable (String) -> Bool
        /// How many sessions in a row must have crashed soon after a restore to call it a loop.
        public var crashLoopSessions: Int
        /// How soon after starting from a restored state a crash counts toward a loop.
        public var crashLoopWindow: Duration
        /// The oldest state that is restored.
        public var maximumAge: Duration
        /// The session to leave out: the one the app is starting now, if it has already recorded.
        public var currentSession: String?

        /// Creates options; by default every route resolves and every screen is known, the policy is
        /// ``Policy/truncateAtFirstMissing``, a loop is 2 crashes within 10 s of a restore, and
        /// states older than 7 days are not restored.
        public init(policy: Policy = .truncateAtFirstMissing, resolve: @escaping @Sendable (Route) -> Bool = { _ in true },
                    knowsScreen: @escaping @Sendable (String) -> Bool = { _ in true }, crashLoopSessions: Int = 2,
                    crashLoopWindow: Duration = .seconds(10), maximumAge: Duration = .seconds(7 * 86_400), currentSession: String? = nil) {
            self.policy = policy
            self.resolve = resolve
            self.knowsScreen = knowsScreen
            self.crashLoopSessions = max(1, crashLoopSessions)
            self.crashLoopWindow = crashLoopWindow
            self.maximumAge = maximumAge
            self.currentSession = currentSession
        }
    }

    /// Why nothing is restored.
    public enum Guard: Sendable, Hashable, CustomStringConvertible {
        /// The log holds no earlier session.
        case nothingToRestore
        /// The last sessions each crashed soon after starting from a restored state.
        case crashLoop(sessions: [String])
        /// The state is older than the maximum age.
        case stale(age: Duration)

        public var description: String {
            switch self {
            case .nothingToRestore: "nothing to restore: the log holds no earlier session"
            case .crashLoop(let sessions):
                "crash loop: the last \(sessions.count) session\(sessions.count == 1 ? "" : "s") (\(sessions.joined(separator: ", "))) each ended uncleanly soon after starting from a restored state; starting at the root"
            case .stale(let age): "stale: the last state is \(Self.age(age)) old; starting at the root"
            }
        }

        /// `age` in the largest whole unit a person reads it in: "30 days", "5 hours", "1 minute",
        /// "12 seconds", rounded down.
        static func age(_ age: Duration) -> String {
            let seconds = max(0, age.components.seconds)
            let (count, unit): (Int64, String) = switch seconds {
            case 86_400...: (seconds / 86_400, "day")
            case 3_600...: (seconds / 3_600, "hour")
            case 60...: (seconds / 60, "minute")
            default: (seconds, "second")
            }
            return "\(count) \(unit)\(count == 1 ? "" : "s")"
        }
    }

    /// What to restore.
    public struct Result: Sendable, Hashable {
        /// The state to start from: empty when a guard fired.
        public var state: NavigationState
        /// The seq of the last event of the session restored from (0 when there is none).
        public var from: Int
        /// The routes taken out because they no longer resolve or their screen is unknown.
        public var dropped: [Route]
        /// The guard that decided not to restore, if one did.
        public var guardFired: Guard?
        /// The session restored from, and how it ended.
        public var session: String?
        /// How that session ended, if there is one: as ``SessionEnding`` says over its events, the
        /// launch reading the log having begun after it (never ``SessionEnd/open``).
        public var sessionEnding: SessionEnd?
        /// The first line of the crash damage at the log's end that the restore left out, as the
        /// store cuts it when it opens the log (a torn last line); nil when the log ends clean.
        public var tornTail: LogDefect?

        /// Creates a result (what ``Restorer/restore(from:now:)`` returns; for previews and tests).
        public init(state: NavigationState, from: Int, dropped: [Route], guardFired: Guard?, session: String? = nil,
                    sessionEnding: SessionEnd? = nil, tornTail: LogDefect? = nil) {
            self.state = state
            self.from = from
            self.dropped = dropped
            self.guardFired = guardFired
            self.session = session
            self.sessionEnding = sessionEnding
            self.tornTail = tornTail
        }

        /// The `restore` event to record in the new session, after its `session.start`; nil when
        /// there is nothing to restore.
        public var action: NavigationAction? {
            guard guardFired == nil else { return nil }
            return .restore(state: state, from: from, dropped: dropped)
        }
    }

    /// How restores are decided.
    public var options: Options

    /// Creates a restorer.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Works out what to restore from the log at `path`, as of `now`.
    ///
    /// A log that does not exist yet (a first launch) has nothing to restore. The log's end is
    /// judged as the store judges it when it opens the log: a torn last line, or crash damage
    /// after the last good line, is left out (``Result/tornTail`` says where); a last segment that does not follow the one before
    /// it, or lines from the nearest snapshot on that break any rule the reader checks, are refused.
    ///
    /// - Throws: ``NavigationHistoryError`` when the log cannot be read or is damaged before its tail.
    /// - Complexity: O(events since the last snapshot), plus the last sessions for the crash-loop
    ///   guard — not the log's length. When the last session left no scene open without a
    ///   `session.end`, and recorded no phase since that snapshot, its events before it are read
    ///   back for a `scene.phase`, which would make it a ``SessionEnd/background`` end.
    public func restore(from path: String, now: Timestamp = .now) throws -> Result {
        let source: LogSource
        do { source = try LogSource(path: path) } catch let error as NavigationHistoryError where LogFiles.isAbsent(error) {
            return Result(state: NavigationState(), from: 0, dropped: [], guardFired: .nothingToRestore)   // a first launch
        }
        // A stale or copied last segment would be restored from: the last link is checked, and
        // every link the reading below crosses (opening the log for writing checks them all).
        if source.segmented { try SegmentChain.check(source.files, from: source.files.count - 1) }
        // The fold starts at the nearest event that sets the whole state, of an earlier session.
        var finding = LogTail(endOf: source.files)
        var start: LogTail.Line?
        while let line = try finding.previous() {
            if line.event.setsWholeState && line.event.session != options.currentSession {
                start = line
                break
            }
        }
        // From there on, every line is judged as the store judges the log's end, and folded; how
        // the session of the last line folded ended is gathered as it is (see `LastSessionEnding`).
        var state = NavigationState()
        var lastLine: (event: NavigationEvent, position: EventPosition)?
        var ending = LastSessionEnding()
        let tornTail = try LogEnd.damage(of: source.files, crcRequired: try crcRule(source),
                                         from: start?.position ?? EventPosition(file: 0, offset: 0, line: 1)) { event, position in
            guard event.session != options.currentSession else { return }
            Projection.fold(&state, event)
            ending.see(event, stateAfter: state, first: lastLine == nil && start != nil)
            lastLine = (event, position)
        }
        guard let (last, position) = lastLine else {
            return Result(state: NavigationState(), from: 0, dropped: [], guardFired: .nothingToRestore, tornTail: tornTail)
        }
        var sessionEnding = ending.plain.end(over: true)
        if let start, ending.partial, sessionEnding != ending.phasedBefore.end(over: true) {
            // The fold began within the last session: whether it recorded a phase before is read back.
            var earlier = LogTail(before: start.position, seq: start.event.seq, in: source.files)
            if try Self.recordedPhase(session: last.session, reading: &earlier) { sessionEnding = ending.phasedBefore.end(over: true) }
        }
        // The crash-loop guard reads the sessions back from the last event, as far as it needs.
        var loop = LoopCheck(options: options)
        loop.consume(last)
        var older = LogTail(before: position, seq: last.seq, in: source.files)
        while !loop.decided, let line = try older.previous() {
            if line.event.session != options.currentSession { loop.consume(line.event) }
        }
        var result = Result(state: NavigationState(), from: last.seq, dropped: [], guardFired: nil, session: last.session,
                            sessionEnding: sessionEnding, tornTail: tornTail)
        let age = Duration.milliseconds(now.millisecondsSince1970 - last.timestamp.millisecondsSince1970)
        if let sessions = loop.firedFor {
            result.guardFired = .crashLoop(sessions: sessions)
        } else if age > options.maximumAge {
            result.guardFired = .stale(age: age)
        } else {
            (result.state, result.dropped) = resolved(state)
        }
        return result
    }

    /// Whether the session `session` recorded a phase, as ``SessionEnding`` tells, in the lines
    /// `reading` gives, going back to its `session.start` or an event of another session.
    private static func recordedPhase(session: String, reading lines: inout LogTail) throws -> Bool {
        while let line = try lines.previous() {
            let event = line.event
            if event.session != session && !event.isSnapshot { return false }
            var probe = SessionEnding()
            switch event.action {
            case .snapshot(let state), .restore(let state, _, _): probe.see(event, stateAfter: state)
            default: probe.see(event, stateAfter: NavigationState())
            }
            if probe.sawPhase { return true }
            if event.isSessionStart { return false }
        }
        return false
    }

    /// Whether the lines of the log must carry a `crc`: always in segments; in a single file, as
    /// its first line says, since a reading from its middle must apply the same rule as one from
    /// its start (nil when the first line does not decode: then the first line read decides).
    private func crcRule(_ source: LogSource) throws -> Bool? {
        if source.segmented { return true }
        let bytes = try FileSystem.read(source.files[0], from: 0, count: LineDecoder.maximumLineLength + 1)
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        return LineDecoder.decoded(bytes[..<newline])?.hasCRC
    }

    /// `state` with the routes that no longer resolve, or whose screen is unknown, taken out as the
    /// policy says; and the routes taken out.
    public func resolved(_ state: NavigationState) -> (NavigationState, [Route]) {
        var dropped: [Route] = []
        func keep(_ route: Route) -> Bool { options.knowsScreen(route.screen) && options.resolve(route) }
        func stack(_ routes: [Route]) -> [Route] {
            switch options.policy {
            case .dropMissing:
                return routes.filter { route in
                    if keep(route) { return true }
                    dropped.append(route)
                    return false
                }
            case .truncateAtFirstMissing:
                guard let cut = routes.firstIndex(where: { !keep($0) }) else { return routes }
                dropped += routes[cut...]
                return Array(routes[..<cut])
            }
        }
        var result = state
        for name in state.scenes.keys.sorted() {
            var scene = state.scenes[name]!
            scene.phase = .active   // a restored state begins a new launch
            for id in scene.stacks.keys.sorted() { scene.stacks[id] = stack(scene.stacks[id]!) }
            var sheets: [Sheet] = []
            for (k, sheet) in scene.sheets.enumerated() {
                guard keep(sheet.root) else {
                    // A sheet whose root is gone goes with its stack, and the sheets above it.
                    for gone in scene.sheets[k...] { dropped += [gone.root] + gone.stack }
                    break
                }
                var kept = sheet
                kept.stack = stack(sheet.stack)
                sheets.append(kept)
            }
            scene.sheets = sheets
            if let split = scene.split {
                for column in [SplitColumn.sidebar, .content] {
                    let route = column == .sidebar ? split.sidebar : split.content
                    if let route, !keep(route) {
                        dropped.append(route)
                        if column == .sidebar { scene.split?.sidebar = nil } else { scene.split?.content = nil }
                    }
                }
            }
            result.scenes[name] = scene
        }
        return (result, dropped)
    }
}

/// How the session of the last line a restore folds ended, as ``SessionEnding`` says over its
/// events with the state after each. A session begins, as ``SessionTracker`` has it, at a
/// `session.start` or an event of another session.
///
/// The fold may begin within that session, at a snapshot: then whether the session recorded a
/// phase before it is not known. Both answers are kept — ``plain``, and ``phasedBefore``, as if it
/// had — so that the events before need be read back only when the two differ.
private struct LastSessionEnding {
    var plain = SessionEnding()
    var phasedBefore = SessionEnding(sawEnd: false, sawPhase: true, inBackground: false)
    /// Whether the session's first events were not folded: the fold began within it.
    private(set) var partial = false
    private var session: String?

    /// Sees `event` with the state after it; `first` when it is the first event of a fold that
    /// began at a snapshot, not at the log's start.
    mutating func see(_ event: NavigationEvent, stateAfter state: NavigationState, first: Bool) {
        if session == nil || event.isSessionStart || event.session != session {
            session = event.session
            plain = SessionEnding()
            phasedBefore = SessionEnding(sawEnd: false, sawPhase: true, inBackground: false)
            partial = first && !event.isSessionStart
        }
        plain.see(event, stateAfter: state)
        phasedBefore.see(event, stateAfter: state)
    }
}

/// The crash-loop guard, fed the log's events newest first.
private struct LoopCheck {
    let needed: Int
    let window: Duration
    private(set) var decided = false
    private(set) var firedFor: [String]?
    private var looping: [String] = []
    // The session being walked through, from its last event back to its start.
    private var session: String?
    private var end: Timestamp?
    private var restored = false
    /// Its events seen so far, newest first: those within the window, so a few.
    private var events: [NavigationEvent] = []

    init(options: Restorer.Options) {
        needed = options.crashLoopSessions
        window = options.crashLoopWindow
    }

    mutating func consume(_ event: NavigationEvent) {
        guard !decided else { return }
        if event.session != session {
            session = event.session
            end = event.timestamp
            restored = false
            events.removeAll(keepingCapacity: true)
        }
        events.append(event)
        if case .restore = event.action { restored = true }
        if let end, .milliseconds(end.millisecondsSince1970 - event.timestamp.millisecondsSince1970) > window {
            return settle(false)   // this session lasted longer than the window: no loop
        }
        if case .sessionStart = event.action {
            // Every session, the newest too, is over: another began, or the launch reading the log.
            guard restored, Self.ending(of: events.reversed()) == .unclean else { return settle(false) }
            looping.append(event.session)
            if looping.count >= needed { settle(true) }
        }
    }

    /// How the session of `events`, from its `session.start` on, ended: folded from an empty state.
    private static func ending(of events: some Sequence<NavigationEvent>) -> SessionEnd {
        var state = NavigationState()
        var ending = SessionEnding()
        for event in events {
            Projection.fold(&state, event)
            ending.see(event, stateAfter: state)
        }
        return ending.end(over: true)
    }

    private mutating func settle(_ fired: Bool) {
        decided = true
        if fired { firedFor = looping }
    }
}
