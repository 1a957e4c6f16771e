import Foundation

extension LogGenerator {
    /// What ``writeLog(to:events:segmentSize:)`` wrote.
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
    /// This is a plain writer for tests, benchmarks and demos: it does not fsync.
    ///
    /// - Throws: ``NavigationHistoryError`` with code `io` when a file cannot be written.
    @discardableResult
    public mutating func writeLog(to path: String, events: Int, segmentSize: Int = 8 << 20,
                                  snapshotInterval: Int? = 2048) throws -> WriteSummary {
        let segmented = !path.hasSuffix(".jsonl")
        var summary = WriteSummary(events: 0, segments: 0, bytes: 0)
        var writer = JSONWriter(capacity: 1 << 20)
        var output: FileHandle?
        var segmentBytes = 0
        func open(_ file: String) throws {
            guard FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o600]),
                  let handle = FileHandle(forWritingAtPath: file) else {
                throw NavigationHistoryError(code: .io, message: "cannot create file", path: file)
            }
            output = handle
            summary.segments += 1
            segmentBytes = 0
        }
        func flush() throws {
            guard !writer.bytes.isEmpty, let output else { return }
            do { try output.write(contentsOf: writer.bytes) } catch {
                throw NavigationHistoryError(code: .io, message: "write failed: \(error.localizedDescription)", path: path)
            }
            writer.bytes.removeAll(keepingCapacity: true)
        }
        if segmented {
            try FileSystem.createDirectory(path)
        } else {
            try open(path)
        }
        var pending: (draft: EventDraft, before: NavigationState)?
        var lastSnapshot = 0
        while summary.events < events {
            let before = pending?.before ?? state
            let draft = pending?.draft ?? next()
            var lineStart = writer.bytes.count
            let rotate = segmented && (output == nil || segmentBytes >= segmentSize)
            let periodic = segmented && pending == nil && snapshotInterval.map { summary.events + 1 - lastSnapshot >= $0 } == true
            if rotate || periodic {
                if rotate {
                    try flush()
                    try output?.close()
                    try open(path + "/" + Opening.segmentName(summary.segments + 1))
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
        try output?.close()
        summary.bytes = try LogFiles.size(path)
        return summary
    }
}
