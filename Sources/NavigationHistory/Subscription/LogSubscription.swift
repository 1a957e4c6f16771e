/// Where a subscription to a log begins.
public enum SubscriptionStart: Sendable, Hashable {
    /// The first event the log still holds (retention may have deleted older ones).
    case oldest
    /// The event with this `seq`, or the first one at or after it.
    ///
    /// A `seq` older than the oldest segment retention kept fails with
    /// ``NavigationHistoryError/Code/notRetained``, naming the first one still there in
    /// ``NavigationHistoryError/firstRetainedSeq``; a `seq` not written yet is waited for.
    case seq(Int)
    /// The first event appended after the subscription has read what the log held when it began.
    case end
}

/// A catch-up subscription to a log: the checked events from a start, read from the files, then
/// each new one as it is appended, across segment rotations, for as long as it is iterated.
///
/// Get one from ``LogFollower/events(from:)`` (any process, any log directory or `.jsonl` file),
/// ``EventLog/events(from:)`` or ``Recorder/events(from:)`` (the writing process: new events come
/// from the writer, once they are as durable as its policy makes them, without reading the disk).
///
/// ```swift
/// for try await event in LogFollower(path: "app.navlog").events(from: .end) {
///     print(event.seq, event.type)
/// }
/// ```
///
/// Each event is checked as ``LogReader`` checks it — UTF-8, JSON, `crc`, `v`, members, and a
/// gapless increasing `seq` — and handed over exactly once, in `seq` order. Another process's
/// appends are seen as the kernel reports them (inotify on Linux, a dispatch source on Apple
/// platforms, a poll every 100 ms only where a path cannot be watched): nothing spins while
/// nothing is appended, and a line is handed over only once its newline is written. A complete
/// line that fails its check at the very end of the log is waited on as a crashed writer's tail the
/// next writer will cut; once anything follows it, it ends the sequence as the defect it is.
///
/// The path need not exist yet: the subscription waits for the log to be created. The log is the
/// directory or file it first finds there, held open while it is followed: when it is removed,
/// the subscription waits, and follows it on if it is moved back; anything else at the path then,
/// or found there in its place at any time, is a log written anew, which ends the sequence with
/// ``NavigationHistoryError/Code/rewritten``. ``LogFollower/onWait`` is told when it waits. The
/// sequence ends (returns nil) when the iterating task is cancelled, or when the ``EventLog`` or
/// ``Recorder`` it came from is closed.
///
/// - Throws: from the iterator, ``NavigationHistoryError`` with code
///   ``NavigationHistoryError/Code/notRetained`` for a start (or a lag) behind retention,
///   ``NavigationHistoryError/Code/rewritten`` when the log changed underneath (lines already
///   read cut or replaced: a repair, or a log written anew in its place, whether or not its
///   removal was seen first), `corruptLog` for a defect, `io`; and the writer's failure, for a
///   subscription fed by one.
public struct LogSubscription: AsyncSequence, Sendable {
    /// Each event, in `seq` order.
    public typealias Element = NavigationEvent

    let path: String
    let start: SubscriptionStart
    let feed: LiveFeed?
    let onWait: (@Sendable (LogWait) -> Void)?

    init(path: String, start: SubscriptionStart, feed: LiveFeed?, onWait: (@Sendable (LogWait) -> Void)? = nil) {
        self.path = path
        self.start = start
        self.feed = feed
        self.onWait = onWait
    }

    /// An iterator that begins reading at its first ``AsyncIterator/next()``.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(core: SubscriptionCore(path: path, start: start, feed: feed, folds: false, onWait: onWait))
    }

    /// The same events, each with the navigation state after it as ``Projection/fold(_:_:)``
    /// makes it, folded from the snapshot that opens the segment the start is in.
    ///
    /// ```swift
    /// for try await step in LogFollower(path: "app.navlog").events(from: .end).withStates() {
    ///     print(step.event.seq, step.state.scenes["main"]?.visibleScreen.route.screen ?? "-")
    /// }
    /// ```
    ///
    /// - Complexity: Before its first event, a fold of the events from that segment's start (or
    ///   from a single file's start) to the start; then one fold per event.
    public func withStates() -> StatefulLogSubscription {
        StatefulLogSubscription(path: path, start: start, feed: feed, onWait: onWait)
    }

    /// Hands over a subscription's events.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let core: SubscriptionCore

        /// The next event: at once when one is there, else once one is appended.
        ///
        /// - Returns: The event, or nil when the task was cancelled or the writing log was closed.
        /// - Throws: What ``LogSubscription`` says.
        public mutating func next() async throws -> NavigationEvent? {
            try await core.next()?.event
        }
    }
}

/// An event of a subscription and the navigation state after it.
public struct FollowedEvent: Sendable {
    /// The event.
    public var event: NavigationEvent
    /// The state after the event.
    public var state: NavigationState
    /// What did not fit the state, when the event was an anomaly (the state is then unchanged).
    public var anomaly: Projection.Anomaly?
}

/// A ``LogSubscription`` whose events come with the state after each (``LogSubscription/withStates()``).
public struct StatefulLogSubscription: AsyncSequence, Sendable {
    /// Each event with the state after it.
    public typealias Element = FollowedEvent

    let path: String
    let start: SubscriptionStart
    let feed: LiveFeed?
    let onWait: (@Sendable (LogWait) -> Void)?

    /// An iterator that begins reading at its first ``AsyncIterator/next()``.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(core: SubscriptionCore(path: path, start: start, feed: feed, folds: true, onWait: onWait))
    }

    /// Hands over a subscription's events with their states.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let core: SubscriptionCore

        /// The next event and the state after it, as ``LogSubscription/AsyncIterator/next()``.
        ///
        /// - Throws: What ``LogSubscription`` says.
        public mutating func next() async throws -> FollowedEvent? {
            guard let (event, state, anomaly) = try await core.next() else { return nil }
            return FollowedEvent(event: event, state: state ?? NavigationState(), anomaly: anomaly)
        }
    }
}
