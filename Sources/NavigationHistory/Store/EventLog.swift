/// The write side of a log: a directory of segments `NNNNNNNN.jsonl` that events are appended to,
/// durably, by one writer at a time.
///
/// Opening a log takes its single-writer lock, finishes or undoes whatever a crash interrupted (a
/// torn last line is cut off and kept beside its segment as `<segment>.torn`; a segment that was
/// being created and never renamed is removed) and folds the last segment to know the current
/// state. Each append gets the next `seq`; segments are rotated at ``Options/segmentSize``, each new
/// one starting with a `snapshot` of the state at that point. Events are made durable as
/// ``Options/durability`` says, on ``sync()`` and on ``close()``. Used on its own, an `EventLog`
/// checks a `batched` policy's delay at each append (it has no timer: call ``sync()`` when the app
/// goes idle); a ``Recorder`` syncs on time.
///
/// A failed write or sync makes the log read-only: the error is thrown to the caller, every later
/// append throws ``NavigationHistoryError/Code/readOnly``, and nothing is retried as if it had been
/// written. Reopen the log to go on; the reopening truncates whatever the failure left torn.
///
/// ```swift
/// let log = try EventLog(directory: "app.navlog", options: .init(durability: .everyEvent))
/// let seq = try log.append(.push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "42")),
///                          session: "s1")
/// try log.close()
/// ```
///
/// `EventLog` is not thread-safe: use it from one thread at a time, or through a ``Recorder``.
public final class EventLog {
    /// How a log is written.
    public struct Options: Sendable, Hashable {
        /// The size in bytes at which a segment is closed and the next one started.
        public var segmentSize: Int
        /// When appended events are made durable.
        public var durability: Durability
        /// Which old segments are deleted.
        public var retention: Retention
        /// Events between two `snapshot` events within a segment (nil: only at segment starts), so
        /// that the state at the end of the log is never more than this many events from one: what
        /// makes a restore's cost independent of the log's length.
        public var snapshotInterval: Int?

        /// Creates options; by default segments of 8 MiB, durable within 50 ms, nothing deleted.
        public init(segmentSize: Int = 8 << 20, durability: Durability = .standard, retention: Retention = .keepAll,
                    snapshotInterval: Int? = 2048) {
            self.snapshotInterval = snapshotInterval.map { max(1, $0) }
            self.segmentSize = max(segmentSize, 1)
            self.durability = durability
            self.retention = retention
        }
    }

    /// The log directory.
    public let directory: String
    /// How the log is written.
    public let options: Options
    /// The `seq` the next event gets.
    public private(set) var nextSeq: Int
    /// The last `seq` known to be durable (0 when there is none).
    public private(set) var durableSeq: Int
    /// The navigation state after the last event, as ``Projection`` folds it.
    public private(set) var state: NavigationState
    /// What opening the log found and repaired.
    public let recovery: Recovery

    private var lock: DirectoryLock?
    private var segment: WritableFile?
    private(set) var segmentNumber: Int
    private(set) var segmentBytes: Int
    /// The segment's size when it was last synced: what a failed sync cuts it back to.
    private var durableBytes: Int
    private var failure: NavigationHistoryError?
    private var unsyncedCount = 0
    private var firstUnsynced: ContinuousClock.Instant?
    private var encoder = JSONWriter(capacity: 64 << 10)
    private var closed = false
    /// The seq of the last `snapshot` written (or found on opening).
    private var lastSnapshotSeq: Int
    /// The bytes of the current segment's opening snapshot: a segment is rotated only once its
    /// events take as many, so a large state is not written again for every few events.
    private(set) var openingBytes: Int
    /// What keeps the state writable as a snapshot.
    private(set) var budget: SnapshotBudget
    /// The session and time of the last event: those of the snapshot a ``seal()`` starts the
    /// next segment with.
    private(set) var lastEvent: (session: String, timestamp: Timestamp)
    /// Where this log's subscriptions get its events, and the events written but not yet published.
    let feed = LiveFeed()
    var unpublished: [NavigationEvent] = [], collects = false

    /// Called at each step of a segment rotation, retention, sync and acknowledgement, so tests
    /// can stop the log there as a crash would.
    package var faultHook: ((FaultPoint) throws -> Void)?

