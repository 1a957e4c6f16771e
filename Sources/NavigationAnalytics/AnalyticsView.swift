import NavigationHistory

/// One screen view as analytics see it: the row of the `screen_views` table.
///
/// The columns are those analytics.md lists — session, scene, tab, stack, screen, id, depth,
/// entered_by, start_seq, start_ts, end_ts, dwell_ms, crashed — and `in_sheet`, which the depth
/// query needs to count sheets separately. `screen` is after path cleaning.
///
/// A row keeps the ``ScreenView`` it was made from and reads its columns from it: hundreds of
/// thousands are made per query, and moving the view in costs nothing where copying each column
/// out of it retained and released every string.
public struct AnalyticsView: Sendable, Hashable {
    private var view: ScreenView

    /// The session (one app launch).
    public var session: String {
        get { view.session }
        set { view.session = newValue }
    }
    /// The app version the session's `session.start` named, if any.
    public var app: String?
    /// The scene.
    public var scene: String {
        get { view.scene }
        set { view.scene = newValue }
    }
    /// The scene's selected tab when the view began.
    public var tab: String? {
        get { view.tab }
        set { view.tab = newValue }
    }
    /// The stack the visible route is on (a tab, `main`, a sheet's id); for a root, the selected
    /// tab; nil for a split selection and for the root of a scene without tabs.
    public var stack: String? {
        get { view.screen.stack }
        set { view.screen.stack = newValue }
    }
    /// The screen's name, after path cleaning.
    public var screen: String {
        get { view.screen.route.screen }
        set { view.screen.route.screen = newValue }
    }
    /// The route's id, if any.
    public var id: String? {
        get { view.screen.route.id }
        set { view.screen.route.id = newValue }
    }
    /// The route's params, if any.
    public var params: [String: String]? {
        get { view.screen.route.params }
        set { view.screen.route.params = newValue }
    }
    /// How many routes are on the visible route's stack (0 for a sheet's root, a split selection
    /// or a root).
    public var depth: Int {
        get { view.screen.depth }
        set { view.screen.depth = newValue }
    }
    /// Whether the view is inside a sheet (its stack is a sheet's). Setting it makes the view's
    /// source a sheet, or else a stack.
    public var inSheet: Bool {
        get { view.screen.source == .sheet }
        set { view.screen.source = newValue ? .sheet : .stack }
    }
    /// The type of the event that began the view.
    public var enteredBy: String {
        get { view.enteredBy }
        set { view.enteredBy = newValue }
    }
    /// The seq of the event that began the view.
    public var startSeq: Int {
        get { view.startSeq }
        set { view.startSeq = newValue }
    }
    /// When the view began.
    public var start: Timestamp {
        get { view.start }
        set { view.start = newValue }
    }
    /// When the view ended.
    public var end: Timestamp {
        get { view.end }
        set { view.end = newValue }
    }
    /// Whether the session ended uncleanly while the view was visible.
    public var crashed: Bool {
        get { view.crashed }
        set { view.crashed = newValue }
    }

    /// How long the view was seen, in milliseconds: its time less ``backgroundMilliseconds``; 0
    /// when it ended before it began.
    public var dwellMilliseconds: Int64 { view.dwellMilliseconds }

    /// How long, of its time, its scene was in the `background` phase, in milliseconds.
    public var backgroundMilliseconds: Int64 { view.backgroundMilliseconds }

    /// Whether the view ended before it began: the clock went back while it was visible. Such a
    /// view counts, with a dwell of 0.
    public var clockWentBack: Bool { view.clockWentBack }

    /// Whether two rows have equal columns, whatever else their views hold (the seq that ended
    /// them, the number of sheets).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.session == rhs.session && lhs.app == rhs.app && lhs.scene == rhs.scene && lhs.tab == rhs.tab
            && lhs.stack == rhs.stack && lhs.screen == rhs.screen && lhs.id == rhs.id && lhs.params == rhs.params
            && lhs.depth == rhs.depth && lhs.inSheet == rhs.inSheet && lhs.enteredBy == rhs.enteredBy
            && lhs.startSeq == rhs.startSeq && lhs.start == rhs.start && lhs.end == rhs.end && lhs.crashed == rhs.crashed
            && lhs.backgroundMilliseconds == rhs.backgroundMilliseconds
    }

    /// Hashes the columns that tell rows apart: session, app, scene, screen and start seq.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(session)
        hasher.combine(app)
        hasher.combine(scene)
        hasher.combine(screen)
        hasher.combine(startSeq)
    }
}

extension AnalyticsView {
    init(_ view: consuming ScreenView, app: String?) {
        self.init(view: view, app: app)
    }

    /// The view the row was made from, its session numbered by part and its screen cleaned.
    var screenView: ScreenView { view }
}
