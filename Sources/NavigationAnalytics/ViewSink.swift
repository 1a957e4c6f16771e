import NavigationHistory

/// Where a ``ViewStreamState`` hands its views, and the events of those who want them.
protocol ViewSink {
    /// Whether it sees every event, and the first of every session with the state before it.
    var seesEvents: Bool { get }
    /// Takes `view` as the row of `app`; `seen` says whether the view's session, as named, is one
    /// of the stream's ``ViewStreamState/seen`` ids, added by an event before the one being consumed.
    mutating func take(_ view: consuming ScreenView, app: String?, seen: Bool) throws
    /// Whether it reads views borrowed, through ``borrow(_:app:seen:)``, rather than taking them.
    var borrowsViews: Bool { get }
    /// Reads `view` as ``take(_:app:seen:)`` takes it, without keeping it.
    mutating func borrow(_ view: borrowing ScreenView, app: String?, seen: Bool) throws
    mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) throws
    /// Sees `event`, its line at `position`, with its session's app version and the state after it.
    mutating func see(_ event: NavigationEvent, at position: EventPosition, app: String?, stateAfter: NavigationState) throws
    /// Learns how `session` (as views name it, numbered by part) ended, after the views its end
    /// ended: see ``ViewQuery/endSession(_:ending:)``.
    mutating func endSession(_ session: String, ending: SessionEnd) throws
}

/// Hands views and events to closures.
struct ClosureSink: ViewSink {
    let body: (AnalyticsView) throws -> Void
    let events: ((NavigationEvent, String?, NavigationState) throws -> Void)?
    var endings: ((String, SessionEnd) throws -> Void)? = nil

    var seesEvents: Bool { events != nil }
    func take(_ view: consuming ScreenView, app: String?, seen _: Bool) throws {
        try body(AnalyticsView(view, app: app))
    }
    var borrowsViews: Bool { false }
    func borrow(_ view: borrowing ScreenView, app: String?, seen: Bool) throws { try take(copy view, app: app, seen: seen) }
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {}   // the closures take events only
    func see(_ event: NavigationEvent, at _: EventPosition, app: String?, stateAfter: NavigationState) throws {
        try events?(event, app, stateAfter)
    }
    func endSession(_ session: String, ending: SessionEnd) throws { try endings?(session, ending) }
}

/// Hands views and events to a query. The query is held behind a class existential rather than
/// as a generic parameter: the code that runs it per event lives in this module, unspecialized for
/// the caller's query type, and a generic wrapper there looked up its type's metadata for every
/// event (7% of a query's instructions). Nor as a value existential: that is boxed, and the box
/// was made unique again for every view (1% of a funnel's instructions).
struct QuerySink: ViewSink {
    private let holder: any QueryHolding
    let seesEvents: Bool
    /// Whether it keeps ``unseenSessions``: a chunk's sink does, for the chunks to be checked.
    let tracksSessions: Bool
    /// The sessions of the views taken, as they are named, that are not among the stream's
    /// ``ViewStreamState/seen`` ids: later parts (`SESSION#2`) and the session of a view a store
    /// snapshot began. A few: every other view is named by a seen id, which the stream keeps
    /// already (a set of all, at 10M events some 100,000 ids a chunk, took 4% of a funnel's time
    /// and 8 MB).
    private(set) var unseenSessions = StringSet()
    private var lastSession: String?

    init(query: some ViewQuery, tracksSessions: Bool) {
        holder = Self.holder(of: query)
        seesEvents = type(of: query).seesEvents
        self.tracksSessions = tracksSessions
    }

    mutating func take(_ view: consuming ScreenView, app: String?, seen: Bool) {
        // Views come session by session: asked once per session, not per view.
        if tracksSessions, view.session != lastSession {
            lastSession = view.session
            if !seen { unseenSessions.insert(view.session) }
        }
        holder.add(view, app: app)
    }

    var borrowsViews: Bool { holder.borrowsViews }

