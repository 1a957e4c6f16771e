import NavigationHistory

/// The screen views of a log in one streaming pass, filtered: what every analytics query reads.
///
/// Views come as they end. Within one (session, scene) that is also the order they began in, which
/// is all that paths and transitions need. Views still open at the end of the log end at its last
/// event.
public enum ViewStream {
    /// Reads the log at `path` and hands each screen view that passes `filter` to `body` (and, when
    /// `events` is given, every event with its session's app version and the state after it; when
    /// `sessionStarts` is given, the first event of every session, as
    /// ``NavigationHistory/NavigationEvent/beginsSession(after:)`` tells, with the state before it,
    /// before it is folded).
    ///
    /// - Returns: The reader's report (events, seq range, defects tolerated by `mode`).
    /// - Throws: What reading the log throws in `mode`.
    @discardableResult
    public static func read(_ path: String, mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                            cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil,
                            sessionStarts: ((_ event: NavigationEvent, _ stateBefore: NavigationState) throws -> Void)? = nil,
                            events: ((_ event: NavigationEvent, _ app: String?, _ stateAfter: NavigationState) throws -> Void)? = nil,
                            _ body: (AnalyticsView) throws -> Void) throws -> ReadReport {
        // One value holds the reading's state: captured by the reader's closure, it is accessed
        // once per event rather than a dozen variables each checked for exclusive access.
        var stream = Stream(filter: filter, clean: cleaning.isEmpty ? nil : cleaning.cleaner(), gap: idle.map { max(1, $0.milliseconds) })
        let report = try LogReader(path: path, mode: mode).read { event in
            try stream.consume(event, sessionStarts: sessionStarts, events: events, body)
        }
        try stream.finish(body)
        return report
    }
}

/// What ``ViewStream`` keeps while it reads.
private struct Stream {
    let filter: AnalyticsFilter
    /// The path cleaning, nil without rules.
    let clean: ((String) -> String)?
    /// The idle gap that splits a session, in milliseconds.
    let gap: Int64?
    var tracker = ScreenViewTracker()
    /// The views the last event ended: one array, emptied and reused.
    var ended: [ScreenView] = []
    var apps: [String: String] = [:]
    /// The app version of the last view's session, and of the last event's.
    var viewApp: (session: String, app: String?)?
    var eventApp: (session: String, app: String?)?
    // Where each session id begins a new part, as the seq of the part's first event: at an idle
    // gap, and where an id seen before begins a new run (a log may reuse an id), so that every
    // part counts as its own session — in navlog's queries and in the exported tables alike.
    var cuts: [String: [Int]] = [:]
    var seen: Set<String> = []
    var last: (session: String, time: Int64)?

    init(filter: AnalyticsFilter, clean: ((String) -> String)?, gap: Int64?) {
        self.filter = filter
        self.clean = clean
        self.gap = gap
    }

    mutating func consume(_ event: NavigationEvent, sessionStarts: ((NavigationEvent, NavigationState) throws -> Void)?,
                          events: ((NavigationEvent, String?, NavigationState) throws -> Void)?,
                          _ body: (AnalyticsView) throws -> Void) throws {
        if let sessionStarts, event.beginsSession(after: tracker.session) {
            // Asked for here, before the fold, rather than kept after every event by the caller:
            // a copy kept of the state makes the next fold copy it, stacks and all.
            try sessionStarts(event, tracker.state)
        }
        if !event.isSnapshot {
            if event.beginsSession(after: last?.session), seen.contains(event.session) {
                cuts[event.session, default: []].append(event.seq)
            } else if let gap, let previous = last, previous.session == event.session,
                      event.timestamp.millisecondsSince1970 - previous.time >= gap {
                cuts[event.session, default: []].append(event.seq)
                ended = tracker.resume(before: event)
                try deliverEnded(body)
            }
            if last?.session != event.session { seen.insert(event.session) }
            last = (event.session, event.timestamp.millisecondsSince1970)
        }
        tracker.consume(event, appendingTo: &ended)
        try deliverEnded(body)
        // After the views this start ended: they belong to the run before, with its own app.
        if let app = Self.startedApp(event.action) {
            apps[event.session] = app
            viewApp = nil
            eventApp = (event.session, app)
        }
        guard let events else { return }
        if eventApp?.session != event.session { eventApp = (event.session, apps[event.session]) }
        try events(event, eventApp!.app, tracker.state)
    }