    /// A step of the store where a crash is simulated in tests; named, so a test process can name
    /// one to another.
    package enum FaultPoint: String, Sendable, Hashable, CaseIterable {
        case segmentTemporaryWritten, segmentRenamed, segmentDirectorySynced, sealedManifestAppended, segmentDeleted
        case beforeWrite, beforeSync
        case shippingCursorTemporaryWritten, shippingCursorRenamed, shippingCursorDirectorySynced
    }

    /// Opens the log in `directory`, creating it when missing.
    ///
    /// - Throws: ``NavigationHistoryError`` with code `locked` when another writer holds the log,
    ///   `corruptLog` when the last segment is damaged before its tail (run
    ///   `navlog verify --mode salvage`), `io` when the file system fails.
    /// - Complexity: O(size of the last segment): earlier segments are not read.
    public init(directory: String, options: Options = Options()) throws {
        try FileSystem.createDirectory(directory)
        self.directory = directory
        self.options = options
        lock = try DirectoryLock(directory: directory)
        let opened = try Opening.open(directory)
        recovery = opened.recovery
        state = opened.state
        nextSeq = opened.lastSeq + 1
        durableSeq = opened.lastSeq
        segmentNumber = opened.segmentNumber
        segmentBytes = opened.segmentBytes
        durableBytes = opened.segmentBytes
        lastSnapshotSeq = opened.lastSnapshotSeq
        openingBytes = opened.openingBytes
        budget = SnapshotBudget(opened.state, session: opened.lastSession)
        lastEvent = (opened.lastSession, opened.lastTimestamp)
        if segmentNumber > 0 {
            segment = try WritableFile(path: segmentPath(segmentNumber))
        }
    }

    /// Appends one event and returns its `seq`.
    ///
    /// - Throws: ``NavigationHistoryError`` with code `invalidEvent` when the event's line would
    ///   break the format (nothing is written); `readOnly` after an earlier failure; `io` when the
    ///   write or sync fails (the log is then read-only).
    @discardableResult
    public func append(_ action: NavigationAction, session: String, at timestamp: Timestamp = .now) throws -> Int {
        try append(contentsOf: CollectionOfOne(EventDraft(action: action, session: session, timestamp: timestamp)))
    }

    /// Appends events in order with one write per segment, and returns the last one's `seq`.
    ///
    /// When an event would break the format it is refused with the events after it, and the ones
    /// before it are appended; ``appendedByLastCall`` says how many.
    ///
    /// - Throws: as ``append(_:session:at:)``.
    @discardableResult
    public func append(contentsOf drafts: some Collection<EventDraft>) throws -> Int {
        appendedByLastCall = 0
        writtenByLastCall = (0, nextSeq - 1)
        durableByLastCall = writtenByLastCall
        lastAppendedSeq = nextSeq - 1
        try checkWritable()
        collects = feed.isListened
        defer { publishWritten() }
        var refusal: NavigationHistoryError?
        for draft in drafts {
            // A snapshot is written in the draft's session and at its time, which the draft's own
            // check below has not judged yet: one the reader would refuse is left out, and then
            // the draft is refused too, for the same session or time.
            var firstSegmentMissing = false
            if rotationIsDue {
                try writeEncoded()
                firstSegmentMissing = try !rotate(session: draft.session, at: draft.timestamp) && segment == nil
            } else if let interval = options.snapshotInterval, nextSeq - lastSnapshotSeq >= interval {
                appendSnapshot(session: draft.session, at: draft.timestamp)
            }
            let event = NavigationEvent(seq: nextSeq, timestamp: draft.timestamp, session: draft.session, action: draft.action)
            let start = encoder.bytes.count
            LineEncoder.append(event, to: &encoder)
            var problem = encoder.bytes.withUnsafeBytes { Self.problem(event, line: UnsafeRawBufferPointer(rebasing: $0[start...])) }
            if problem == nil, firstSegmentMissing {
                problem = "a '\(draft.action.type)' event the store cannot write: its session id is too long for the snapshot"
                    + " that starts the log's first segment to fit a line"
            }
            if let problem {
                encoder.bytes.removeSubrange(start...)
                refusal = NavigationHistoryError(code: .invalidEvent, message: problem, path: directory)
                break
            }
            do {
                _ = try budget.fold(event, lineLength: encoder.bytes.count - start - 1, into: &state)
            } catch {
                encoder.bytes.removeSubrange(start...)
                refusal = NavigationHistoryError(code: .invalidEvent, message: error.message, path: directory)
                break
            }
            if collects { unpublished.append(event) }
            nextSeq += 1
            appendedByLastCall += 1
            lastAppendedSeq = event.seq
            if encoder.bytes.count >= 1 << 20 { try writeEncoded() }
        }
        if appendedByLastCall > 0, let last = drafts.dropFirst(appendedByLastCall - 1).first {
            lastEvent = (last.session, last.timestamp)
        }
        try writeEncoded()
        try syncAsThePolicySays()
        if let refusal { throw refusal }
        return nextSeq - 1
    }

