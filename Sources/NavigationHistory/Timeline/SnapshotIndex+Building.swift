import Foundation

/// The files of a log, for reading it from any position.
package struct LogSource: Sendable {
    package let path: String
    package let files: [String]
    package let segmented: Bool
    /// The files' names (a segment's `NNNNNNNN.jsonl`, or the single file's name).
    package let names: [String]

    package init(path: String) throws {
        self.path = path
        (files, segmented) = try LogFiles.resolve(path)
        names = files.map { ($0 as NSString).lastPathComponent }
    }

    /// The position of a line in the log, given its file's name.
    package func position(file name: String, offset: Int, line: Int) -> EventPosition? {
        names.firstIndex(of: name).map { EventPosition(file: $0, offset: offset, line: line) }
    }

    /// The event whose line starts at `offset` in the file `name`, or nil when there is none.
    package func event(file name: String, offset: Int) -> NavigationEvent? {
        guard let index = names.firstIndex(of: name), let bytes = try? FileSystem.read(files[index], from: offset, count: LineDecoder.maximumLineLength + 1),
              let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        return LineDecoder.decoded(bytes[..<newline])?.event
    }
}

extension SnapshotIndex {
    /// What ``updated(_:interval:mode:save:threads:chunkedFrom:splitBytes:)`` did.
    package struct Update: Sendable {
        package var index: SnapshotIndex
        /// The report of the reading it did: from the last entry on, or of the whole log.
        package var report: ReadReport
        /// Whether the index was built anew (missing, damaged, stale or of another interval).
        package var rebuilt: Bool
        /// Why the index file could not be written, if it could not.
        package var saveError: String?
        /// In how many chunks the log was read at once; 1 when in order.
        package var chunks = 1
    }

    /// Opens the index of the log, checks it against the log and extends it to the log's end — or
    /// builds it anew — and saves it when it changed (unless `save` is false).
    ///
    /// - Throws: what reading the log throws in `mode`.
    package static func updated(_ source: LogSource, interval: Int = defaultInterval, mode: RecoveryMode = .tolerateTornTail,
                                save: Bool = true, threads: Int = activeCores,
                                chunkedFrom: Int = LogReader.chunkedBytes, splitBytes: Int = LogReader.splitBytes) throws -> Update {
        let file = path(forLog: source.path, segmented: source.segmented)
        var index = SnapshotIndex(interval: interval)
        index.mode = mode
        var rebuilt = true
        var resume: Snapshot?
        // An index several times the log's size is no index of it: it is rebuilt, not opened.
        let logBytes = source.files.reduce(0) { $0 + (FileSystem.status($1)?.size ?? 0) }
        if save, let opened = open(file, atMost: max(64 << 20, 4 * logBytes)), opened.interval == interval, opened.mode == mode,
           opened.matches(source), let last = opened.entries.last, let snapshot = opened.snapshot(of: last) {
            index = opened
            resume = snapshot
            rebuilt = false
        }
        let before = (entries: index.entries.count, tail: index.tailSessions, anomaly: index.firstAnomaly)
        let reader = LogReader(path: source.path, mode: mode, threads: threads)
        let report: ReadReport
        var chunks = 1
        if index.entries.isEmpty, let built = try builtInChunks(source, reader: reader, interval: interval, chunkedFrom: chunkedFrom,
                                                                        splitBytes: splitBytes) {
            index.adopt(built.entries, blobs: built.blobs, sessions: built.sessions, completedBefore: 0)
            index.firstAnomaly = built.firstAnomaly
            report = built.report
            chunks = built.chunks
        } else {
            let start = index.entries.last
            var building = Building(interval: interval, resumingAfter: index, from: resume, files: source.names)
            let from = start.flatMap { source.position(file: $0.file, offset: $0.offset, line: $0.line) }
            report = try reader.scan(files: source.files, segmented: source.segmented, from: from) { event, position in
                building.consume(event, at: position)
                return true
            }
            index.adopt(building.entries, blobs: building.blobs, sessions: building.tracker.sessions,
                        completedBefore: start?.sessionsCompleted ?? 0)
            index.firstAnomaly = building.firstAnomaly
        }
        try mode.throwIfStopped(report)
        var saveError: String?
        // The index of a log without events is not written: it would hold nothing, and a file of
        // navlog's own in an empty directory is no evidence of what the directory is.
        if save, report.lastSeq != nil, rebuilt || index.entries.count != before.entries || index.tailSessions != before.tail || index.firstAnomaly != before.anomaly {
            saveError = index.save(to: file)
            // Read from the file from now on: the blobs and sessions just written are not kept.
            if saveError == nil, let saved = open(file, atMost: Int.max), saved.entries == index.entries { index = saved }
        }
        return Update(index: index, report: report, rebuilt: rebuilt, saveError: saveError, chunks: chunks)
    }