    mutating func finish(_ body: (AnalyticsView) throws -> Void) throws {
        ended = tracker.finish().views
        try deliverEnded(body)
    }

    /// The app a `session.start` names (nil for any other event, and for a start that names none).
    /// A function of its own: its pattern, inlined, copied the whole action for every event.
    @inline(never)
    private static func startedApp(_ action: NavigationAction) -> String?? {
        if case .sessionStart(let app, _, _) = action { app } else { nil }
    }

    private func part(_ session: String, at seq: Int) -> Int {
        guard !cuts.isEmpty, let list = cuts[session] else { return 1 }
        return 1 + list.countOfLeading { $0 <= seq }   // cuts are in seq order
    }

    /// Hands the views in `ended` that pass the filter to `body`, cleaned and numbered by part,
    /// and empties `ended` (unless `body` throws). Each view is moved out of it into its row:
    /// copying it would retain every string once more.
    private mutating func deliverEnded(_ body: (AnalyticsView) throws -> Void) throws {
        ended.reverse()
        while let view = ended.popLast() {
            let session = view.session
            // Views come session by session: look each session's app version up once.
            if viewApp?.session != session { viewApp = (session, apps[session]) }
            let app = viewApp!.app   // filtered on the session id as the log has it
            guard filter.admits(start: view.start, app: app, session: session, scene: view.scene) else { continue }
            let number = part(session, at: view.startSeq)
            var row = AnalyticsView(view, app: app)
            if number > 1 { row.session += "#\(number)" }
            if let clean { row.screen = clean(row.screen) }
            try body(row)
        }
    }
}

/// Path cleaning: `REGEX=NAME` rules applied in order to every screen name before anything else
/// (PostHog's path cleaning). Each rule replaces every match of its pattern with its name, as SQL's
/// `regexp_replace(screen, REGEX, NAME, 'g')` does.
public struct PathCleaning: Sendable {
    private let rules: [(pattern: String, name: String)]

    /// No rules: names are kept.
    public init() { rules = [] }

    /// Rules written `REGEX=NAME` (the last `=` separates them).
    ///
    /// - Throws: ``NavigationHistoryError`` with code `invalidEvent` for a rule without `=` or with
    ///   a pattern that is not a regular expression.
    public init(rules texts: [String]) throws {
        rules = try texts.map { text in
            guard let equals = text.lastIndex(of: "=") else {
                throw NavigationHistoryError(code: .invalidEvent, message: "--alias '\(text)' is not REGEX=NAME")
            }
            let pattern = String(text[..<equals])
            do { _ = try Regex(pattern) } catch {
                throw NavigationHistoryError(code: .invalidEvent, message: "--alias '\(text)': not a regular expression (\(error))")
            }
            return (pattern, String(text[text.index(after: equals)...]))
        }
    }

    /// Whether there are rules at all.
    public var isEmpty: Bool { rules.isEmpty }

    /// A function that cleans names: the rules compiled once, each distinct name cleaned once.
    public func cleaner() -> (String) -> String {
        guard !rules.isEmpty else { return { $0 } }
        let compiled = rules.compactMap { rule in (try? Regex(rule.pattern)).map { ($0, rule.name) } }
        var memo: [String: String] = [:]
        return { screen in
            if let known = memo[screen] { return known }
            var name = screen
            for (regex, replacement) in compiled { name = name.replacing(regex, with: replacement) }
            memo[screen] = name
            return name
        }
    }
}
