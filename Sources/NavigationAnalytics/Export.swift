import NavigationHistory

/// The derived tables other engines read — `screen_views`, `transitions`, `deeplinks` and
/// `sessions` — as NDJSON or CSV, optionally with personal data redacted.
public struct Export: Sendable {
    /// A derived table.
    public enum Table: String, Sendable, CaseIterable {
        /// One row per screen view: ``AnalyticsView``'s columns.
        case screenViews = "screen_views"
        /// One row per pair of consecutive views of a path.
        case transitions
        /// One row per deep link opened: ``DeepLinksQuery/Record``'s columns.
        case deeplinks
        /// One row per session (per part with `--idle`): ``SessionRows/Row``'s columns.
        case sessions
    }
    /// An output format.
    public enum Format: String, Sendable, CaseIterable {
        /// One JSON object a line.
        case ndjson
        /// Comma-separated values under a header line.
        case csv
    }
    /// What to redact: ``NavigationHistory/Redaction``, the same rules a redacted shipment keeps.
    /// No table holds params; route ids are `screen_views.id`; deep links' `url` and `pattern`
    /// are redacted by every choice.
    public typealias Redaction = NavigationHistory.Redaction

    /// The table written.
    public var table: Table
    /// The format it is written in.
    public var format: Format
    /// What is redacted.
    public var redactions: Set<Redaction>
    /// The salt of the hashes that replace redacted values; with no salt they are dropped instead.
    public var salt: String?
    /// Whether a CSV text cell that a spreadsheet would run as a formula gets a `'` in front (see
    /// ``csv(_:guarded:)``); true unless the CSV is for a program that wants the cells exact.
    public var guardsFormulas = true

    /// Creates an export of `table` in `format`, redacting `redactions` with hashes salted by
    /// `salt` (dropped without one).
    public init(table: Table, format: Format, redactions: Set<Redaction> = [], salt: String? = nil) {
        self.table = table
        self.format = format
        self.redactions = redactions
        self.salt = salt
    }

    /// The columns of the table, in order.
    public var columns: [String] {
        switch table {
        case .screenViews:
            ["session", "scene", "tab", "stack", "screen", "id", "depth", "entered_by", "start_seq", "start_ts", "end_ts", "dwell_ms",
             "background_ms", "crashed", "in_sheet"]
        case .transitions:
            ["session", "scene", "step", "from_screen", "to_screen", "from_seq", "to_seq"]
        case .deeplinks:
            ["session", "scene", "seq", "ts", "url", "pattern", "outcome", "depth", "backed_out"]
        case .sessions:
            ["session", "app", "launch", "start_seq", "start_ts", "end_ts", "ended", "events", "scenes", "foreground_ms"]
        }
    }

    /// The header line (CSV only).
    public var header: String? { format == .csv ? columns.joined(separator: ",") : nil }

    /// A stable salted hash of a value, or nil when values are dropped (no salt).
    public func redacted(_ value: String) -> String? { Redactor(salt: salt).value(value) }

    private struct PathKey: Hashable { var session: String, scene: String }
    /// For `transitions`: each open path's last view and its length; the paths of a session are
    /// forgotten when the next session begins (a log's sessions do not interleave).
    private var previous: [PathKey: (view: AnalyticsView, step: Int)] = [:]
    private var currentSession: String?

    /// The line the table gets for `view`, if any: every view is a `screen_views` row; a view after
    /// another in its path makes a `transitions` row.
    public mutating func line(for view: AnalyticsView) -> String? {
        switch table {
        case .deeplinks, .sessions:
            return nil   // deep links and sessions are of events: see line(_:) for their records
        case .screenViews:
            return line(view)
        case .transitions:
            if view.session != currentSession {
                previous.removeAll(keepingCapacity: true)
                currentSession = view.session
            }
            let key = PathKey(session: view.session, scene: view.scene)
            let before = previous[key]
            previous[key] = (view, (before?.step ?? 0) + 1)
            guard let before else { return nil }
            return line(from: before.view, to: view, step: before.step + 1)
        }
    }

