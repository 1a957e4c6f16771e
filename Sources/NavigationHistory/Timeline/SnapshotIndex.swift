import Foundation

/// The snapshot index of a log: the state every `interval` events and where to resume reading,
/// plus the log's sessions, so that any moment can be rebuilt by folding at most `interval` events.
/// A state larger than `interval` routes is kept only every so many intervals, as many as the
/// state is large (see `Building.stride(of:interval:)`): the index grows with the log, and a
/// moment is rebuilt by folding about as many events as its state holds routes.
///
/// It is a derived file beside the log (`index.navidx` in a log directory, `FILE.navidx` beside a
/// single file), versioned and checksummed line by line like the log. It is built on first need and
/// extended as the log grows; when it is missing, corrupt, of another version or interval, or no
/// longer matches the log (a line it points to is not the event it names), it is rebuilt. Deleting
/// it loses nothing.
package struct SnapshotIndex: Sendable {
    /// The format version of the index file: 2 since the sessions' checkpoints carry what tells a
    /// session ended in the background (an index of version 1 is rebuilt).
    package static let version = 2
    /// The default number of events between two states.
    package static let defaultInterval = 4096

    /// The state before one event, and where that event's line is.
    package struct Entry: Sendable, Hashable {
        package var seq: Int
        /// The name of the log file (a segment's name, or the single file's) holding the event.
        package var file: String
        package var offset: Int
        package var line: Int
        package var timestamp: Timestamp
        package var session: String
        /// Anomalies the fold met before this event, since the log's first event.
        package var anomaliesBefore: Int
        /// The state after every event before this one.
        package var state: NavigationState
        /// The sessions as counted before this event: how many were complete, and the one going on.
        package var sessions: SessionTracker.Checkpoint

        /// Whether `event`, read where the entry points, is still the entry's: when it is not, the
        /// log changed under the index.
        package func names(_ event: NavigationEvent) -> Bool {
            event.seq == seq && event.timestamp == timestamp && event.session == session
        }
    }

    package var interval: Int
    /// The recovery mode the index was built in: one built skipping defective lines (salvage) or
    /// stopping at one (pointInTime) is not used in another mode.
    package var mode: RecoveryMode = .tolerateTornTail
    package var entries: [Entry] = []
    /// The log's sessions in order, as far as the index was built.
    package var sessions: [SessionSummary] = []
    /// The first anomaly of the log, if any.
    package var firstAnomaly: Projection.Anomaly?

    package init(interval: Int) {
        self.interval = max(1, interval)
    }

    /// The path of the index of the log at `path`.
    package static func path(forLog path: String, segmented: Bool) -> String {
        segmented ? (path.hasSuffix("/") ? path : path + "/") + "index.navidx" : path + ".navidx"
    }

    /// The last entry at or before `seq`, if any.
    package func entry(atOrBefore seq: Int) -> Entry? {
        let before = entries.countOfLeading { $0.seq <= seq }
        return before > 0 ? entries[before - 1] : nil
    }

    /// The first entry after `seq`, if any.
    package func entry(after seq: Int) -> Entry? {
        let before = entries.countOfLeading { $0.seq <= seq }
        return before < entries.count ? entries[before] : nil
    }

    /// The last entry whose event happened at or before `time`, if any (the log's times are taken
    /// as non-decreasing).
    package func entry(atOrBeforeTime time: Timestamp) -> Entry? {
        let before = entries.countOfLeading { $0.timestamp <= time }
        return before > 0 ? entries[before - 1] : nil
    }
}

/// One session of a log, as `navlog sessions` lists it.
public struct SessionSummary: Sendable, Hashable {
    /// The session id.
    public var id: String
    /// The app version its `session.start` named, if any.
    public var app: String?
    /// The seq of its first and last events.
    public var firstSeq: Int, lastSeq: Int
    /// When its first and last events happened.
    public var start: Timestamp, end: Timestamp
    /// How it ended.
    public var ending: SessionEnd
    /// Its events, the store's snapshots left out.
    public var events: Int
    /// The distinct scenes its events named.
    public var scenes: Int
}
