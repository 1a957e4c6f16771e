/// Follows a log that any process may be writing: a read-only view of a log directory or `.jsonl`
/// file that never takes its lock and never writes to it.
///
/// ```swift
/// let follower = LogFollower(path: "app.navlog")
/// for try await event in follower.events(from: .seq(1042)) { print(event.seq, event.type) }
/// ```
public struct LogFollower: Sendable {
    /// The log directory or file; it need not exist yet.
    public var path: String

    /// Told, once, each time a subscription begins to wait for its log: when the path does not
    /// exist as it begins, and when the log it follows is removed. Nil (by default) tells nobody.
    ///
    /// It is called on the iterating task, before it waits, so it should return quickly: to say
    /// so to a person, or to stop the task (then the sequence ends).
    ///
    /// ```swift
    /// let follower = LogFollower(path: "app.navlog", onWait: { wait in print("waiting:", wait) })
    /// ```
    public var onWait: (@Sendable (LogWait) -> Void)?

    /// A follower of the log at `path`, whose subscriptions tell `onWait` when they wait for it.
    public init(path: String, onWait: (@Sendable (LogWait) -> Void)? = nil) {
        self.path = path
        self.onWait = onWait
    }

    /// The log's events from `start` on, then each new one as it is appended.
    ///
    /// - Parameter start: Where to begin; by default the first event the log still holds.
    /// - Returns: A ``LogSubscription``; nothing is read before it is iterated.
    public func events(from start: SubscriptionStart = .oldest) -> LogSubscription {
        LogSubscription(path: path, start: start, feed: nil, onWait: onWait)
    }
}

/// Why a ``LogFollower``'s subscription waits for its log instead of reading it
/// (``LogFollower/onWait``).
public enum LogWait: Sendable, Hashable {
    /// Nothing is at the path yet: the subscription waits for a log to be created there.
    case notCreated
    /// The log followed was removed from its path: the subscription waits for it to come back.
    /// Moved back, it is followed on; anything else that comes to the path is a log written
    /// anew, which ends the sequence with ``NavigationHistoryError/Code/rewritten``.
    case removed
}
