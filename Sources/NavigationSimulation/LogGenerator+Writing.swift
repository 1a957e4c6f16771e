import Foundation
import NavigationHistory

extension LogGenerator {
    /// What ``writeLog(to:events:segmentSize:snapshotInterval:replacing:)`` wrote.
    public struct WriteSummary: Sendable {
        /// The lines written, snapshots included.
        public var events: Int
        /// The files written.
        public var segments: Int
        /// The bytes written.
        public var bytes: Int
    }

    /// Writes `events` lines of the synthetic app to `path`: a single file when the path ends in
    /// `.jsonl`, else a log directory of segments rotated at `segmentSize`, each starting with a
    /// `snapshot` of the state at that point and holding one every `snapshotInterval` events, as
    /// the store writes them.
    ///
    /// This is a plain writer for tests, benchmarks and demos: it does not fsync. It writes a log
    /// directory holding the directory's lock, as the store does, and never overwrites a log in
    /// place: a file that is not empty, or a directory holding anything but its lock, is refused
    /// unless `replacing` is set; then the old log's files (segments, the snapshot index, torn
    /// tails kept aside) are removed first, and a directory holding any other file is still refused.
    /// Segments are new files with mode 0600.
    ///
    /// - Throws: ``NavigationHistoryError`` with code `io` when a file cannot be written, and with
    ///   `errno` `EEXIST` when the target is not empty and `replacing` is not set; `locked` when a
    ///   writer holds the log directory.
    @discardableResult
    public mutating func writeLog(to path: String, events: Int, segmentSize: Int = 8 << 20,
                                  snapshotInterval: Int? = 2048, replacing: Bool = false) throws -> WriteSummary {
        guard path.hasSuffix(".jsonl") else {
            return try writeDirectory(path, events: events, segmentSize: segmentSize, snapshotInterval: snapshotInterval, replacing: replacing)
        }
        if let size = FileSystem.status(path)?.size, size > 0, !replacing {
            throw NavigationHistoryError(code: .io, message: "is not empty; it is replaced only when asked to", path: path, errno: EEXIST)
        }
        try FileSystem.remove(path)
        let file = try WritableFile(path: path, create: true)
        do {
            return try writeLines(events: events) { bytes in try file.write(bytes) }
        } catch {
            try? FileSystem.remove(path)
            throw error
        }
    }

    /// Writes `events` lines of the synthetic app as the bytes of one `.jsonl` file (no snapshots),
    /// handing them to `write` about a mebibyte at a time, in order.
    ///
    /// - Returns: the lines and bytes written; `segments` is 1.
    /// - Throws: what `write` throws.
    @discardableResult
    public mutating func writeLines(events: Int, to write: ([UInt8]) throws -> Void) throws -> WriteSummary {
        try generate(events: events, segmentSize: nil, snapshotInterval: nil, startSegment: { _ in }, write: write)
    }

    /// Writes a log directory of segments, holding its lock.
    private mutating func writeDirectory(_ path: String, events: Int, segmentSize: Int, snapshotInterval: Int?,
                                         replacing: Bool) throws -> WriteSummary {
        try FileSystem.createDirectory(path)
        let lock = try DirectoryLock(directory: path)
        let others = try FileSystem.list(path).filter { $0 != DirectoryLock.fileName }
        if !others.isEmpty {
            guard replacing else {
                throw NavigationHistoryError(code: .io, message: "is not empty (\(others.count) file\(others.count == 1 ? "" : "s")); it is replaced only when asked to",
                                             path: path, errno: EEXIST)
            }
            let strangers = others.filter { !Self.isLogFile($0) }.sorted()
            guard strangers.isEmpty else {
                throw NavigationHistoryError(code: .io, message: "holds files that are not a log's, such as \(strangers[0]); they are not removed",
                                             path: path, errno: EEXIST)
            }
            for name in others { try FileSystem.remove(path + "/" + name) }
        }
        var file: WritableFile?
        var created: [String] = []
        do {
            let summary = try generate(events: events, segmentSize: segmentSize, snapshotInterval: snapshotInterval, startSegment: { number in
                created.append(path + "/" + Opening.segmentName(number))
                file = try WritableFile(path: created.last!, create: true)
            }, write: { bytes in try file!.write(bytes) })
            withExtendedLifetime(lock) {}
            return summary
        } catch {
            // A log cut short by a failure would pass for a whole one.
            file = nil
            for segment in created { try? FileSystem.remove(segment) }
            throw error
        }
    }

    /// Whether a name in a log directory is one of the log's own files: a segment, one being
    /// created, the snapshot index or its temporary file, or the bytes of a torn tail kept aside.
    private static func isLogFile(_ name: String) -> Bool {
        LogFiles.isSegmentName(name) || name.hasSuffix(".jsonl" + Opening.temporarySuffix) || LogFiles.isDerivedName(name) || (name.contains(".jsonl.torn") && LogFiles.isSegmentName(String(name.prefix(14))))
    }

    /// The lines of the log: `startSegment` is called with 1, 2, ... before each segment's first
    /// bytes (segments rotate at `segmentSize` and begin with a snapshot when it is given), and
    /// `write` with the bytes in order.
    private mutating func generate(events: Int, segmentSize: Int?, snapshotInterval: Int?, startSegment: (Int) throws -> Void,
                                   write: ([UInt8]) throws -> Void) throws -> WriteSummary {
        let segmented = segmentSize != nil
        var summary = WriteSummary(events: 0, segments: 0, bytes: 0)
        var writer = JSONWriter(capacity: 1 << 20)
        var segmentBytes = 0
        func flush() throws {
            guard !writer.bytes.isEmpty else { return }
            try write(writer.bytes)
            summary.bytes += writer.bytes.count
            writer.bytes.removeAll(keepingCapacity: true)
        }
        if !segmented {
            try startSegment(1)
            summary.segments = 1
        }
        var pending: (draft: EventDraft, before: NavigationState)?
        var lastSnapshot = 0
        while summary.events < events {
            let before = pending?.before ?? state
            let draft = pending?.draft ?? next()
            var lineStart = writer.bytes.count
            let rotate = segmentSize.map { summary.segments == 0 || segmentBytes >= $0 } ?? false
            let periodic = segmented && pending == nil && snapshotInterval.map { summary.events + 1 - lastSnapshot >= $0 } == true
            if rotate || periodic {
                if rotate {
                    try flush()
                    summary.segments += 1
                    try startSegment(summary.segments)
                    segmentBytes = 0
                    lineStart = writer.bytes.count
                }
                lastSnapshot = summary.events + 1
                let snapshot = NavigationEvent(seq: summary.events + 1, timestamp: draft.timestamp, session: draft.session,
                                               action: .snapshot(state: before))
                LineEncoder.append(snapshot, to: &writer)
                pending = (draft, before)
            } else {
                let event = NavigationEvent(seq: summary.events + 1, timestamp: draft.timestamp, session: draft.session, action: draft.action)
                LineEncoder.append(event, to: &writer)
                pending = nil
            }
            summary.events += 1
            segmentBytes += writer.bytes.count - lineStart
            if writer.bytes.count >= 1 << 20 { try flush() }
        }
        try flush()
        return summary
    }
}
