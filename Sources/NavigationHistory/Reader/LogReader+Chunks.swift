import Dispatch
import Foundation

extension LogReader {
    /// How large a log must be for what can read it in chunks to do so: below it, a reading in
    /// order takes a few milliseconds.
    package static let chunkedBytes = 16 << 20

    /// How much a chunk must have left to read for its reader to give half of it to a thread left
    /// without a chunk: below it, the thread would spend much of what it takes on setting out.
    package static let splitBytes = 4 << 20

    /// Reads the log's `files` in chunks at once, one thread each, every chunk after the first
    /// beginning at a `session.start`, where the fold starts over from an empty state.
    ///
    /// The files' bytes are cut into `count` equal ranges. Each range after the first begins at the
    /// first `session.start` in its first quarter; a range without one joins the range before. A
    /// thread without a chunk (done with its own, or left without one by a range that joined the
    /// one before) while another chunk has at least `splitBytes` left to read asks that chunk's
    /// reader for part of it: the reader ends its chunk at the first `session.start` in the third
    /// quarter of what it has left, and the asking thread reads from there as a chunk of its own.
    /// A chunk's events go to `consume` in order, on the chunk's thread, with the chunk's own part
    /// and the event's position, whose line ``ReadChunk/position(_:)`` numbers as a reading in
    /// order does. A chunk's last event is the next chunk's first, handed over with `endsChunk`
    /// true, so that what that event ends is ended as a reading in order ends it. Every line is
    /// checked by the chunk it is in; the first of each chunk after the first by the chunk before
    /// too. When the reader checks snapshots (``checksSnapshots``), each chunk folds its events
    /// from its `session.start`, which sets the whole state, as a reading in order folds them.
    ///
    /// - Parameters:
    ///   - files: The log's files, in order, as ``LogFiles/resolve(_:)`` lists them; `segmented`
    ///     says they are store segments, whose lines must all carry a `crc`.
    ///   - count: How many ranges, and threads; fewer than 2 reads nothing.
    ///   - minimumBytes: Logs smaller than this are not read in chunks.
    ///   - splitBytes: How much a chunk must have left to read to be split for an idle thread.
    ///   - make: Makes the part of a chunk, on the thread that reads it: `beginsLog` for the first.
    ///   - consume: Hands an event to its chunk's part.
    /// - Returns: The chunks in order, with the report a reading in order gives. Nil when there are
    ///   no files, fewer than `minimumBytes`, `count` below 2, or fewer than two ranges that
    ///   begin; or when the chunks' readings cannot stand for one in order: a chunk met a defect
    ///   (but in `salvage`), or did not end at the next chunk's first event. Then read the log in
    ///   order, which reports what it found.
    /// - Throws: `noInput` and `io`, and the first error `consume` throws, in chunk order.
    package func readInChunks<Part>(files: [String], segmented: Bool, count: Int, minimumBytes: Int, splitBytes: Int = splitBytes,
                                    make: @Sendable (_ beginsLog: Bool) -> Part,
                                    _ consume: @Sendable (inout Part, NavigationEvent, EventPosition, _ endsChunk: Bool) throws -> Void)
        throws -> (chunks: [ReadChunk<Part>], report: ReadReport)? {
        guard count > 1, !files.isEmpty else { return nil }
        let layout = try ChunkLayout(files: files, count: count)
        guard layout.total > 0, layout.total >= minimumBytes else { return nil }
        // First where each chunk begins, then the chunks: a chunk that waited for the next one's
        // beginning could wait for a thread that never comes. A range is searched only in its first
        // quarter: a log with few session starts is left to a reading in order without decoding
        // much of it twice.
        let starts = Slots<EventPosition?>(count: count)
        starts[0] = EventPosition(file: 0, offset: 0, line: 1)
        DispatchQueue.concurrentPerform(iterations: count - 1) { j in
            let k = j + 1
            let before = layout.nominal(k) + max(1, (layout.nominal(k + 1) - layout.nominal(k)) / 4)
            starts[k] = starts.attempt(k) {
                try findSessionStart(in: layout, from: layout.nominal(k), before: before, segmented: segmented)
            } ?? nil
        }
        try starts.throwFirstError()
        let begun = (0..<count).compactMap { k in starts[k]! }
        guard begun.count > 1 else { return nil }
        let queue = ChunkQueue<Part>(begun.indices.map { n in
            let from = layout.offset(of: begun[n])
            return Chunk(start: begun[n], from: from, end: n + 1 < begun.count ? layout.offset(of: begun[n + 1]) : nil)
        }, total: layout.total)
        onThreads(count) { _ in
            while let chunk = queue.take() {
                do {
                    try readChunk(chunk, from: queue, in: layout, segmented: segmented, splitBytes: splitBytes, make: make, consume)
                } catch {
                    chunk.error = error
                }
                queue.finish(chunk)
            }
        }
        let chunks = queue.chunks
        if let error = chunks.lazy.compactMap(\.error).first { throw error }
        return merge(chunks, in: layout, segmented: segmented)
    }

