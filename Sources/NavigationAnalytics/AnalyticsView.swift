import NavigationHistory

/// One screen view as analytics see it: the row of the `screen_views` table.
///
/// The columns are those analytics.md lists — session, scene, tab, stack, screen, id, depth,
/// entered_by, start_seq, start_ts, end_ts, dwell_ms, crashed — and `in_sheet`, which the depth
/// query needs to count sheets separately. `screen` is after path cleaning.
public struct AnalyticsView: Sendable, Hashable {
    /// The session (one app launch).
    public var session: String
    /// The app version the session's `session.start` named, if any.
    public var app: String?
    public var scene: String
    public var tab: String?
    /// The stack the visible route is on (a tab, `main`, a sheet's id), nil for a root or split.
    public var stack: String?
    /// The screen's name, after path cleaning.
    public var screen: String
    public var id: String?
    public var params: [String: String]?
    public var depth: Int
    /// Whether the view is inside a sheet (its stack is a sheet's).
    public var inSheet: Bool
    /// The type of the event that began the view.
    public var enteredBy: String
    public var startSeq: Int
    public var start: Timestamp
    public var end: Timestamp
    public var crashed: Bool

    /// How long the view lasted, in milliseconds.
    public var dwellMilliseconds: Int64 { end.millisecondsSince1970 - start.millisecondsSince1970 }

    init(_ view: consuming ScreenView, app: String?) {
        session = view.session
        self.app = app
        scene = view.scene
        tab = view.tab
        stack = view.screen.stack
        screen = view.screen.route.screen
        id = view.screen.route.id
        params = view.screen.route.params
        depth = view.screen.depth
        inSheet = view.screen.source == .sheet
        enteredBy = view.enteredBy
        startSeq = view.startSeq
        start = view.start
        end = view.end
        crashed = view.crashed
    }
}
