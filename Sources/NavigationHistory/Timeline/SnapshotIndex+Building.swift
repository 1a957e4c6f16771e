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
        let decoded = bytes[..<newline].withUnsafeBytes { line in Result { () throws(LineError) in try LineDecoder.decode(line) } }
        return try? decoded.get().event
    }
}

extension SnapshotIndex {
    /// What ``updated(_:interval:mode:save:)`` did.
    package struct Update: Sendable {
        package var index: SnapshotIndex
        /// The report of the reading it did: from the last entry on, or of the whole log.
        package var report: ReadReport
        /// Whether the index was built anew (missing, damaged, stale or of another interval).
        package var rebuilt: Bool
        /// Why the index file could not be written, if it could not.
        package var saveError: String?
    }

    /// Loads the index of the log, checks it against the log and extends it to the log's end — or
    /// builds it anew — and saves it when it changed (unless `save` is false).
    ///
    /// - Throws: what reading the log throws in `mode`.
    package static func updated(_ source: LogSource, interval: Int = defaultInterval, mode: RecoveryMode = .tolerateTornTail,
                                save: Bool = true, threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> Update {
        let file = path(forLog: source.path, segmented: source.segmented)
        var index = SnapshotIndex(interval: interval)
        index.mode = mode
        var rebuilt = true
        if save, let bytes = FileManager.default.contents(atPath: file), let loaded = decode([UInt8](bytes)),
           loaded.interval == interval, loaded.mode == mode, loaded.matches(source) {
            index = loaded
            rebuilt = false
        }
        let start = index.entries.last
        var state = start?.state ?? NavigationState()
        var tracker = start.map { SessionTracker(resumingFrom: $0.sessions, sessions: index.sessions) } ?? SessionTracker()
        var anomalies = start?.anomaliesBefore ?? 0
        if let first = index.firstAnomaly, let start, first.seq >= start.seq { index.firstAnomaly = nil }
        let entriesBefore = index.entries.count
        let sessionsBefore = index.sessions
        let from = start.flatMap { source.position(file: $0.file, offset: $0.offset, line: $0.line) }
        let reader = LogReader(path: source.path, mode: mode, threads: threads)
        // The entries' seqs, kept apart: reading them from the entries for every event would copy
        // an entry, state and all, each time.
        var firstEntrySeq = index.entries.first?.seq
        var lastEntrySeq = index.entries.last?.seq ?? Int.min
        let report = try reader.scan(files: source.files, segmented: source.segmented, from: from) { event, position in
            let base = firstEntrySeq ?? event.seq
            if (event.seq - base) % index.interval == 0, event.seq > lastEntrySeq {
                firstEntrySeq = base
                lastEntrySeq = event.seq
                index.entries.append(Entry(seq: event.seq, file: source.names[position.file], offset: position.offset, line: position.line,
                                           timestamp: event.timestamp, session: event.session, anomaliesBefore: anomalies,
                                           state: state, sessions: tracker.checkpoint))
            }
            if let anomaly = Projection.fold(&state, event) {
                anomalies += 1
                if index.firstAnomaly == nil { index.firstAnomaly = anomaly }
            }
            tracker.consume(event)
            return true
        }
        try mode.throwIfStopped(report)
        index.sessions = tracker.sessions
        var saveError: String?
        if save, rebuilt || index.entries.count != entriesBefore || index.sessions != sessionsBefore {
            saveError = index.save(to: file)
        }
        return Update(index: index, report: report, rebuilt: rebuilt, saveError: saveError)
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
    private func save(to path: String) -> String? {
        let temporary = path + ".tmp.\(ProcessInfo.processInfo.processIdentifier)"
        do {
            try FileSystem.remove(temporary)
            try FileSystem.writeNewFile(temporary, encoded(), sync: false)
            try FileSystem.rename(temporary, path)
            return nil
        } catch {
            try? FileSystem.remove(temporary)
            return "\(error)"
        }
    }
}
