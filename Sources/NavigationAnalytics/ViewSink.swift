import NavigationHistory

/// Where a ``ViewStreamState`` hands its views, and the events of those who want them.
protocol ViewSink {
    /// Whether it sees every event, and the first of every session with the state before it.
    var seesEvents: Bool { get }
    /// Takes every view in `stream`'s ``ViewStreamState/ended`` that ``ViewStreamState/ready(_:)``
    /// admits, in order, and empties it (unless it throws): one call for all the views an event
    /// ended, rather than one for each.
    mutating func takeEnded(from stream: inout ViewStreamState) throws
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
    func takeEnded(from stream: inout ViewStreamState) throws {
        let ended = stream.ended
        try ended.removeEach { (view: consuming ScreenView) in
            var readied = consume view   // moved, as QueryHolder's are
            if stream.ready(&readied) { try body(AnalyticsView(consume readied, app: stream.readiedApp)) }
        }
    }
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) {}   // the closures take events only
    func see(_ event: NavigationEvent, at _: EventPosition, app: String?, stateAfter: NavigationState) throws {
        try events?(event, app, stateAfter)
    }
    func endSession(_ session: String, ending: SessionEnd) throws { try endings?(session, ending) }
}

/// Hands views and events to a query. The query is held behind a class existential rather than
/// as a generic parameter: the code that runs it per event lives in this module, unspecialized for
/// the caller's query type, and a generic wrapper there looked up its type's metadata for every
/// event. Nor as a value existential: that is boxed, and the box was made unique again for every
/// view.
struct QuerySink: ViewSink {
    private let holder: any QueryHolding
    let seesEvents: Bool

    /// A sink for `query` that takes the views of `stream`: the one it is given, whose
    /// ``ViewStreamState/ended`` it holds on to. Held by the query's holder, the buffer is read
    /// without the retain and release that taking it from the stream for each event cost (0.8%
    /// of `navlog funnel`'s instructions, callgrind).
    init(query: some ViewQuery, for stream: ViewStreamState) {
        holder = Self.holder(of: query, ended: stream.ended)
        seesEvents = type(of: query).seesEvents
    }

    func takeEnded(from stream: inout ViewStreamState) { holder.addEnded(from: &stream) }
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

    private static func holder(of query: some ViewQuery, ended: EndedViews) -> any QueryHolding {
        if let both = query as? any PositionedViewQuery & ScreenViewQuery { return positionedScreenViewHolder(of: both, ended) }
        if let borrowing = query as? any ScreenViewQuery { return screenViewHolder(of: borrowing, ended) }
        if let positioned = query as? any PositionedViewQuery { return positionedHolder(of: positioned, ended) }
        return QueryHolder(query, ended)
    }

    private static func screenViewHolder(of query: some ScreenViewQuery, _ ended: EndedViews) -> any QueryHolding {
        ScreenViewQueryHolder(query, ended)
    }
    private static func positionedHolder(of query: some PositionedViewQuery, _ ended: EndedViews) -> any QueryHolding {
        PositionedQueryHolder(query, ended)
    }
    private static func positionedScreenViewHolder(of query: some PositionedViewQuery & ScreenViewQuery,
                                                   _ ended: EndedViews) -> any QueryHolding {
        PositionedScreenViewQueryHolder(query, ended)
    }
}

/// A query behind a reference, for ``QuerySink``.
private protocol QueryHolding: AnyObject {
    var query: any ViewQuery { get }
    /// Counts the views `stream` ended, as ``ViewSink/takeEnded(from:)`` says.
    func addEnded(from stream: inout ViewStreamState)
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState)
    func see(_ event: NavigationEvent, at position: EventPosition, stateAfter: NavigationState)
    func endSession(_ session: String, ending: SessionEnd)
}

private class QueryHolder<Query: ViewQuery>: QueryHolding {
    // Only ever used by the thread of one stream.
    @exclusivity(unchecked) fileprivate var held: Query
    /// The ``ViewStreamState/ended`` of the stream whose views it takes.
    fileprivate let ended: EndedViews

    init(_ query: Query, _ ended: EndedViews) {
        held = query
        self.ended = ended
    }

    var query: any ViewQuery { held }
    func addEnded(from stream: inout ViewStreamState) {
        assert(ended === stream.ended, "a sink takes the views of the stream it was made for")
        ended.removeEach { (view: consuming ScreenView) in
            // Moved, never copied: a copy of each view, through its value witness, was 10% of
            // `navlog transitions`' instructions (callgrind).
            var readied = consume view
            if stream.ready(&readied) { held.add(AnalyticsView(consume readied, app: stream.readiedApp)) }
        }
    }
    func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) { held.beginSession(event, stateBefore: stateBefore) }
    func see(_ event: NavigationEvent, at _: EventPosition, stateAfter _: NavigationState) { held.see(event) }
    func endSession(_ session: String, ending: SessionEnd) { held.endSession(session, ending: ending) }
}

/// A query that reads screen views borrowed, for ``QuerySink``.
private final class ScreenViewQueryHolder<Query: ScreenViewQuery>: QueryHolder<Query> {
    override func addEnded(from stream: inout ViewStreamState) { addEachInPlace(ended, from: &stream, to: &held) }
}

/// A query that sees events with their positions, for ``QuerySink``.
private final class PositionedQueryHolder<Query: PositionedViewQuery>: QueryHolder<Query> {
    override func see(_ event: NavigationEvent, at position: EventPosition, stateAfter: NavigationState) {
        held.see(event, at: position, stateAfter: stateAfter)
    }
}

/// A query that reads screen views borrowed and sees events with their positions (the report's).
private final class PositionedScreenViewQueryHolder<Query: PositionedViewQuery & ScreenViewQuery>: QueryHolder<Query> {
    override func addEnded(from stream: inout ViewStreamState) { addEachInPlace(ended, from: &stream, to: &held) }
    override func see(_ event: NavigationEvent, at position: EventPosition, stateAfter: NavigationState) {
        held.see(event, at: position, stateAfter: stateAfter)
    }
}

/// Counts each view in `ended`, which `stream` ended, where it lies, then destroys it: moved out
/// and handed on by value, a view was copied again at each call on its way to the query (`navlog
/// funnel`, callgrind).
private func addEachInPlace<Query: ScreenViewQuery>(_ ended: EndedViews, from stream: inout ViewStreamState, to query: inout Query) {
    assert(ended === stream.ended, "a sink takes the views of the stream it was made for")
    ended.forEachRemoving { view in
        if stream.ready(&view) { query.add(lent: &view) }
    }
}
