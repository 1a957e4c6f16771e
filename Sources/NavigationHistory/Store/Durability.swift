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

    /// When set, retention follows shipping: a sealed segment acknowledged by
    /// ``EventLog/markShipped(_:)`` is deleted (oldest first, and only while no older one is
    /// unshipped), an unshipped one is kept while the unshipped segments together take at most
    /// this many bytes, and past that the oldest unshipped ones are deleted and counted
    /// (``PendingShipments/droppedUnshipped``), never silently. ``maxBytes`` and ``maxAge`` are
    /// then not applied.
    public var maxUnshippedBytes: Int?

    /// Creates a retention policy; by default everything is kept.
    public init(maxBytes: Int? = nil, maxAge: Duration? = nil, maxUnshippedBytes: Int? = nil) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
        self.maxUnshippedBytes = maxUnshippedBytes
    }

    /// Keep every segment.
    public static let keepAll = Retention()

    /// Keep what is not shipped yet, up to `cap` bytes of it (by default 32 MiB); delete what is.
    public static func untilShipped(keepingUnshippedUpTo cap: Int = 32 << 20) -> Retention {
        Retention(maxUnshippedBytes: max(0, cap))
    }
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