    /// The line of a `deeplinks` row; with any redaction, its URL and pattern redacted as
    /// the shared `Redactor` says.
    public func line(_ link: DeepLinksQuery.Record) -> String {
        var url = link.url, pattern = link.pattern
        if !redactions.isEmpty {
            let redactor = Redactor(salt: salt)
            url = redactor.url(url)
            pattern = redactor.pattern(pattern)
        }
        return encode([.text(link.session), .text(link.scene), .number(Int64(link.seq)), .text(link.timestamp.description), .text(url),
                       .text(pattern), .text(link.outcome), .number(Int64(link.depth)), .bool(link.backedOut)])
    }

    /// The line of a `sessions` row.
    public func line(_ session: SessionRows.Row) -> String {
        encode([.text(session.session), .optional(session.app), .optional(session.launch), .number(Int64(session.startSeq)),
                .text(session.start.description), .text(session.end.description), .text(session.ended.rawValue),
                .number(Int64(session.events)), .number(Int64(session.scenes.count)), .number(session.foregroundMilliseconds)])
    }

    /// The line of a `screen_views` row.
    public func line(_ view: AnalyticsView) -> String {
        var id: String? = view.id
        if redactions.contains(.ids), let value = id { id = redacted(value) }
        return encode([.text(view.session), .text(view.scene), .optional(view.tab), .optional(view.stack), .text(view.screen),
                       .optional(id), .number(Int64(view.depth)), .text(view.enteredBy), .number(Int64(view.startSeq)),
                       .text(view.start.description), .text(view.end.description), .number(view.dwellMilliseconds),
                       .number(view.backgroundMilliseconds), .bool(view.crashed),
                       .bool(view.inSheet)])
    }

    /// The line of a `transitions` row: the step from `from` to `to`, the `step`-th view of its path.
    public func line(from: AnalyticsView, to: AnalyticsView, step: Int) -> String {
        encode([.text(to.session), .text(to.scene), .number(Int64(step)), .text(from.screen), .text(to.screen),
                .number(Int64(from.startSeq)), .number(Int64(to.startSeq))])
    }

    private enum Cell { case text(String), optional(String?), number(Int64), bool(Bool) }

    private func encode(_ cells: [Cell]) -> String {
        switch format {
        case .ndjson:
            var w = JSONWriter(capacity: 256)
            w.raw("{")
            for (k, (name, cell)) in zip(columns, cells).enumerated() {
                w.key(named: name, first: k == 0)
                switch cell {
                case .text(let text): w.string(text)
                case .optional(let text): if let text { w.string(text) } else { w.raw("null") }
                case .number(let n): w.integer(Int(n))
                case .bool(let flag): w.bool(flag)
                }
            }
            w.raw("}")
            return String(decoding: w.bytes, as: UTF8.self)
        case .csv:
            return cells.map { cell -> String in
                switch cell {
                case .text(let text): return Self.csv(text, guarded: guardsFormulas)
                case .optional(let text): return text.map { Self.csv($0, guarded: guardsFormulas) } ?? ""
                case .number(let n): return String(n)
                case .bool(let flag): return flag ? "true" : "false"
                }
            }.joined(separator: ",")
        }
    }

    /// A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. When `guarded`, a
    /// text that begins with `=`, `+`, `-`, `@`, tab or carriage return — which a spreadsheet would
    /// run as a formula — gets a `'` in front (OWASP's rule against CSV injection). Only text cells
    /// come here: a number is written by the caller from an integer, and its `-` is a sign that a
    /// spreadsheet reads as a number, never as a formula.
    package static func csv(_ text: String, guarded: Bool) -> String {
        // By scalars, not characters: "\r\n" is one Character, and so is a quote with an accent.
        var scalars = text.unicodeScalars
        if guarded, let first = scalars.first, "=+-@\t\r".unicodeScalars.contains(first) { scalars.insert("'", at: scalars.startIndex) }
        guard scalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return String(scalars) }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in scalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }
}