    /// Reads a chunk from its start to the next chunk's first event; when a thread asks, gives it
    /// part of what is left.
    private func readChunk<Part>(_ chunk: Chunk<Part>, from queue: ChunkQueue<Part>, in layout: ChunkLayout, segmented: Bool,
                                 splitBytes: Int, make: (Bool) -> Part,
                                 _ consume: (inout Part, NavigationEvent, EventPosition, Bool) throws -> Void) throws {
        var reader = self
        reader.threads = 1
        reader.keepsSessionIDs = true
        var part = make(chunk.from == 0)
        // What the closure below needs at each event, in one value of this thread's that it
        // reaches by address: values it held apart were each retained and released at every
        // event, and those every chunk's thread shares contended for their reference counts;
        // held in an object, that object was (NavlogBench timeline, index build on 2 cores).
        var cursor = ChunkCursor(chunk, queue: queue, layout: layout, reader: self, segmented: segmented, splitBytes: splitBytes)
        defer {
            chunk.part = part
            chunk.endedAtNext = cursor.endedAtNext
        }
        chunk.report = try reader.scan(files: layout.files, segmented: segmented, from: chunk.from == 0 ? nil : chunk.start) { event, position in
            switch cursor.step(at: position) {
            case .beyond:
                return false
            case .next:
                try consume(&part, event, position, true)
                return false
            case .within:
                try consume(&part, event, position, false)
                return true
            }
        }
    }

    /// A chunk for the rest of a chunk's range, from the first `session.start` in the third quarter
    /// of the range from `at` to `end`; nil when there is none.
    fileprivate func split<Part>(from at: Int, to end: Int?, in layout: ChunkLayout, segmented: Bool) -> Chunk<Part>? {
        let middle = at + ((end ?? layout.total) - at) / 2
        // Not found when the files cannot be read: the chunk's reader, reading on, reports it.
        guard let found = try? findSessionStart(in: layout, from: middle, before: middle + ((end ?? layout.total) - middle) / 2,
                                                segmented: segmented) else { return nil }
        return Chunk(start: found, from: layout.offset(of: found), end: end)
    }

