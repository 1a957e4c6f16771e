import NavigationHistory

/// The screen views of a log in one streaming pass, filtered: what every analytics query reads.
///
/// Views come as they end. Within one (session, scene) that is also the order they began in, which
/// is all that paths and transitions need. Views still open at the end of the log end at its last
/// event.
public enum ViewStream {
    /// Reads the log at `path` and hands each screen view that passes `filter` to `body` (and, when
    /// `events` is given, every event with its session's app version and the state after it).
    ///
    /// - Returns: The reader's report (events, seq range, defects tolerated by `mode`).
    /// - Throws: What reading the log throws in `mode`.
    @discardableResult
    public static func read(_ path: String, mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                            cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil,
                            events: ((_ event: NavigationEvent, _ app: String?, _ stateAfter: NavigationState) throws -> Void)? = nil,
                            _ body: (AnalyticsView) throws -> Void) throws -> ReadReport {
        var tracker = ScreenViewTracker()
        var ended: [ScreenView] = []   // one array for the views each event ends
        var apps: [String: String] = [:]
        let clean = cleaning.cleaner()
        // Where each session id begins a new part, as the seq of the part's first event: at an idle
        // gap, and where an id seen before begins a new run (a log may reuse an id), so that every
        // part counts as its own session — in navlog's queries and in the exported tables alike.
        var cuts: [String: [Int]] = [:]
        var seen: Set<String> = []
        var last: (session: String, time: Int64)?
        var lastApp: (session: String, app: String?)?
        let gap = idle.map { max(1, $0.milliseconds) }
        func part(_ session: String, at seq: Int) -> Int {
            guard !cuts.isEmpty, let list = cuts[session] else { return 1 }
            return 1 + list.countOfLeading { $0 <= seq }   // cuts are in seq order
        }
        func deliver(_ views: [ScreenView]) throws {
            for view in views {
                // Views come session by session: look each session's app version up once.
                if lastApp?.session != view.session { lastApp = (view.session, apps[view.session]) }
                let app = lastApp!.app   // filtered on the session id as the log has it
                guard filter.admits(start: view.start, app: app, session: view.session, scene: view.scene) else { continue }
                var row = AnalyticsView(view, app: app)
                let number = part(view.session, at: view.startSeq)
                if number > 1 { row.session += "#\(number)" }
                row.screen = clean(row.screen)
                try body(row)
            }
        }
        let report = try LogReader(path: path, mode: mode).read { event in
            if !event.isSnapshot {
                if event.beginsSession(after: last?.session), seen.contains(event.session) {
                    cuts[event.session, default: []].append(event.seq)
                } else if let gap, let previous = last, previous.session == event.session,
                          event.timestamp.millisecondsSince1970 - previous.time >= gap {
                    cuts[event.session, default: []].append(event.seq)
                    try deliver(tracker.resume(before: event))
                }
                if last?.session != event.session { seen.insert(event.session) }
                last = (event.session, event.timestamp.millisecondsSince1970)
            }
            ended.removeAll(keepingCapacity: true)
            tracker.consume(event, appendingTo: &ended)
            try deliver(ended)
            // After the views this start ended: they belong to the run before, with its own app.
            if case .sessionStart(let app, _, _) = event.action {
                apps[event.session] = app
                lastApp = nil
            }
            try events?(event, apps[event.session], tracker.state)
        }
        try deliver(tracker.finish().views)
        return report
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
