import Dispatch

/// How a timeline reads the log: from an entry of the index, or from a line after it whose event
/// replaces the whole state, into a window of events it folds and steps through.
extension Timeline {
    /// The most events of a window that a reading frees on its own thread (`NavlogBench seeks`).
    private static let eventsFreedHere = 512

    /// The last line from `entry` through `target` (a seq, or the events at or before a time)
    /// whose event sets the whole state (a `session.start`, a `snapshot`, a `restore`), where a
    /// reading may begin instead of at the entry, with its seq: nil when there is none, or the
    /// anomalies the fold meets before it are not known without folding from the entry.
    ///
    /// A log of many short sessions mostly has one: a seek then folds the events of its session
    /// only, not of the interval, and decodes no state (`NavlogBench seeks`). The lines are looked
    /// for in an interval in which a session ended, in the entry's file, or, by seq, in the file
    /// after it (``lastWholeStateLineInNextFile(after:at:next:through:events:)``); the entry's line
    /// must still be the entry's event.
    func lastWholeStateLine(after entry: SnapshotIndex.Entry, through target: ReadingTarget, events expected: Int)
        -> WholeStateLine? {
        let next = index.entry(after: entry.seq)
        guard let start = source.position(file: entry.file, offset: entry.offset, line: entry.line) else { return nil }
        var found: WholeStateLine?
        var startsWith: ((NavigationEvent) -> Bool)? = entry.names
        if case .seq(let seq) = target, start.file + 1 < source.files.count, next.map({ $0.file != entry.file }) ?? true {
            // The entry's line is checked once, here, for the looks in both files.
            guard let event = source.event(file: entry.file, offset: entry.offset), entry.names(event) else { return nil }
            startsWith = nil
            found = lastWholeStateLineInNextFile(after: entry, at: start, next: next, through: seq, events: expected)
        }
        if found == nil, next.map({ $0.sessionsCompleted > entry.sessionsCompleted }) ?? true {
            found = LogReader.lastWholeStateLine(in: source.files[start.file], from: start, through: target,
                                                 within: readBytes(from: entry, events: expected), startsWith: startsWith, buffer: &searchBuffer)
        }
        guard let found else { return nil }
        let noAnomalyBefore = index.firstAnomaly.map { $0.seq >= found.seq } ?? true
        guard noAnomalyBefore || next.map({ $0.anomaliesBefore == entry.anomaliesBefore }) == true else { return nil }
        return found
    }

    /// The last line through the seq `target` that sets the whole state in the file after the
    /// entry's, into which the entry's interval may go on: every segment the store writes begins
    /// with a `snapshot`, so a seek past a segment's start folds from there, not from the last
    /// session start of the segment before (`NavlogBench timeline --seek-log`, its p99). Nil when
    /// the interval's lines there are none, or the target comes before the file's first
    /// whole-state line.
    private func lastWholeStateLineInNextFile(after entry: SnapshotIndex.Entry, at start: EventPosition, next: SnapshotIndex.Entry?,
                                              through target: Int, events expected: Int) -> WholeStateLine? {
        let file = start.file + 1
        // The interval's lines in that file come after those in the entry's, and before the next entry.
        var bytes = readBytes(from: entry, events: expected)
        if let next, next.file == source.names[file] { bytes = min(bytes, next.offset) }
        guard bytes > 0 else { return nil }
        return LogReader.lastWholeStateLine(in: source.files[file], from: EventPosition(file: file, offset: 0, line: 1), through: .seq(target),
                                            within: bytes, startsWith: nil, buffer: &searchBuffer)
    }

    /// About how many bytes `events` lines from `entry` on take: the interval's own line length
    /// when the next entry is in the same file. A short estimate only costs a second read.
    private func readBytes(from entry: SnapshotIndex.Entry, events: Int) -> Int {
        var lineBytes = averageLineBytes
        if let next = index.entry(after: entry.seq), next.file == entry.file {
            lineBytes = max(16, (next.offset - entry.offset) / (next.seq - entry.seq))
        }
        return events * lineBytes * 17 / 16 + 4096
    }

