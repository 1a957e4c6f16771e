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

    /// A follower of the log at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The log's events from `start` on, then each new one as it is appended.
    ///
    /// - Parameter start: Where to begin; by default the first event the log still holds.
    /// - Returns: A ``LogSubscription``; nothing is read before it is iterated.
    public func events(from start: SubscriptionStart = .oldest) -> LogSubscription {
        LogSubscription(path: path, start: start, feed: nil)
    }
}