    /// The chunks' parts, with their reports merged into the one a reading in order gives; nil when
    /// they cannot stand for a reading in order.
    ///
    /// What a chunk found stands for what a reading in order finds, its lines renumbered: warnings,
    /// a torn tail (only ever the last chunk's), and, in `salvage`, defects — each line is checked
    /// as in order, the first of a chunk by the chunk before. Not a defect that stops the reading
    /// (in order, nothing after it is read), nor, in a file that is not a store segment, a missing
    /// `crc`, required after a chunk's first line if it has one, and in order only if the file's
    /// first line has one.
    private func merge<Part>(_ chunks: [Chunk<Part>], in layout: ChunkLayout, segmented: Bool) -> (chunks: [ReadChunk<Part>], report: ReadReport)? {
        var merged = ReadReport(mode: mode)
        var read: [ReadChunk<Part>] = []
        for (n, chunk) in chunks.enumerated() {
            guard let report = chunk.report, chunk.end == nil || chunk.endedAtNext != nil, report.stoppedAt == nil,
                  report.defectCount == 0 || mode == .salvage && report.defects.count == report.defectCount
                    && (segmented || !report.defects.contains { $0.kind == .missingCRC }) else { return nil }
            // Numbered from 1 where it begins: its first line's number is the one the chunk before
            // gave the event that ended it.
            var start = chunk.start
            if n > 0 { start.line = read[n - 1].position(chunks[n - 1].endedAtNext!).line }
            let numbered = ReadChunk(part: chunk.part!, start: start)
            read.append(numbered)
            func renumbered(_ found: LogDefect) -> LogDefect {
                guard let file = layout.files.firstIndex(of: found.file) else { return found }
                var defect = found
                defect.line = numbered.position(EventPosition(file: file, offset: found.offset, line: found.line)).line
                return defect
            }
            for defect in report.defects { merged.addDefect(renumbered(defect)) }
            merged.defectCount += report.defectCount - report.defects.count
            for warning in report.warnings { merged.addWarning(renumbered(warning)) }
            merged.warningCount += report.warningCount - report.warnings.count
            merged.tornTail = report.tornTail.map(renumbered) ?? merged.tornTail
            merged.events += report.events - (n > 0 ? 1 : 0)   // a chunk's first event also ends the one before
            // A chunk's first event, a `session.start`, fits any state: the chunk before, which
            // folds it too, finds no anomaly in it.
            merged.anomalies += report.anomalies
            merged.firstAnomaly = merged.firstAnomaly ?? report.firstAnomaly
            merged.firstSeq = merged.firstSeq ?? report.firstSeq
            merged.lastSeq = report.lastSeq ?? merged.lastSeq
            // Each session once: not those an earlier chunk saw too (at least the one whose start
            // begins this chunk). Asked of each earlier chunk's set apart, through the smaller of
            // the two, rather than of their union: the union would copy the largest set, and the
            // chunks split off for idle threads are small.
            var shared = StringSet()
            for earlier in chunks[..<n] { shared.formUnion(report.sessionIDs.intersection(earlier.report!.sessionIDs)) }
            merged.sessions += report.sessionIDs.count - shared.count
            if n == chunks.count - 1 { merged.bytes = chunk.from + report.bytes }
        }
        merged.segments = layout.files.count
        return (read, merged)
    }

    /// The position of the first `session.start` whose line begins in `[from, before)`, in log
    /// offsets; nil when there is none. Lines it cannot read are skipped: the chunk before reads
    /// them too, and reports them.
    private func findSessionStart(in layout: ChunkLayout, from: Int, before: Int, segmented: Bool) throws -> EventPosition? {
        guard var position = try layout.lineStart(atOrAfter: from), layout.offset(of: position) < before else { return nil }
        position.line = 1
        var reader = self
        reader.mode = .salvage
        reader.threads = 1
        reader.readsAhead = false
        reader.blockSize = 256 << 10   // it mostly stops within the first few lines
        var found: EventPosition?
        _ = try reader.scan(files: layout.files, segmented: segmented, from: position) { event, position in
            guard layout.offset(of: position) < before else { return false }
            guard event.isSessionStart else { return true }
            found = EventPosition(file: position.file, offset: position.offset, line: 1)   // a chunk numbers its lines from 1
            return false
        }
        return found
    }
}

/// The files of a log as one run of bytes, cut into equal ranges.
private struct ChunkLayout: Sendable {
    let files: [String]
    /// Where each file begins in the run, and where the run ends.
    private let starts: [Int]
    let total: Int
    private let count: Int

    init(files: [String], count: Int) throws {
        self.files = files
        var starts: [Int] = []
        var total = 0
        for file in files {
            starts.append(total)
            total += try InputFile(path: file).size()
        }
        self.starts = starts
        self.total = total
        self.count = max(count, 1)
    }

    /// Where range `k` nominally begins.
    func nominal(_ k: Int) -> Int { k >= count ? total : total / count * k }

    /// A position's offset in the run.
    func offset(of position: EventPosition) -> Int { starts[position.file] + position.offset }

