/// When appended events are made durable (synced to the storage device).
///
/// ```swift
/// let log = try EventLog(directory: path, options: .init(durability: .everyEvent))
/// ```
public enum Durability: Sendable, Hashable {
    /// Never synced by the store: events sit in the operating system's buffers until it writes
    /// them. A process crash loses nothing; a power loss or kernel panic may lose recent events.
    case none
    /// Group commit: events are synced together, at most `maxDelay` after the first unsynced one
    /// or as soon as `maxEvents` are waiting, whichever comes first.
    case batched(maxDelay: Duration, maxEvents: Int)
    /// Every event is synced before its append returns (the ``Recorder`` syncs each batch it
    /// writes as soon as it is written).
    case everyEvent

    /// Durable within 50 ms, or after 1,000 events.
    public static let standard = Durability.batched(maxDelay: .milliseconds(50), maxEvents: 1000)
}

/// Which old segments the store deletes. The segment being written is never deleted, so the log
/// always continues at the right `seq`.
public struct Retention: Sendable, Hashable {
    /// Old segments are deleted, oldest first, while all segments together are larger than this.
    public var maxBytes: Int?
    /// Old segments last written longer ago than this are deleted.
    public var maxAge: Duration?

    /// Creates a retention policy; by default everything is kept.
    public init(maxBytes: Int? = nil, maxAge: Duration? = nil) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }

    /// Keep every segment.
    public static let keepAll = Retention()
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
