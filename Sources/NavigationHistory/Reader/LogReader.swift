import Foundation

/// Reads a log — a directory of segments or a single `.jsonl` file — as a stream of checked events.
///
/// Reading is streaming with bounded memory: the log is read in windows (4 MiB by default), each
/// copied into a buffer, the next read into a second one while one is decoded, and never held
/// whole; or, where a tool opts in (``mapsFilesByDefault``), mapped into memory and unmapped once
/// decoded. Each window's lines are decoded on several cores at once and delivered in order.
/// Every line is checked: UTF-8, JSON, `crc` when present (and required in store segments), `v`,
/// required members, the `ts` format, the 64 KiB line limit, and a gapless increasing `seq` across
/// all segments. What happens at a defect depends on the ``RecoveryMode``. The reader never modifies
/// a log.
///
/// ```swift
/// let reader = LogReader(path: "app.navlog")
/// let report = try reader.read { event in print(event.seq, event.type) }
/// if let torn = report.tornTail { print("dropped torn tail:", torn) }
/// ```
public struct LogReader: Sendable {
    /// The log directory or file.
    public var path: String
    /// How defects are treated.
    public var mode: RecoveryMode
    /// How many lines-decoding tasks run at once.
    public var threads: Int
    /// The size of a window; lines longer than this are skipped as too long.
    public var blockSize: Int
    /// Windows with at least this many bytes of lines are decoded on several cores; smaller ones on
    /// the calling thread.
    package var parallelBytes = 256 << 10
    /// Whether, with several cores, the next window is read while one is decoded: not for a
    /// reading that will stop early, such as a seek's, which would wait for a window it never uses.
    package var readsAhead = true
    /// Whether files are read through memory mappings instead of copies, sparing the kernel a
    /// copy of every byte; ``mapsFilesByDefault`` when the reader is made, which is off unless a
    /// tool turned it on. A file that cannot be mapped is copied. Turning it on installs a SIGBUS
    /// handler for the whole process at the first mapping: see ``mapsFilesByDefault``.
    public var mapsFiles = LogReader.mapsFilesByDefault
    /// Whether to fold the events as they are read and report each `snapshot` whose state differs
    /// from the folded one as a ``DefectKind/snapshotMismatch`` defect, and count anomalies in the
    /// report. What `navlog verify` does; off by default, as it costs a fold per event.
    public var checksSnapshots = false
    /// Whether the lines of a single file must carry a `crc`, when known before reading; nil lets
    /// the first line read decide, as it does when the file is read from its start. (Lines of store
    /// segments always must.)
    package var requiresCRC: Bool?
    /// Whether the report keeps the sessions' ids (``ReadReport/sessionIDs``), as reports of chunks
    /// read apart need to be merged; off by default, as they grow with the sessions.
    package var keepsSessionIDs = false
    /// What the caller is done with, for a worker to free once it has no part left to decode: off
    /// the calling thread, and after the decoding it would slow if freed at once on another core
    /// (a seek hands over its last window's events). Left as it is when no worker runs.
    package var discarded: Locked<(any Sendable)?>?

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - path: A log directory of segments, or a single `.jsonl` file.
    ///   - mode: How defects are treated; by default a torn last line is dropped and reported.
    ///   - threads: How many cores decode lines; by default all of them.
    public init(path: String, mode: RecoveryMode = .tolerateTornTail,
                threads: Int = activeCores, blockSize: Int = 4 << 20) {
        self.path = path
        self.mode = mode
        self.threads = max(1, threads)
        self.blockSize = max(blockSize, LineDecoder.maximumLineLength + 2)
    }

    /// Reads the log, delivering each good event in order, and reports what it found.
    ///
    /// - Throws: ``NavigationHistoryError`` with code ``NavigationHistoryError/Code/corruptLog`` (or
    ///   `unsupportedVersion`) when the mode does not tolerate a defect — the events before it have
    ///   been delivered — `noInput` when the path does not exist, `io` when reading fails; and any
    ///   error `body` throws.
    @discardableResult
    public func read(_ body: (NavigationEvent) throws -> Void) throws -> ReadReport {
        try read { event, _ in try body(event) }
    }

    /// ``read(_:)``, handing each event with where its line is.
    @discardableResult
    package func read(_ body: (NavigationEvent, EventPosition) throws -> Void) throws -> ReadReport {
        let (files, segmented) = try LogFiles.resolve(path)
        let report = try scan(files: files, segmented: segmented) { event, position in
            try body(event, position)
            return true
        }
        try mode.throwIfStopped(report)
        return report
    }

