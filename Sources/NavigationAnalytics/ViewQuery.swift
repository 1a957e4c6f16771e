import NavigationHistory

/// A query over screen views that ``ViewStream/run(_:over:mode:filter:cleaning:idle:progress:)`` can run
/// over chunks of a log at once, one copy each, and merge.
public protocol ViewQuery: Sendable {
    /// Counts a view. Views come session by session; within a (session, scene), in the order they
    /// began.
    mutating func add(_ view: AnalyticsView)
    /// Counts what the query held back until its views ended.
    mutating func finish()
    /// Adds the counts of `later`: a copy of the query, made before it counted anything, that
    /// counted the views after this one's. Both are finished, and no session has views in both.
    /// When the query sees events, `later` began with the `session.start` this one saw last.
    mutating func merge(_ later: Self)

    /// Whether the query also sees events: ``beginSession(_:stateBefore:)`` and ``see(_:)``.
    /// False by default.
    static var seesEvents: Bool { get }
    /// Sees the first event of every session, as ``NavigationHistory/NavigationEvent/beginsSession(after:)``
    /// tells, with the state before it, before it is folded. Nothing by default.
    ///
    /// In chunks, the `session.start` that begins a chunk is seen by two copies, last by the one
    /// before and first by the one after: ``merge(_:)`` counts it once.
    mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState)
    /// Sees every event, after the views it ended (in chunks, as ``beginSession(_:stateBefore:)``
    /// says). Nothing by default.
    mutating func see(_ event: NavigationEvent)
}

/// A query that sees events with where their lines are, to read some of them again at the end
/// rather than keep them all on the way: the report keeps a few sessions to replay, and copying
/// every session's events in case it was one of them took a tenth of its time.
package protocol PositionedViewQuery: ViewQuery {
    /// Sees `event` as ``ViewQuery/see(_:)`` does, its line at `position`: its file and offset
    /// are the log's; its line number, in chunks, counts from the chunk's start.
    mutating func see(_ event: NavigationEvent, at position: EventPosition)
}

/// A query of this module that reads each view where the stream holds it, rather than from a
/// row the view is moved into: a 200-byte move a view, and the wait of its wide loads on the
/// narrow stores that just wrote the view (2-10% of a funnel's time, measured interleaved).
protocol InPlaceViewQuery: ViewQuery {
    /// Counts the view at `view` as ``add(_:)`` counts its row: the view's session, screen and
    /// the rest are the row's (numbered by part, cleaned), and `app` its app version.
    mutating func add(viewAt view: UnsafePointer<ScreenView>, app: String?)

    /// Whether it reads views' details — their tab, how they were entered, their route's stack
    /// and params. When it does not, the views handed to it leave them out (nil, `""`): copying
    /// them in and releasing them was 1.6% of a funnel's instructions.
    static var readsDetails: Bool { get }
}

extension ViewQuery {
    /// Nothing held back: the default.
    public mutating func finish() {}
    /// Views only: the default.
    public static var seesEvents: Bool { false }
    public mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {}
    public mutating func see(_ event: NavigationEvent) {}
}
