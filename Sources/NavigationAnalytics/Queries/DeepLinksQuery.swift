import NavigationHistory

/// Deep links: per outcome and URL pattern, how many were opened and how often the session then
/// backed out past the linked screen (popped its stack below the route the link opened, before the
/// session ended or the scene closed or another link replaced that stack). The pattern is the URL
/// without query and fragment, each path segment that holds a digit replaced by `:id`. Rows are
/// sorted by links, descending, then outcome and pattern.
///
/// It reads events, not screen views: it follows the state after each.
///
/// ```swift
/// var links = DeepLinksQuery()
/// try ViewStream.read("app.navlog", events: { event, app, state in links.consume(event, app: app, stateAfter: state) }) { _ in }
/// for row in links.finalize().rows { print(row.outcome, row.pattern, row.links, row.backedOut) }
/// ```
public struct DeepLinksQuery: Sendable {
    /// One (outcome, pattern)'s row.
    public struct Row: Sendable, Hashable {
        /// `resolved`, `partial` or `unmatched`.
        public var outcome: String
        /// The URL pattern (see ``DeepLinksQuery/pattern(_:)``).
        public var pattern: String
        /// The links opened.
        public var links: Int
        /// How many of them the session then backed out past.
        public var backedOut: Int
    }

    /// One deep link opened: a row of the `deeplinks` table.
    public struct Record: Sendable, Hashable {
        /// The session and scene of the `deeplink` event.
        public var session: String, scene: String
        /// The event's seq.
        public var seq: Int
        /// The event's time.
        public var timestamp: Timestamp
        /// The URL as opened, its pattern, and the outcome.
        public var url: String, pattern: String, outcome: String
        /// The routes the link opened (0 when it opened none).
        public var depth: Int
        /// Whether the session then backed out past the linked screen.
        public var backedOut: Bool
    }

    /// What the query answers.
    public struct Result: Sendable, Hashable {
        /// The rows, sorted by links, descending, then by outcome and pattern.
        public var rows: [Row]
        /// Every link, in the order opened; empty unless the query keeps records.
        public var records: [Record]
    }

    private struct Key: Hashable { var outcome: String, pattern: String }
    private struct Watch { var stack: String, depth: Int, key: Key, record: Int }
    /// Every link, in the order opened; when `keepsRecords` is set.
    private var records: [Record] = []
    private let keepsRecords: Bool
    private var tallies: [Key: (links: Int, backedOut: Int)] = [:]
    /// The links watched, by scene: an event changes the stacks of the scene it names, unless it
    /// replaces the state, so only that scene's are looked at again.
    private var watches: [String: [Watch]] = [:]
    private var session: String?
    private let filter: AnalyticsFilter

    /// Creates the query; with `keepsRecords`, one ``Record`` per link is kept for the export.
    public init(filter: AnalyticsFilter = AnalyticsFilter(), keepsRecords: Bool = false) {
        self.filter = filter
        self.keepsRecords = keepsRecords
    }

    /// Follows one event of the log, given its session's app and the state after it.
    public mutating func consume(_ event: NavigationEvent, app: String?, stateAfter state: NavigationState) {
        if event.beginsSession(after: session) {
            watches.removeAll()
            session = event.session
        }
        // Did the event take a watched stack below its linked screen?
        if !watches.isEmpty {
            if event.setsWholeState {
                for scene in watches.keys.sorted() { check(scene, in: state) }
            } else if let scene = event.action.scene, watches[scene] != nil {
                check(scene, in: state)
            }
        }
        guard case .deeplink(let scene, let url, let outcome, let tab, let stack, let path) = event.action, filter.admits(start: event.timestamp, app: app, session: event.session, scene: scene) else { return }
        let key = Key(outcome: outcome.rawValue, pattern: Self.pattern(url))
        tallies[key, default: (0, 0)].links += 1
        if keepsRecords {
            records.append(Record(session: event.session, scene: scene, seq: event.seq, timestamp: event.timestamp, url: url,
                                  pattern: key.pattern, outcome: key.outcome, depth: path?.count ?? 0, backedOut: false))
        }
        if let path, !path.isEmpty, outcome != .unmatched {
            let target = (state.scenes[scene] ?? SceneState()).deepLinkStack(tab: tab, stack: stack)
            watches[scene, default: []].removeAll { $0.stack == target }
            watches[scene, default: []].append(Watch(stack: target, depth: path.count, key: key, record: records.count - 1))
        }
    }

    /// Ends the watches of `scene` that the state no longer holds: those whose stack went below
    /// the linked screen, which backed out, and all of them when the scene closed.
    private mutating func check(_ scene: String, in state: NavigationState) {
        guard let now = state.scenes[scene] else {
            watches[scene] = nil
            return
        }
        watches[scene]!.removeAll { watch in
            guard (now.routes(of: watch.stack) ?? []).count < watch.depth else { return false }
            tallies[watch.key, default: (0, 0)].backedOut += 1
            if keepsRecords { records[watch.record].backedOut = true }
            return true
        }
        if watches[scene]!.isEmpty { watches[scene] = nil }
    }

    /// The URL without query and fragment, each path segment holding a digit replaced by `:id`;
    /// segments end at each `/` byte, as RFC 3986 cuts a URL.
    public static func pattern(_ url: String) -> String {
        var base = Substring(url)
        if let cut = base.firstIndex(ofASCII: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { base = base[..<cut] }
        guard let range = base.schemeSeparatorRange() else { return String(base) }
        let head = base[..<range.upperBound]
        let segments = base[range.upperBound...].split(atASCII: UInt8(ascii: "/")).map { segment in
            segment.contains(where: \.isNumber) ? ":id" : String(segment)
        }
        return head + segments.joined(separator: "/")
    }

    /// The rows, and the records when the query keeps them.
    public consuming func finalize() -> Result {
        let rows = tallies.map { Row(outcome: $0.key.outcome, pattern: $0.key.pattern, links: $0.value.links, backedOut: $0.value.backedOut) }
            .sorted { ($0.links, $1.outcome, $1.pattern) > ($1.links, $0.outcome, $0.pattern) }
        return Result(rows: rows, records: records)
    }
}