    /// Reads the log like ``read(_:)`` but returns defects in the report instead of throwing them:
    /// what `navlog verify` uses.
    ///
    /// - Throws: `noInput`, `io`, and any error `body` throws.
    public func scan(_ body: (NavigationEvent) throws -> Void) throws -> ReadReport {
        let (files, segmented) = try LogFiles.resolve(path)
        return try scan(files: files, segmented: segmented, body)
    }

    /// Reads and checks every line of the log like ``scan(_:)``, handing no event over, and
    /// reports what it found.
    ///
    /// With several ``threads`` and a log of at least 16 MiB, the log is read in chunks at once,
    /// each beginning at a `session.start` (``verifiedInChunks(files:segmented:minimumBytes:)``):
    /// a reading in order hands every event to one thread, which then decodes a smaller share of
    /// the lines (`NavlogBench read`, 2 cores, 36 runs each in turns: median 0.1008 s in order
    /// against 0.0865 s in chunks).
    ///
    /// - Throws: `noInput`, `io`.
    public func verify() throws -> ReadReport {
        let (files, segmented) = try LogFiles.resolve(path)
        if let report = try verifiedInChunks(files: files, segmented: segmented) { return report }
        return try scan(files: files, segmented: segmented) { _ in }
    }

    /// The report of ``verify()`` from a reading in chunks at once, the same as a reading in order
    /// gives; nil when the log is not read so: when it is smaller than `minimumBytes`, with one
    /// thread, or when a chunk met a defect that stops a reading (see
    /// ``readInChunks(files:segmented:count:minimumBytes:splitBytes:make:_:)``), for a reading in
    /// order to report. `progress` is told, from the chunks' threads, of every 65,536 events each
    /// chunk reads.
    ///
    /// - Throws: `noInput`, `io`.
    package func verifiedInChunks(files: [String], segmented: Bool, minimumBytes: Int = chunkedBytes,
                                  progress: (@Sendable (_ events: Int) -> Void)? = nil) throws -> ReadReport? {
        try readInChunks(files: files, segmented: segmented, count: threads, minimumBytes: minimumBytes, make: { _ in 0 }) {
            counted, _, _, _ in
            guard let progress else { return }
            counted += 1
            if counted == 1 << 16 {
                progress(counted)
                counted = 0
            }
        }?.report
    }

    /// Reads `files` in order as one log; `segmented` says they are store segments, whose lines
    /// must all carry a `crc`. The store uses it to read only its last segment.
    package func scan(files: [String], segmented: Bool, _ body: (NavigationEvent) throws -> Void) throws -> ReadReport {
        try scan(files: files, segmented: segmented) { event, _ in
            try body(event)
            return true
        }
    }

    /// Reads `files` from `start` (the first file's beginning by default), handing each event with
    /// where its line is to `body`, until `body` returns false or the log ends. `caches` are the
    /// decoding caches of a caller that reads again and again, for one reading at a time; a reading
    /// makes its own otherwise.
    package func scan(files: [String], segmented: Bool, from start: EventPosition? = nil, caches: DecoderCaches? = nil,
                      _ body: PositionedBody) throws -> ReadReport {
        var merger = Merger(mode: mode, checksSnapshots: checksSnapshots)
        // With several cores, a spare buffer: the next window is read into it while one is decoded.
        let buffers = ReadBuffers(size: blockSize, spare: threads > 1 && readsAhead)
        let caches = caches ?? DecoderCaches()
        let chores = Chores()
        defer { chores.runAside() }
        for (index, file) in files.enumerated() {
            if let start, index < start.file { continue }
            merger.report.segments += 1
            let resume = start.flatMap { $0.file == index ? $0 : nil }
            merger.beginFile(file, index: index, crcRequired: segmented ? true : requiresCRC, firstLine: resume?.line ?? 1,
                              gapsIn: segmented ? FileSystem.parent(of: file) : nil)
            let isLast = index == files.count - 1
            try readFile(file, from: resume?.offset ?? 0, isLastFile: isLast, buffers: buffers, chores: chores, caches: caches,
                         merger: &merger, body)
            if merger.stopped {
                if mode == .pointInTime, let stop = merger.report.stoppedAt {
                    merger.reportUnread(after: stop, laterFiles: Array(files[(index + 1)...]), in: file)
                }
                break
            }
        }
        if keepsSessionIDs { merger.report.sessionIDs = merger.sessions }
        return merger.report
    }
}