    /// The first line that begins at or after `offset` in the run; nil when none does within a
    /// line's greatest length.
    func lineStart(atOrAfter offset: Int) throws -> EventPosition? {
        guard let file = starts.lastIndex(where: { $0 <= offset }), offset < total else { return nil }
        let inFile = offset - starts[file]
        if inFile == 0 { return EventPosition(file: file, offset: 0, line: 1) }
        let input = try InputFile(path: files[file])
        try input.seek(to: inFile - 1)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: LineDecoder.maximumLineLength + 2, alignment: 1)
        defer { buffer.deallocate() }
        let filled = try input.fill(buffer, from: 0)
        guard let newline = memchrIndex(UnsafeRawBufferPointer(buffer), 0x0A, from: 0, to: filled) else { return nil }
        let next = inFile + newline
        if next < input.size() { return EventPosition(file: file, offset: next, line: 1) }
        return file + 1 < files.count ? EventPosition(file: file + 1, offset: 0, line: 1) : nil
    }
}

/// A chunk of a log read by ``LogReader/readInChunks(files:segmented:count:minimumBytes:splitBytes:make:_:)``: what it made of
/// its events, and where it begins.
package struct ReadChunk<Part> {
    package var part: Part
    /// The position of its first event, its line numbered as a reading in order numbers it.
    package var start: EventPosition

    /// A position the chunk's reading gave, its line numbered as a reading in order numbers it:
    /// the chunk numbered the lines of its first file from 1.
    package func position(_ position: EventPosition) -> EventPosition {
        var numbered = position
        if position.file == start.file { numbered.line += start.line - 1 }
        return numbered
    }
}

/// Where a chunk's reading stands: where it ends, which moves when it gives part of itself to a
/// thread that asks, and whether it ended at the next chunk's first event.
private struct ChunkCursor<Part> {
    /// Where an event stands against the chunk's end.
    enum Step {
        /// Before the end: the chunk's own.
        case within
        /// At the end: the next chunk's first event, which ends this chunk's last session.
        case next
        /// Past the end, the next chunk's first event never came.
        case beyond
    }

    private let chunk: Chunk<Part>
    private let queue: ChunkQueue<Part>
    private let layout: ChunkLayout
    private let reader: LogReader
    private let segmented: Bool
    private let splitBytes: Int
    private var end: Int?
    private(set) var endedAtNext: EventPosition?

    init(_ chunk: Chunk<Part>, queue: ChunkQueue<Part>, layout: ChunkLayout, reader: LogReader, segmented: Bool, splitBytes: Int) {
        self.chunk = chunk
        self.queue = queue
        self.layout = layout
        self.reader = reader
        self.segmented = segmented
        self.splitBytes = splitBytes
        end = chunk.end
    }

    /// Where the event at `position` stands; when a thread asks for part of the chunk, gives it
    /// the part from the first `session.start` in the third quarter of what is left.
    @inline(__always)
    mutating func step(at position: EventPosition) -> Step {
        let at = layout.offset(of: position)
        if let end, at >= end {
            guard at == end else { return .beyond }
            endedAtNext = position
            return .next
        }
        if chunk.request.isAsked {
            let split: Chunk<Part>? = splitBytes <= (end ?? layout.total) - at
                ? reader.split(from: at, to: end, in: layout, segmented: segmented) : nil
            queue.answer(chunk, with: split)
            end = split?.from ?? end
        }
        return .within
    }
}

/// One value per range, each written by the range's own thread, read once they are all done:
/// each in memory of its own, so that no thread touches another's.
private final class Slots<Value>: @unchecked Sendable {
    private let count: Int
    private let values: UnsafeMutablePointer<Value?>
    private let errors: UnsafeMutablePointer<(any Error)?>

    init(count: Int) {
        self.count = count
        values = .allocate(capacity: count)
        values.initialize(repeating: nil, count: count)
        errors = .allocate(capacity: count)
        errors.initialize(repeating: nil, count: count)
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
        errors.deinitialize(count: count)
        errors.deallocate()
    }

    subscript(k: Int) -> Value? {
        get { values[k] }
        _modify { yield &values[k] }
        set { values[k] = newValue }
    }

    /// Runs `body` for slot `k`, keeping the error it throws.
    func attempt<T>(_ k: Int, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
            errors[k] = error
            return nil
        }
    }

    /// Throws the first slot's error, if any.
    func throwFirstError() throws {
        if let error = (0..<count).lazy.compactMap({ self.errors[$0] }).first { throw error }
    }
}