    /// Appends `entries`, whose blobs are at their offsets in `blobs` from 0, and `sessions`, the
    /// log's from the `completedBefore`-th on: the sessions before the new last entry join the
    /// prefix, the rest are the tail.
    private mutating func adopt(_ new: [Entry], blobs bytes: [UInt8], sessions: [SessionSummary], completedBefore: Int) {
        let base = blobs.end
        for var entry in new {
            entry.blobOffset += base
            entries.append(entry)
        }
        blobs.pending += bytes
        let prefixEnd = (entries.last?.sessionsCompleted ?? 0) - completedBefore
        sessionPrefix.more += sessions[..<max(0, prefixEnd)]
        tailSessions = Array(sessions[max(0, prefixEnd)...])
    }

    /// What building the index keeps while it reads: the fold, the sessions, the anomalies, and
    /// the entries made, with their blobs.
    ///
    /// It holds all that ``consume(_:at:)`` needs, the names of the log's files too, so that the
    /// closure that feeds it events captures nothing else: a value captured beside it was retained
    /// and released at every event (`NavlogBench timeline`, the index build).
    private struct Building {
        let interval: Int
        /// The names of the log's files, by index.
        let files: [String]
        var folding: StateFolding
        var state: NavigationState { folding.state }
        var tracker: SessionTracker
        var anomalies: Int
        var firstAnomaly: Projection.Anomaly?
        var entries: [Entry] = []
        /// The entries' blobs, at the offsets the entries give.
        var blobs: [UInt8] = []
        var firstEntrySeq: Int?
        var lastEntrySeq = Int.min
        /// No point of the grid comes before this seq (the first event's, at first): the events
        /// before it are not divided by the interval, a division at every event otherwise.
        var nextGridSeq = Int.min
        /// Whether the next event gets no entry: a chunk's first, whose entry, with the state
        /// before it, the chunk before makes.
        var skipsEntry = false

        /// Building from the last entry of `index` on, whose snapshot is `resume`, or from the
        /// log's start when it has none.
        init(interval: Int, resumingAfter index: SnapshotIndex, from resume: Snapshot?, files: [String]) {
            self.interval = interval
            self.files = files
            let start = index.entries.last
            folding = StateFolding(resume?.state ?? NavigationState())
            tracker = resume.map { SessionTracker(resumingFrom: $0.sessions) } ?? SessionTracker()
            anomalies = start?.anomaliesBefore ?? 0
            firstAnomaly = index.firstAnomaly
            if let first = firstAnomaly, let start, first.seq >= start.seq { firstAnomaly = nil }
            firstEntrySeq = index.entries.first?.seq
            lastEntrySeq = start?.seq ?? Int.min
        }

        /// Building a chunk, which begins at a `session.start` unless it `beginsLog`, of a log whose
        /// first seq is `firstSeq`.
        init(interval: Int, chunkBeginningLog beginsLog: Bool, ofLogFrom firstSeq: Int, files: [String]) {
            self.interval = interval
            self.files = files
            folding = StateFolding()
            tracker = SessionTracker()
            anomalies = 0
            firstEntrySeq = firstSeq
            skipsEntry = !beginsLog
        }

        mutating func consume(_ event: NavigationEvent, at position: EventPosition) {
            if skipsEntry {
                skipsEntry = false
            } else if event.seq >= nextGridSeq {
                makeEntryIfOnGrid(event, at: position)
            }
            var applied = true
            if let anomaly = folding.fold(event) {
                anomalies += 1
                applied = false
                if firstAnomaly == nil { firstAnomaly = anomaly }
            }
            tracker.consume(event, stateAfter: folding.state, applied: applied)
        }

        /// Makes the entry of `event`, with the state before it, when its seq is a point of the
        /// grid that gets one; moves ``nextGridSeq`` on past it once the grid has its base.
        private mutating func makeEntryIfOnGrid(_ event: NavigationEvent, at position: EventPosition) {
            let base = firstEntrySeq ?? event.seq
            let (points, offGrid) = (event.seq - base).quotientAndRemainder(dividingBy: interval)
            if offGrid == 0, event.seq > lastEntrySeq,
               points % Self.stride(of: state, sessionScenes: tracker.sceneCount, interval: interval) == 0 {
                firstEntrySeq = base
                lastEntrySeq = event.seq
                let checkpoint = tracker.checkpoint
                let blob = SnapshotIndex.blob(state: state, session: event.session, checkpoint: checkpoint)
                entries.append(Entry(seq: event.seq, file: files[position.file], offset: position.offset, line: position.line,
                                     timestamp: event.timestamp, sessionChecksum: CRC32C.checksum(event.session.utf8),
                                     anomaliesBefore: anomalies, sessionsCompleted: checkpoint.completed,
                                     blobOffset: blobs.count, blobLength: blob.count, blobChecksum: CRC32C.checksum(blob)))
                blobs += blob
            }
            if firstEntrySeq != nil { nextGridSeq = base + (offGrid < 0 ? points : points + 1) * interval }
        }