    /// Whether the next event goes into a new segment: there is none yet, or the current one is
    /// full and its events take at least as many bytes as its opening snapshot.
    private var rotationIsDue: Bool {
        guard segment != nil else { return true }
        let bytes = segmentBytes + encoder.bytes.count
        return bytes >= options.segmentSize && bytes >= 2 * openingBytes
    }

    /// Encodes a `snapshot` of the state as the next event.
    private func appendSnapshot(session: String, at timestamp: Timestamp) {
        lastSnapshotSeq = nextSeq
        if Self.encodeSnapshot(of: state, seq: nextSeq, session: session, at: timestamp, to: &encoder) {
            collectSnapshot(session: session, at: timestamp)
            nextSeq += 1
        }
    }

    /// Appends the `snapshot` line of `state` to `writer`, unless the reader would refuse it;
    /// returns whether it did. Snapshots are rare: each is decoded, as every line the store writes.
    ///
    /// The ``SnapshotBudget`` keeps every state the log reaches within a line in the session of the
    /// event that led to it; a snapshot written in the session of the next event, when that one's
    /// id is longer, or of a state an earlier version let grow, may still be too long, and one in
    /// an event's invalid session or at its invalid time is refused with that event.
    static func encodeSnapshot(of state: NavigationState, seq: Int, session: String, at timestamp: Timestamp,
                                       to writer: inout JSONWriter) -> Bool {
        let start = writer.bytes.count
        let snapshot = NavigationEvent(seq: seq, timestamp: timestamp, session: session, action: .snapshot(state: state))
        LineEncoder.append(snapshot, to: &writer)
        let readable = writer.bytes.withUnsafeBytes { bytes in
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<(bytes.count - 1)])
            return (try? LineDecoder.decode(line)) != nil
        }
        guard readable else {
            writer.bytes.removeSubrange(start...)
            return false
        }
        return true
    }

    /// Whether the log has a segment yet: its first event also writes the first segment's snapshot.
    var hasSegment: Bool { segment != nil }

    /// How many events the last ``append(contentsOf:)`` appended, also when it threw.
    public private(set) var appendedByLastCall = 0

    /// What the log's files hold of the last ``append(contentsOf:)``, also when it threw: how
    /// many of its events, and the seq the last of them got. A failed write or sync cuts the
    /// segment back to what was written (or synced) before it, so after a failure this is what
    /// a reader of the log shows, and where a caller resumes; nil when that cut failed too, and
    /// the files may hold more of the events (a reader shows which).
    public private(set) var writtenByLastCall: (events: Int, lastSeq: Int)? = (0, 0)
    /// The part of ``writtenByLastCall`` synced: what a failed sync leaves.
    private var durableByLastCall: (events: Int, lastSeq: Int)? = (0, 0)
    /// The seq of the last event the current ``append(contentsOf:)`` encoded.
    private var lastAppendedSeq = 0

    /// Makes every appended event durable.
    ///
    /// - Throws: `readOnly` after an earlier failure; `io` when the sync fails (the log is then
    ///   read-only).
    public func sync() throws {
        try checkWritable()
        guard durableSeq < nextSeq - 1, let segment else { return }
        try guarded {
            do {
                try faultHook?(.beforeSync)
                try segment.sync()
            } catch {
                // After a failed sync the kernel may drop the pages or mark them clean; either way
                // they were never durable, and a reopen must not find them and take them for durable.
                let cut = (try? segment.truncate(to: durableBytes)) != nil
                writtenByLastCall = cut ? durableByLastCall : nil
                throw error
            }
        }
        durableByLastCall = writtenByLastCall
        durableSeq = nextSeq - 1
        durableBytes = segmentBytes
        unsyncedCount = 0
        firstUnsynced = nil
        publishWritten()
    }

    /// Whether a `batched` policy's delay has passed for the oldest unsynced event.
    package func syncIsDue(now: ContinuousClock.Instant = .now) -> Bool {
        guard case .batched(let delay, _) = options.durability, let first = firstUnsynced else { return false }
        return now - first >= delay
    }

    /// Makes everything durable and releases the log's lock; the log takes no more events.
    /// The lock is released also when this throws.
    ///
    /// - Throws: the error of the final sync, or of an earlier failure.
    public func close() throws {
        guard !closed else { return }
        defer {
            closed = true
            segment = nil
            lock = nil
            feed.finish(failure)
        }
        if let failure { throw failure }
        try sync()
    }

    // MARK: Writing

    func checkWritable() throws {
        if closed { throw NavigationHistoryError(code: .readOnly, message: "the log is closed", path: directory) }
        if let failure {
            throw NavigationHistoryError(code: .readOnly, message: "the log is read-only after an earlier failure (\(failure.message)); reopen it to go on",
                                         path: failure.path ?? directory, errno: failure.errno)
        }
    }

    /// Runs a file operation; a failure makes the log read-only.
    func guarded<T>(_ operation: () throws -> T) throws -> T {
        do { return try operation() } catch let error as NavigationHistoryError {
            failure = error
            feed.finish(error)
            throw error
        }
    }

    /// Writes the encoded lines to the current segment. After a failed write the segment is cut
    /// back to its last complete line, when the file system still allows it.
    private func writeEncoded() throws {
        guard !encoder.bytes.isEmpty, let segment else { return }
        try guarded {
            try faultHook?(.beforeWrite)
            do {
                try encoder.bytes.withUnsafeBytes { try segment.write($0) }
            } catch {
                if (try? segment.truncate(to: segmentBytes)) == nil { writtenByLastCall = nil }
                throw error
            }
        }
        writtenByLastCall = (appendedByLastCall, lastAppendedSeq)
        segmentBytes += encoder.bytes.count
        encoder.bytes.removeAll(keepingCapacity: true)
        unsyncedCount = nextSeq - 1 - durableSeq
        if firstUnsynced == nil { firstUnsynced = .now }
    }

    private func syncAsThePolicySays() throws {
        switch options.durability {
        case .none: return
        case .everyEvent: try sync()
        case .batched(_, let maxEvents):
            if unsyncedCount >= maxEvents || syncIsDue() { try sync() }
        }
    }

    // MARK: Segments

    func segmentPath(_ number: Int) -> String {
        directory + "/" + Opening.segmentName(number)
    }

    /// Starts the next segment with a snapshot of the state: temporary file → sync → rename →
    /// sync of the directory, so a segment is either absent or starts with a complete snapshot.
    /// The previous segment is synced first, so no later segment can outlive its tail.
    ///
    /// When the snapshot would be too long for a line, nothing is done and this returns false: the
    /// current segment goes on, and the state the next event leads to fits one, as the budget sees to.
    func rotate(session: String, at timestamp: Timestamp) throws -> Bool {
        var line = JSONWriter(capacity: 4096)
        guard Self.encodeSnapshot(of: state, seq: nextSeq, session: session, at: timestamp, to: &line) else { return false }
        if segment != nil { try sync() }
        let number = segmentNumber + 1
        guard number <= Opening.maximumSegmentNumber else {
            throw NavigationHistoryError(code: .io, message: "the log has reached its last segment number (\(Opening.maximumSegmentNumber)); start a new log", path: directory)
        }
        let path = segmentPath(number)
        let temporary = path + Opening.temporarySuffix
        try guarded {
            try FileSystem.remove(temporary)
            try FileSystem.writeNewFile(temporary, line.bytes)
            try faultHook?(.segmentTemporaryWritten)
            try FileSystem.rename(temporary, path)
            try faultHook?(.segmentRenamed)
            try FileSystem.syncDirectory(directory)
            try faultHook?(.segmentDirectorySynced)
            segment = try WritableFile(path: path)
        }
        if number > 1 { try recordSealed(number - 1, bytes: segmentBytes) }
        segmentNumber = number
        segmentBytes = line.bytes.count
        durableBytes = line.bytes.count
        openingBytes = line.bytes.count
        lastSnapshotSeq = nextSeq
        collectSnapshot(session: session, at: timestamp)
        nextSeq += 1
        durableSeq = nextSeq - 1
        try applyRetention()
        return true
    }
}