    mutating func borrow(_ view: borrowing ScreenView, app: String?, seen: Bool) {
        if tracksSessions, view.session != lastSession {
            lastSession = view.session
            if !seen { unseenSessions.insert(view.session) }
        }
        holder.borrow(view, app: app)
    }

    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) { holder.beginSession(event, stateBefore: stateBefore) }
    func see(_ event: NavigationEvent, at position: EventPosition, app _: String?, stateAfter: NavigationState) {
        holder.see(event, at: position, stateAfter: stateAfter)
    }
    func endSession(_ session: String, ending: SessionEnd) { holder.endSession(session, ending: ending) }

    /// The query, as it counted so far.
    var query: any ViewQuery { holder.query }

    /// Whether `query` reads views' details: all but some of those that read screen views do.
    static func readsDetails(_ query: some ViewQuery) -> Bool {
        guard let borrowing = query as? any ScreenViewQuery else { return true }
        return type(of: borrowing).readsDetails
    }

    private static func holder(of query: some ViewQuery) -> any QueryHolding {
        if let both = query as? any PositionedViewQuery & ScreenViewQuery { return positionedScreenViewHolder(of: both) }
        if let borrowing = query as? any ScreenViewQuery { return screenViewHolder(of: borrowing) }
        if let positioned = query as? any PositionedViewQuery { return positionedHolder(of: positioned) }
        return QueryHolder(query)
    }

    private static func screenViewHolder(of query: some ScreenViewQuery) -> any QueryHolding { ScreenViewQueryHolder(query) }
    private static func positionedHolder(of query: some PositionedViewQuery) -> any QueryHolding { PositionedQueryHolder(query) }
    private static func positionedScreenViewHolder(of query: some PositionedViewQuery & ScreenViewQuery) -> any QueryHolding {
        PositionedScreenViewQueryHolder(query)
    }
}

/// A query behind a reference, for ``QuerySink``.
private protocol QueryHolding: AnyObject {
    var query: any ViewQuery { get }
    /// Counts `view` as the row of `app`.
    func add(_ view: consuming ScreenView, app: String?)
    /// Whether the query reads views borrowed, through ``borrow(_:app:)``.
    var borrowsViews: Bool { get }
    /// Counts `view` as ``add(_:app:)`` does, reading it where it lies.
    func borrow(_ view: borrowing ScreenView, app: String?)
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState)
    func see(_ event: NavigationEvent, at position: EventPosition, stateAfter: NavigationState)
    func endSession(_ session: String, ending: SessionEnd)
}

private class QueryHolder<Query: ViewQuery>: QueryHolding {
    // Only ever used by the thread of one stream.
    @exclusivity(unchecked) fileprivate var held: Query

    init(_ query: Query) { held = query }

    var query: any ViewQuery { held }
    func add(_ view: consuming ScreenView, app: String?) { held.add(AnalyticsView(view, app: app)) }
    var borrowsViews: Bool { false }
    func borrow(_ view: borrowing ScreenView, app: String?) { add(copy view, app: app) }
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) { held.beginSession(event, stateBefore: stateBefore) }
    func see(_ event: NavigationEvent, at _: EventPosition, stateAfter _: NavigationState) { held.see(event) }
    func endSession(_ session: String, ending: SessionEnd) { held.endSession(session, ending: ending) }
}

/// A query that reads screen views borrowed, for ``QuerySink``.
private final class ScreenViewQueryHolder<Query: ScreenViewQuery>: QueryHolder<Query> {
    override func add(_ view: consuming ScreenView, app _: String?) { held.add(view) }
    override var borrowsViews: Bool { true }
    override func borrow(_ view: borrowing ScreenView, app _: String?) { held.add(view) }
}

/// A query that sees events with their positions, for ``QuerySink``.
private final class PositionedQueryHolder<Query: PositionedViewQuery>: QueryHolder<Query> {
    override func see(_ event: NavigationEvent, at position: EventPosition, stateAfter: NavigationState) {
        held.see(event, at: position, stateAfter: stateAfter)
    }
}

/// A query that reads screen views borrowed and sees events with their positions (the report's).
private final class PositionedScreenViewQueryHolder<Query: PositionedViewQuery & ScreenViewQuery>: QueryHolder<Query> {
    override func add(_ view: consuming ScreenView, app _: String?) { held.add(view) }
    override var borrowsViews: Bool { true }
    override func borrow(_ view: borrowing ScreenView, app _: String?) { held.add(view) }
    override func see(_ event: NavigationEvent, at position: EventPosition, stateAfter: NavigationState) {
        held.see(event, at: position, stateAfter: stateAfter)
    }
}
