import NavigationHistory

/// A query over screen views: it counts views one by one, and its answer is read once, when
/// ``finalize()`` ends the counting — as `Hasher` is read.
///
/// ``ViewStream/run(_:over:mode:filter:cleaning:idle:progress:)`` runs a query over chunks of a
/// log at once, one copy each, merges the copies in order and finalizes the result. A query can
/// also be fed by hand:
///
/// ```swift
/// var screens = ScreensQuery()
/// try ViewStream.read("app.navlog") { view in screens.add(view) }
/// for row in screens.finalize() { print(row.screen, row.views) }
/// ```
public protocol ViewQuery: Sendable {
    /// What the query answers: its rows, once every view is counted.
    associatedtype Result: Sendable

    /// Counts a view. Views come session by session; within a (session, scene), in the order they
    /// began.
    mutating func add(_ view: AnalyticsView)
    /// Adds the counts of `later`: a copy of the query, made before it counted anything, that
    /// counted the views after this one's; no session has views in both. What either held back
    /// until its views ended is counted, as ``finalize()`` counts it. When the query sees events,
    /// `later` began with the `session.start` this one saw last.
    mutating func merge(_ later: consuming Self)
    /// Adds the counts of `later`: a copy of the query, made before it counted anything, that
    /// counted the views of the next of several logs (``ViewStream/run(_:over:mode:filter:cleaning:idle:progress:)``
    /// over several paths merges them in their order). No session goes on from this one's views and
    /// events into `later`'s: each log's last session ended with its log, and `later` did not begin
    /// with it. By default ``merge(_:)``, which is that already for a query that sees views only. A
    /// query that sees events must give its own, which counts `later`'s first session as a session
    /// of its own: the default stops the program for such a query rather than count wrong.
    mutating func merge(nextLog later: consuming Self)
    /// Counts what the query held back until its views ended (a session's views, a path's end),
    /// and returns the answer.
    consuming func finalize() -> Result

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
    /// Learns how `session` ended, as views name it (numbered by part): after the views its end
    /// ended, once for each session and part whose end was read — a part that an idle gap ended as
    /// ``SessionEnding/endOfPart`` says, the log's last session at the end. In chunks, each session's end is
    /// learnt by the copy that counted its views. Nothing by default.
    mutating func endSession(_ session: String, ending: SessionEnd)
}

/// A query that sees events with where their lines are, to read some of them again at the end
/// rather than keep them all on the way: the report keeps a few sessions to replay, and copying
/// every session's events in case it was one of them took a tenth of its time.
package protocol PositionedViewQuery: ViewQuery {
    /// Sees `event` as ``ViewQuery/see(_:)`` does, its line at `position`: its file and offset
    /// are the log's; its line number, in chunks, counts from the chunk's start. `state` is the
    /// state the fold made of it.
    mutating func see(_ event: NavigationEvent, at position: EventPosition, stateAfter state: NavigationState)
}

/// A query of this module that reads each view where the stream holds it, rather than as a row
/// the view is moved into: a 200-byte move a view, and the wait of its wide loads on the narrow
/// stores that just wrote the view (2-10% of `navlog funnel`'s time).
protocol ScreenViewQuery: ViewQuery {
    /// Counts `view` as ``add(_:)`` counts its row: the view's session, screen and the rest are
    /// the row's (numbered by part, cleaned). The view is lent where the stream holds it: the
    /// query reads it and leaves it as it is. It is `inout` only to be passed where it lies: a
    /// `borrowing` view is copied to the stack for the call (`navlog funnel`, callgrind).
    mutating func add(lent view: inout ScreenView)

    /// Whether it reads views' details — their tab, how they were entered, their route's stack
    /// and params. When it does not, the views handed to it leave them out (nil, `""`): copying
    /// them in and releasing them was 1.6% of `navlog funnel`'s instructions.
    static var readsDetails: Bool { get }
}

extension ViewQuery {
    /// Views only: the default.
    public static var seesEvents: Bool { false }
    /// Nothing: the default.
    public mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {}
    /// Nothing: the default.
    public mutating func see(_ event: NavigationEvent) {}
    /// Nothing: the default.
    public mutating func endSession(_ session: String, ending: SessionEnd) {}
    /// ``merge(_:)``, for a query that sees views only; for one that sees events, stops the program.
    public mutating func merge(nextLog later: consuming Self) {
        precondition(!Self.seesEvents, "\(Self.self) sees events: give it merge(nextLog:) to run it over several logs")
        merge(later)
    }
}
