import Dispatch

/// Time travel through a log: the navigation state at any seq or moment, stepping forward and back.
///
/// Opening a timeline brings the log's snapshot index up to date (building it on first need), so
/// that seeking anywhere folds at most ``interval`` events from the nearest state before it (or,
/// where the state holds more routes than that, about as many events as it holds) — or from the
/// last `session.start`, `snapshot` or `restore` after that state, whose event replaces it.
/// Stepping back refolds from that state the events already read, without reading the log again.
/// Every event goes through ``Projection/fold(_:_:)``.
///
/// ```swift
/// let timeline = try Timeline(path: "app.navlog")
/// try timeline.seek(to: 1042)
/// print(timeline.state.scenes["main"]?.visibleScreen.route.screen ?? "-")
/// try timeline.stepBackward()
/// ```
public final class Timeline {
    /// The log.
    public let path: String
    /// The number of events between two states of the index.
    public let interval: Int
    /// How defects of the log are treated.
    public let mode: RecoveryMode
    /// The seq of the log's first and last events (nil for an empty log).
    public private(set) var firstSeq: Int?, lastSeq: Int?
    /// What reading the log found when the index was last brought up to date (the part read to
    /// update it): at opening, or when a change to the log made the timeline rebuild it.
    public private(set) var report: ReadReport
    /// Whether the index had to be built anew, and why it could not be saved, if it could not.
    public internal(set) var indexRebuilt: Bool, indexSaveError: String?

    /// The seq of the last event folded: ``firstSeq`` − 1 before the first event.
    public var seq: Int { position.seq }
    /// The state after the event at ``seq``.
    public var state: NavigationState { position.state }
    /// The event at ``seq``, nil before the first event.
    public var event: NavigationEvent? { position.event }
    /// Whether the event at ``seq`` was an anomaly, and which.
    public var anomaly: Projection.Anomaly? { position.anomaly }
    /// How many anomalies the fold met from the log's first event through ``seq``.
    public var anomalies: Int { position.anomalies }
    /// The first of those anomalies, if any.
    public var firstAnomalyThroughSeq: Projection.Anomaly? { position.firstAnomaly }

    var position: Position

    var source: LogSource
    var index: SnapshotIndex
    let useIndexFile: Bool
    /// Where the events in `window` begin, the state before the first, and the events read
    /// from it on, in order.
    var window: (start: WindowStart, state: NavigationState, events: [NavigationEvent])?
    /// The log's sessions, once read from the index.
    private var sessionList: [SessionSummary]?
    /// How many of the window's events the state has folded.
    var folded = 0
    var averageLineBytes = 200
    /// The decoding caches of this timeline's readings, warm from one seek to the next
    /// (`NavlogBench timeline --seek-log`); nil while a reading holds them.
    var caches: DecoderCaches? = DecoderCaches()
    /// The bytes a jump looks through for where its fold may begin, kept from jump to jump.
    var searchBuffer: [UInt8] = []
    /// How many events seeks and replays have read from the log since it was opened (index updates
    /// aside).
    package internal(set) var eventsRead = 0

    /// Opens the log at `path` and brings its snapshot index up to date.
    ///
    /// - Parameters:
    ///   - interval: Events between two states of the index (default 4,096; at most 1,000,000).
    ///   - mode: How defects of the log are treated.
    ///   - indexFile: Whether to read and write the index file beside the log; when false, the
    ///     index is built in memory only.
    /// - Throws: ``NavigationHistoryError`` as reading the log throws in `mode`.
    public init(path: String, interval: Int = 4096, mode: RecoveryMode = .tolerateTornTail, indexFile: Bool = true) throws {
        self.path = path
        self.interval = min(max(1, interval), 1_000_000)
        self.mode = mode
        useIndexFile = indexFile
        source = try LogSource(path: path)
        let update = try SnapshotIndex.updated(source, interval: self.interval, mode: mode, save: indexFile)
        index = update.index
        report = update.report
        indexRebuilt = update.rebuilt
        position = Position(seq: 0, state: NavigationState())
        adopt(update)
        moveBeforeFirstEvent()
    }

    /// Takes the index and what reading the log found from an update of the index.
    func adopt(_ update: SnapshotIndex.Update) {
        index = update.index
        report = update.report
        indexSaveError = update.saveError
        sessionList = nil
        firstSeq = index.entries.first?.seq
        lastSeq = update.report.lastSeq ?? index.tailSessions.last?.lastSeq
        if update.report.events > 0 { averageLineBytes = max(64, update.report.bytes / update.report.events) }
    }