    /// The caches for a reading, which gives them back when done: a reading begun while another
    /// holds them (a replay's body that seeks) decodes with caches of its own.
    func takeCaches() -> DecoderCaches {
        defer { caches = nil }
        return caches ?? DecoderCaches()
    }

    /// Moves before the log's first event, to the empty state.
    func moveBeforeFirstEvent() {
        window = nil
        folded = 0
        position = Position(seq: (firstSeq ?? 1) - 1, state: NavigationState())
    }

    /// Reads the events from `entry` on while `more` says so (and one past) into the window, and
    /// folds them from the entry's state as they come while `folding` says so: the fold on this
    /// thread overlaps the decoding on the others. `expected` is about how many events that is from
    /// the entry, to read no more of the log than needed. With `reset`, a line after the entry whose
    /// event sets the whole state, reads from there instead, and from the entry when that line's
    /// event does not.
    func read(from entry: SnapshotIndex.Entry, resettingAt reset: WholeStateLine? = nil, events expected: Int,
              folding: (NavigationEvent) -> Bool, while more: (NavigationEvent) -> Bool, retried: Bool = false) throws {
        let begin: WindowStart
        let from: EventPosition
        let state: NavigationState
        if let reset {
            // Its event replaces whatever state stands before it.
            (begin, from, state) = (WindowStart(seq: reset.seq, anomaliesBefore: entry.anomaliesBefore, entrySeq: entry.seq, line: reset),
                                    reset.position, NavigationState())
        } else {
            guard let start = source.position(file: entry.file, offset: entry.offset, line: entry.line),
                  let snapshot = index.snapshot(of: entry) else {
                return try rebuildIndex(thenRead: entry, expected, folding, more, retried: retried)
            }
            (begin, from, state) = (WindowStart(seq: entry.seq, anomaliesBefore: entry.anomaliesBefore, entrySeq: entry.seq, line: nil),
                                    start, snapshot.state)
        }
        restart(from: begin, state: state)
        let reading = expected - (begin.seq - entry.seq)
        // The last window's events are freed on another core, as a rule: freeing a few thousand
        // events would cost this thread about a tenth of a seek. The reading's worker frees them
        // once it has decoded its parts; when no worker ran, another thread does, after the reading.
        // A window of a few hundred is freed here: handing it over would cost more than freeing it.
        let discarded = window.flatMap { $0.events.count > Self.eventsFreedHere ? Locked<(any Sendable)?>($0) : nil }
        window = nil
        // Folded here, not in the timeline's own property: a class's property would be checked
        // for overlapping access at every event.
        var position = self.position
        var events: [NavigationEvent] = []
        events.reserveCapacity(reading)
        var stillFolding = true
        var foldedNow = 0
        var stale = false
        let estimate = readBytes(from: entry, events: reading)
        var reader = LogReader(path: path, mode: mode, blockSize: min(4 << 20, estimate))
        reader.parallelBytes = 48 << 10
        reader.readsAhead = false
        // A few pages are copied: mapping them, faulting them in and unmapping them costs more.
        if estimate < 64 << 10 { reader.mapsFiles = false }
        reader.discarded = discarded
        defer {
            if let discarded, discarded.withLock({ $0 != nil }) { DispatchQueue.global().async { discarded.withLock { $0 = nil } } }
        }
        let identity = entry.identity
        let caches = takeCaches()
        defer { self.caches = caches }
        let report = try reader.scan(files: source.files, segmented: source.segmented, from: from, caches: caches) { event, _ in
            if events.isEmpty, reset.map({ !$0.begins(with: event) }) ?? !identity.names(event) {
                stale = true
                return false
            }
            events.append(event)
            if stillFolding {
                stillFolding = folding(event)
                if stillFolding {
                    position.fold(event, keeping: false)
                    foldedNow += 1
                }
            }
            return more(event)
        }
        if stale {
            // The line looked for is not what it seemed (damaged, or not the event it began as):
            // read from the entry, which tells whether the log changed.
            if reset != nil { return try read(from: entry, events: expected, folding: folding, while: more, retried: retried) }
            return try rebuildIndex(thenRead: entry, expected, folding, more, retried: retried)
        }
        if foldedNow > 0 { position.event = events[foldedNow - 1] }
        self.position = position
        eventsRead += events.count
        try mode.throwIfStopped(report)
        window = (begin, state, events)
        folded = foldedNow
    }