        /// Which points of the grid, one every `interval` events, get an entry with `state` and a
        /// session that named `sessionScenes` scenes: all while the entry holds no more than
        /// `interval` routes and names (scenes, stacks and sheets counted as one), then every
        /// second, fourth, ... one as it grows, so that the events since the entry before pay for
        /// each entry. The index then grows with the log, not with the log times its deepest stack
        /// or its session's scenes, and a seek folds no more events than about the entry's size.
        /// Every point, first the log's first event, is taken while entries are small.
        static func stride(of state: NavigationState, sessionScenes: Int, interval: Int) -> Int {
            var size = sessionScenes
            for scene in state.scenes.values {
                size += 1
                for routes in scene.stacks.values { size += 1 + routes.count }
                for sheet in scene.sheets { size += 2 + sheet.stack.count }
            }
            var stride = 1
            while stride * interval < size { stride *= 2 }
            return stride
        }
    }

    /// Builds the index of a log of at least `chunkedFrom` bytes in chunks on the reader's threads,
    /// each begun at a `session.start`, where the fold and the sessions start over; nil when it
    /// cannot be built so (see ``LogReader/readInChunks(files:segmented:count:minimumBytes:splitBytes:make:_:)``).
    private static func builtInChunks(_ source: LogSource, reader: LogReader, interval: Int, chunkedFrom: Int, splitBytes: Int)
        throws -> (entries: [Entry], blobs: [UInt8], sessions: [SessionSummary], firstAnomaly: Projection.Anomaly?, report: ReadReport, chunks: Int)? {
        guard reader.threads > 1, let first = source.names.first, let firstSeq = source.event(file: first, offset: 0)?.seq else { return nil }
        guard let read = try reader.readInChunks(files: source.files, segmented: source.segmented, count: reader.threads,
                                                 minimumBytes: chunkedFrom, splitBytes: splitBytes, make: { beginsLog in
            Building(interval: interval, chunkBeginningLog: beginsLog, ofLogFrom: firstSeq, files: source.names)
        }, { building, event, position, _ in
            // The event that begins the next chunk gets its entry here, with the state before it
            // as a reading in order has it, and ends this chunk's last session.
            building.consume(event, at: position)
        }) else { return nil }
        // The entries are every interval from the first event read, which the chunks took to be
        // the first line's: not so when that line is skipped as a defect (in salvage).
        guard read.report.firstSeq == firstSeq else { return nil }
        var entries: [Entry] = []
        var blobs: [UInt8] = []
        var sessions = SessionTracker()
        var anomalies = 0
        var firstAnomaly: Projection.Anomaly?
        for chunk in read.chunks {
            let building = chunk.part
            for var entry in building.entries {
                if let file = source.names.firstIndex(of: entry.file) {
                    entry.line = chunk.position(EventPosition(file: file, offset: entry.offset, line: entry.line)).line
                }
                entry.anomaliesBefore += anomalies
                entry.sessionsCompleted += sessions.completed.count
                entry.blobOffset += blobs.count
                entries.append(entry)
            }
            blobs += building.blobs
            firstAnomaly = firstAnomaly ?? building.firstAnomaly
            anomalies += building.anomalies
            sessions.append(building.tracker)
        }
        return (entries, blobs, sessions.sessions, firstAnomaly, read.report, read.chunks.count)
    }

    /// Whether the index still describes the log: its first entry is the log's first line and its
    /// last entry's line is still the event it names.
    private func matches(_ source: LogSource) -> Bool {
        guard let first = entries.first, let last = entries.last, first.file == source.names.first, first.offset == 0 else { return false }
        return [first, last].allSatisfy { entry in
            guard let event = source.event(file: entry.file, offset: entry.offset) else { return false }
            return entry.names(event)
        }
    }

    /// Writes the index file through a temporary file and a rename; returns why it failed, if it did.
    ///
    /// The temporary files that processes no longer running left behind (killed while saving)
    /// are removed first.
    func saveWhole(to path: String) -> String? {
        guard let bytes = encoded() else { return "the index file changed while it was read" }
        let temporary = path + ".tmp.\(ProcessInfo.processInfo.processIdentifier)"
        let prefix = (path as NSString).lastPathComponent + ".tmp."
        let directory = FileSystem.parent(of: path)
        for name in (try? FileSystem.list(directory)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileSystem.remove(directory + "/" + name)
        }
        do {
            try FileSystem.remove(temporary)
            try FileSystem.writeNewFile(temporary, bytes, sync: false)
            try FileSystem.rename(temporary, path)
            return nil
        } catch {
            try? FileSystem.remove(temporary)
            return "\(error)"
        }
    }
}