    /// The log's sessions, in order: read from the index the first time they are asked for (an
    /// index file found damaged then is rebuilt).
    public var sessions: [SessionSummary] {
        if let sessionList { return sessionList }
        var list = index.sessions()
        if list == nil {
            try? updateIndexAfterChange()
            list = index.sessions()
        }
        sessionList = list ?? index.tailSessions
        return sessionList!
    }

    /// The log's sessions with the id `id`, in order (a log may use an id again): found through
    /// the index's table of ids, reading only their lines, not every session's.
    public func sessions(withID id: String) -> [SessionSummary] {
        if let sessionList { return sessionList.filter { $0.id == id } }
        if let found = index.sessions(withID: id) { return found }
        // The index file is damaged: rebuilt, then asked again.
        try? updateIndexAfterChange()
        return index.sessions(withID: id) ?? sessions.filter { $0.id == id }
    }

    /// Moves to the state after the event at `target`.
    ///
    /// - Throws: ``NavigationHistoryError`` with code `noInput` when the log holds no such seq;
    ///   what reading the log throws.
    /// - Complexity: O(``interval`` + *s*) events read and folded, at most, for a state of *s* routes.
    public func seek(to target: Int) throws {
        guard let firstSeq, let lastSeq, target >= firstSeq - 1, target <= lastSeq else {
            throw NavigationHistoryError(code: .noInput, message: "no seq \(target) in this log (it holds \(firstSeq.map { "\($0)...\(lastSeq ?? $0)" } ?? "no events"))", path: path)
        }
        if target == firstSeq - 1 {
            moveBeforeFirstEvent()
            return
        }
        if let window, window.start.seq <= target, let last = window.events.last, last.seq >= target {
            if seq > target { restart(from: window.start, state: window.state) }
            foldWindow(through: target)
            return
        }
        guard let entry = index.entry(atOrBefore: target) else { return moveBeforeFirstEvent() }
        // Stepping on from the current state reads the whole interval once; a jump reads only
        // what it needs.
        let sameInterval = window?.start.entrySeq == entry.seq
        let stepping = target == seq + 1 && sameInterval
        let next = index.entry(after: entry.seq)?.seq
        let end = stepping ? next ?? Int.max : target
        let expected = (end == Int.max ? interval : end - entry.seq) + 1
        // A jump begins at the last event up to its target that replaces the whole state, when one
        // follows the entry. A step goes on from where its window began; back past that, from the
        // entry, so that the steps after it find their events in the window.
        let reset: WholeStateLine?
        if target == seq + 1 || target == seq - 1 {
            reset = sameInterval ? window?.start.line.flatMap { $0.seq <= target ? $0 : nil } : nil
        } else {
            reset = lastWholeStateLine(after: entry, through: .seq(target), events: expected)
        }
        try read(from: entry, resettingAt: reset, events: expected, folding: { $0.seq <= target }) { $0.seq < end }
    }

    /// Moves to the state after the last event that happened at or before `time` (the log's times
    /// are taken as non-decreasing); before the first event when none did.
    ///
    /// Like a jump to a seq, it folds from the last event before it that replaces the whole
    /// state, when one follows the index's entry.
    public func seek(toTime time: Timestamp) throws {
        guard firstSeq != nil else { return }
        guard let entry = index.entry(atOrBeforeTime: time) else { return moveBeforeFirstEvent() }
        let reset = lastWholeStateLine(after: entry, through: .time(time), events: interval + 1)
        try read(from: entry, resettingAt: reset, events: interval + 1, folding: { $0.timestamp <= time }) { $0.timestamp <= time }
    }

    /// Moves one event forward; returns false at the end of the log.
    @discardableResult
    public func stepForward() throws -> Bool {
        guard let lastSeq, seq < lastSeq else { return false }
        try seek(to: seq + 1)
        return true
    }

    /// Moves one event back; returns false before the first event.
    @discardableResult
    public func stepBackward() throws -> Bool {
        guard let firstSeq, seq >= firstSeq else { return false }
        try seek(to: seq - 1)
        return true
    }