    /// The log changed under the index: rebuild it, then read again from the matching entry.
    private func rebuildIndex(thenRead entry: SnapshotIndex.Entry, _ expected: Int, _ folding: (NavigationEvent) -> Bool,
                              _ more: (NavigationEvent) -> Bool, retried: Bool) throws {
        guard !retried else {
            throw NavigationHistoryError(code: .corruptLog, message: "the log changed while it was being read", path: path)
        }
        try updateIndexAfterChange()
        guard let fresh = index.entry(atOrBefore: entry.seq) else { return moveBeforeFirstEvent() }
        try read(from: fresh, events: expected, folding: folding, while: more, retried: true)
    }

    /// The log changed under the index: builds it anew from the log as it is now.
    func updateIndexAfterChange() throws {
        window = nil   // its events are the log's before the change
        folded = 0
        if useIndexFile { try? FileSystem.remove(SnapshotIndex.path(forLog: path, segmented: source.segmented)) }
        source = try LogSource(path: path)
        adopt(try SnapshotIndex.updated(source, interval: interval, mode: mode, save: useIndexFile))
        indexRebuilt = true
    }

    func restart(from start: WindowStart, state: NavigationState) {
        folded = 0
        position = Position(seq: start.seq - 1, state: state, anomalies: start.anomaliesBefore,
                            firstAnomaly: index.firstAnomaly.flatMap { $0.seq < start.seq ? $0 : nil })
    }

    /// Folds the window's events after ``seq`` through `target`.
    func foldWindow(through target: Int) {
        guard let window else { return }
        var position = self.position   // folded locally, as in `read`
        while folded < window.events.count, window.events[folded].seq <= target {
            position.fold(window.events[folded])
            folded += 1
        }
        self.position = position
    }

    /// Where a window's events begin: at an entry of the index, or at a line after it, in its
    /// interval, whose event sets the whole state.
    struct WindowStart {
        /// The seq of the first event.
        var seq: Int
        /// How many anomalies the fold met before it.
        var anomaliesBefore: Int
        /// The seq of the index's entry whose interval the window is in.
        var entrySeq: Int
        /// The line it begins at when not the entry's: one whose event replaces the whole state.
        var line: WholeStateLine?
    }

    /// Where a timeline stands: the state after the event at `seq`, and what folding to it met.
    struct Position {
        var seq: Int
        var state: NavigationState { folding.state }
        private var folding: StateFolding
        var event: NavigationEvent?
        var anomaly: Projection.Anomaly?
        var anomalies = 0
        var firstAnomaly: Projection.Anomaly?

        init(seq: Int, state: NavigationState, anomalies: Int = 0, firstAnomaly: Projection.Anomaly? = nil) {
            self.seq = seq
            self.folding = StateFolding(state)
            self.anomalies = anomalies
            self.firstAnomaly = firstAnomaly
        }

        /// Folds `next`; `keeping` says whether to keep it as ``event`` now, which a caller folding a
        /// run of events does once at the end instead: keeping each would copy it.
        mutating func fold(_ next: NavigationEvent, keeping: Bool = true) {
            anomaly = folding.fold(next)
            if let anomaly {
                anomalies += 1
                if firstAnomaly == nil { firstAnomaly = anomaly }
            }
            if keeping { event = next }
            seq = next.seq
        }
    }
}
