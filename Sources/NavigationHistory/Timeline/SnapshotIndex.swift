import Foundation

/// The snapshot index of a log: the state every `interval` events and where to resume reading,
/// plus the log's sessions, so that any moment can be rebuilt by folding at most `interval` events.
/// A state larger than `interval` routes is kept only every so many intervals, as many as the
/// state is large (see `Building.stride(of:interval:)`): the index grows with the log, and a
/// moment is rebuilt by folding about as many events as its state holds routes.
///
/// It is a derived file beside the log (`index.navidx` in a log directory, `FILE.navidx` beside a
/// single file), made to be opened, not parsed (see `SnapshotIndex+File.swift`): a checksummed
/// header, a table of fixed-width entries found by binary search, one blob per entry holding its
/// state (decoded only when that entry is used), and the sessions apart, read only by who needs
/// them. It is built on first need and extended as the log grows; when it is missing, damaged, of
/// another version, interval or mode, or no longer matches the log (a line it points to is not the
/// event it names), it is rebuilt. Deleting it loses nothing.
package struct SnapshotIndex: Sendable {
    /// The format version of the index file: a binary table with state blobs since 3, and 4
    /// since the fold starts a restore's scenes `active`. An index of another version holds
    /// what an earlier fold made (1 and 2 are JSON lines) and is rebuilt.
    package static let version = 4
    /// The default number of events between two states.
    package static let defaultInterval = 4096

    /// Where to resume before one event: the event's line, what was counted before it, and where
    /// its blob (the state before it and the sessions' checkpoint) is.
    package struct Entry: Sendable, Hashable {
        package var seq: Int
        /// The name of the log file (a segment's name, or the single file's) holding the event.
        package var file: String
        package var offset: Int
        package var line: Int
        package var timestamp: Timestamp
        /// The CRC-32C of the event's session id, to tell the event is still the entry's.
        package var sessionChecksum: UInt32
        /// Anomalies the fold met before this event, since the log's first event.
        package var anomaliesBefore: Int
        /// How many sessions were complete before this event.
        package var sessionsCompleted: Int
        /// Where the entry's ``Snapshot`` is in the index's blobs, and its CRC-32C.
        package var blobOffset: Int, blobLength: Int, blobChecksum: UInt32

        /// Whether `event`, read where the entry points, is still the entry's: when it is not, the
        /// log changed under the index.
        package func names(_ event: NavigationEvent) -> Bool { identity.names(event) }

        /// What tells the entry's event, without the file's name: a value copied without retaining
        /// anything, for a reading's closure to hold (an entry held there was copied at every event
        /// the reading handed over, 5% of a seek's instructions: callgrind,
        /// `NavlogBench timeline --seek-log`).
        package var identity: EventIdentity { EventIdentity(seq: seq, timestamp: timestamp, sessionChecksum: sessionChecksum) }
    }

    /// The seq, time and session checksum of an entry's event.
    package struct EventIdentity: Sendable {
        let seq: Int
        let timestamp: Timestamp
        let sessionChecksum: UInt32

        /// Whether `event` is the event these describe.
        package func names(_ event: NavigationEvent) -> Bool {
            event.seq == seq && event.timestamp == timestamp && CRC32C.checksum(event.session.utf8) == sessionChecksum
        }
    }

    /// What an entry's blob holds: the state before its event, the event's session, and the
    /// sessions as counted before it (`completed` is the entry's ``Entry/sessionsCompleted``).
    package struct Snapshot: Sendable, Hashable {
        package var state: NavigationState
        package var session: String
        package var sessions: SessionTracker.Checkpoint
    }

    package var interval: Int
    /// The recovery mode the index was built in: one built skipping defective lines (salvage) or
    /// stopping at one (pointInTime) is not used in another mode.
    package var mode: RecoveryMode = .tolerateTornTail
    package var entries: [Entry] = []
    /// The entries' snapshots, encoded.
    package var blobs = Blobs(file: nil, fileEnd: Layout.headerSize)
    /// The sessions complete before the last entry (all the log's before the first when there is
    /// none): where the index file has them, and those found since it was read.
    var sessionPrefix = SessionPrefix()
    /// The sessions from the last entry on, as far as the index was built.
    package var tailSessions: [SessionSummary] = []
    /// The first anomaly of the log, if any.
    package var firstAnomaly: Projection.Anomaly?
    /// The header of the index file it was opened from, if it was.
    var openedHeader: Layout.Header?

    package init(interval: Int) {
        self.interval = max(1, interval)
    }

    /// The name of the index file in a log directory.
    package static let fileName = "index.navidx"

    /// The path of the index of the log at `path`.
    package static func path(forLog path: String, segmented: Bool) -> String {
        segmented ? (path.hasSuffix("/") ? path : path + "/") + fileName : path + ".navidx"
    }

    /// The snapshot of `entry`, decoded from its blob; nil when the blob cannot be read or is
    /// damaged (the index file changed under it).
    package func snapshot(of entry: Entry) -> Snapshot? {
        guard let bytes = blobs.bytes(at: entry.blobOffset, count: entry.blobLength),
              CRC32C.checksum(bytes) == entry.blobChecksum, var snapshot = Self.snapshot(decoding: bytes) else { return nil }
        snapshot.sessions.completed = entry.sessionsCompleted
        return snapshot
    }

    /// The log's sessions in order, as far as the index was built; nil when the index file no
    /// longer holds them (it changed under the index).
    package func sessions() -> [SessionSummary]? {
        guard let prefix = sessionPrefix.sessions() else { return nil }
        return prefix + tailSessions
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

/// The encoded snapshots of an index's entries: those already in the index file (before
/// `fileEnd`) and those made since it was read (from `fileEnd` on), at offsets of the file.
package struct Blobs: Sendable {
    /// The index file holding the bytes before `fileEnd`; nil for an index kept in memory only.
    var file: String?
    /// Where the bytes not yet in the file begin: the first one is at this offset of the file.
    var fileEnd: Int
    var pending: [UInt8] = []

    /// The offset the next blob appended gets.
    var end: Int { fileEnd + pending.count }

    /// `count` bytes at `offset`, or nil when they cannot be read.
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        if offset >= fileEnd {
            let start = offset - fileEnd
            guard start + count <= pending.count else { return nil }
            return Array(pending[start..<start + count])
        }
        guard let file, offset + count <= fileEnd, let bytes = try? FileSystem.read(file, from: offset, count: count),
              bytes.count == count else { return nil }
        return bytes
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