    /// Calls `body` with each event from `first` through `last` as a ``ReplayStep``: the event, the
    /// states before and after it, its anomaly and what it changed; reading the log once from the
    /// nearest state before `first`.
    ///
    /// - Complexity: O(*n* + *c*) for *n* events read and *c* routes and sheets they change, besides
    ///   the fold's own work: what each event changed is found without comparing or copying the
    ///   states, so that a session thousands of pushes deep replays in time that grows with its
    ///   events. (A `body` that keeps the states it is given makes the fold copy what it changes.)
    public func replay(from first: Int, through last: Int, _ body: (_ step: ReplayStep) throws -> Void) throws {
        try replay(from: first, through: last, retried: false, body)
    }

    /// ``replay(from:through:_:)``; from the index entry before `first` when `fromEntry`, else from
    /// the last line after it and before `first` whose event replaces the whole state, if any: a
    /// session's replay then reads its events and the session's before it, not the interval's.
    private func replay(from first: Int, through last: Int, retried: Bool, fromEntry: Bool = false,
                        _ body: (ReplayStep) throws -> Void) throws {
        guard let firstSeq, first <= last else { return }
        let start = max(first, firstSeq)
        var folding: StateFolding
        let from: EventPosition?
        var entry = index.entry(atOrBefore: start)
        // Before `start`: the first step's state before it is the fold's of the events before it.
        let reset = fromEntry ? nil : entry.flatMap { lastWholeStateLine(after: $0, through: .seq(start - 1), events: start - $0.seq) }
        // An entry whose file is no longer the log's cannot be read from: fold from the start.
        if let found = entry, let position = source.position(file: found.file, offset: found.offset, line: found.line) {
            if let reset {
                (folding, from) = (StateFolding(), reset.position)
            } else if let snapshot = index.snapshot(of: found) {
                (folding, from) = (StateFolding(snapshot.state), position)
            } else {
                guard !retried else {
                    throw NavigationHistoryError(code: .corruptLog, message: "the log's index changed while it was being read", path: path)
                }
                try updateIndexAfterChange()
                return try replay(from: first, through: last, retried: true, body)
            }
        } else {
            entry = nil
            folding = StateFolding()
            from = nil
        }
        var steps: DiffingFold?
        var stale = false
        var reader = LogReader(path: path, mode: mode)
        reader.readsAhead = false   // it stops at `last`, often within the first block
        let caches = takeCaches()
        defer { self.caches = caches }
        var read = 0
        let report = try reader.scan(files: source.files, segmented: source.segmented, from: from, caches: caches) { event, _ in
            read += 1
            if let expected = entry {
                // The first event must be the entry's (or the line's it began at), or the log
                // changed under the index.
                entry = nil
                if reset.map({ !$0.begins(with: event) }) ?? !expected.names(event) {
                    stale = true
                    return false
                }
            }
            guard event.seq <= last else { return false }
            if event.seq < start {
                folding.fold(event)
                return true
            }
            if steps == nil {
                steps = DiffingFold(folding.state)
                folding = StateFolding()   // for the steps' states to be changed in place
            }
            let (anomaly, changes) = steps!.fold(event)
            try body(ReplayStep(event: event, before: steps!.before, after: steps!.after, anomaly: anomaly, changes: changes))
            return true
        }
        eventsRead += read
        // An entry still waiting for its event got none: the log was cut short under the index.
        if stale || (entry != nil && report.stoppedAt == nil) {
            // The line looked for is not what it seemed: read from the entry, which tells.
            if reset != nil { return try replay(from: first, through: last, retried: retried, fromEntry: true, body) }
            guard !retried else {
                throw NavigationHistoryError(code: .corruptLog, message: "the log changed while it was being read", path: path)
            }
            try updateIndexAfterChange()
            // Where the timeline stood came from the log before the change: stand there again.
            if let firstSeq = self.firstSeq, let lastSeq = self.lastSeq, seq >= firstSeq { try seek(to: min(seq, lastSeq)) } else { moveBeforeFirstEvent() }
            return try replay(from: first, through: last, retried: true, body)
        }
        try mode.throwIfStopped(report)
    }

}

/// One event of a replay: the event, the states before and after it, its anomaly, and what it
/// changed.
public struct ReplayStep {
    /// The event.
    public var event: NavigationEvent
    /// The state before the event.
    public var before: NavigationState
    /// The state after the event.
    public var after: NavigationState
    /// Whether the event did not fit the state before it, and how; it then changed nothing.
    public var anomaly: Projection.Anomaly?
    /// What the event changed: what `StateDiff(from: before, to: after)` finds.
    public var changes: [StateDiff.Change]
}
