import CNavigationHistory
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a log — a directory of segments or a single `.jsonl` file — as a stream of checked events.
///
/// Reading is streaming with bounded memory: the log is read in blocks (4 MiB by default), each
/// mapped into memory and unmapped once decoded (or, where a file cannot be mapped or
/// ``mapsFiles`` is off, copied into a buffer, the next block read into a second one while one is
/// decoded), and never held whole. Each block's lines are decoded on several cores at once and
/// delivered in order.
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
    /// The size of a read block; lines longer than this are skipped as too long.
    public var blockSize: Int
    /// Blocks at least this large are decoded on several cores; smaller ones on the calling thread.
    package var parallelBytes = 256 << 10
    /// Whether, with several cores, the next block is read while one is decoded: not for a
    /// reading that will stop early, such as a seek's, which would wait for a block it never uses.
    package var readsAhead = true
    /// Whether files are read through memory mappings instead of copies, sparing the kernel a
    /// copy of every byte (on by default; files that cannot be mapped, such as pipes, are copied).
    /// A file that shrinks while it is mapped ends the reading with an `io` error: the first mapping
    /// installs a SIGBUS handler that turns a read past the file's end into zeros, and passes every
    /// other SIGBUS on to the handler installed before it.
    public var mapsFiles = true
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

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - path: A log directory of segments, or a single `.jsonl` file.
    ///   - mode: How defects are treated; by default a torn last line is dropped and reported.
    ///   - threads: How many cores decode lines; by default all of them.
    public init(path: String, mode: RecoveryMode = .tolerateTornTail,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, blockSize: Int = 4 << 20) {
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

    /// Reads `files` in order as one log; `segmented` says they are store segments, whose lines
    /// must all carry a `crc`. The store uses it to read only its last segment.
    package func scan(files: [String], segmented: Bool, _ body: (NavigationEvent) throws -> Void) throws -> ReadReport {
        try scan(files: files, segmented: segmented) { event, _ in
            try body(event)
            return true
        }
    }

    /// Reads `files` from `start` (the first file's beginning by default), handing each event with
    /// where its line is to `body`, until `body` returns false or the log ends.
    package func scan(files: [String], segmented: Bool, from start: EventPosition? = nil,
                      _ body: PositionedBody) throws -> ReadReport {
        var merger = Merger(mode: mode, checksSnapshots: checksSnapshots)
        // With several cores, a second buffer: the next block is read into it while this one is decoded.
        let buffers = Buffers(current: .allocate(byteCount: blockSize, alignment: 16),
                              spare: threads > 1 && readsAhead ? .allocate(byteCount: blockSize, alignment: 16) : nil)
        defer {
            buffers.current.deallocate()
            buffers.spare?.deallocate()
        }
        for (index, file) in files.enumerated() {
            if let start, index < start.file { continue }
            merger.report.segments += 1
            let resume = start.flatMap { $0.file == index ? $0 : nil }
            merger.beginFile(file, index: index, crcRequired: segmented ? true : requiresCRC, firstLine: resume?.line ?? 1)
            let isLast = index == files.count - 1
            try readFile(file, from: resume?.offset ?? 0, isLast: isLast, buffers: buffers, merger: &merger, body)
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

    private func readFile(_ file: String, from offset: Int, isLast: Bool, buffers: Buffers,
                          merger: inout Merger, _ body: PositionedBody) throws {
        let input = try InputFile(path: file)
        if mapsFiles, try readMapped(input, from: offset, isLast: isLast, merger: &merger, body) { return }
        if offset > 0 { try input.seek(to: offset) }
        var buffer = buffers.current
        var spare = buffers.spare
        var carry = 0
        var fileOffset = offset
        var longLineStart: Int?
        // The next block, read while this one is decoded; waited for whatever happens here, as
        // it writes into the spare buffer.
        var reading: BlockRead?
        defer { reading?.wait() }
        var filled = try input.fill(buffer, from: 0)
        while !merger.stopped {
            merger.report.bytes += filled - carry
            // A full block may end at the file's end: its last line is then the file's last.
            let eof = filled < buffer.count || input.size() == fileOffset + filled
            let base = UnsafeRawBufferPointer(buffer)
            var start = 0
            if let longStart = longLineStart {
                guard let newline = memchrIndex(base, 0x0A, from: 0, to: filled) else {
                    fileOffset += filled
                    carry = 0
                    if eof {
                        merger.defect(Self.overLongAtEnd(from: longStart, to: fileOffset), offset: longStart, isLastLine: isLast)
                        return
                    }
                    filled = try input.fill(buffer, from: 0)
                    continue
                }
                let length = fileOffset + newline - longStart
                merger.defect(LineError(.lineTooLong, at: 0, "line is \(length) bytes, longer than the 64 KiB limit"),
                                  offset: longStart, isLastLine: isLast && eof && newline + 1 == filled)
                longLineStart = nil
                start = newline + 1
            }
            let lastNewline = memrchrIndex(base, 0x0A, from: start, to: filled)
            let completeEnd = lastNewline.map { $0 + 1 } ?? start
            let remainder = filled - completeEnd
            if !eof, remainder < filled, let next = spare {
                // The line the block ends inside goes first in the next block.
                if remainder > 0 { next.baseAddress!.copyMemory(from: buffer.baseAddress! + completeEnd, byteCount: remainder) }
                reading = BlockRead(input, into: next, from: remainder)
            }
            if completeEnd > start {
                let lastLineIsFinal = isLast && eof && completeEnd == filled
                try decodeLines(base, start: start, end: completeEnd, fileOffset: fileOffset,
                                finalLine: lastLineIsFinal, merger: &merger, body)
                if merger.stopped { return }
            }
            if eof {
                if remainder > 0 {
                    let tail = UnsafeRawBufferPointer(rebasing: base[completeEnd..<filled])
                    merger.defect(LineError(.tornLine, at: 0, Self.describeTorn(tail)),
                                      offset: fileOffset + completeEnd, isLastLine: isLast)
                }
                return
            }
            if remainder == filled {
                // A whole block without a newline: the line is too long; skip to its end.
                longLineStart = fileOffset
                fileOffset += filled
                carry = 0
                filled = try input.fill(buffer, from: 0)
                continue
            }
            fileOffset += completeEnd
            carry = remainder
            if let read = reading {
                reading = nil
                filled = try read.result()
                swap(&buffer, &spare!)
            } else {
                if remainder > 0 {
                    buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + completeEnd, byteCount: remainder)
                }
                filled = try input.fill(buffer, from: remainder)
            }
        }
    }

    /// The defect of a line longer than the limit that runs from `start` to the file's end at `end`.
    static func overLongAtEnd(from start: Int, to end: Int) -> LineError {
        LineError(.tornLine, at: 0, "an over-long line of \(end - start) bytes without a newline at end of file")
    }

    static func describeTorn(_ tail: UnsafeRawBufferPointer) -> String {
        if tail.allSatisfy({ $0 == 0 }) {
            return "no newline at end of file (\(tail.count) zero bytes, as a preallocated or partly written block leaves)"
        }
        return "no newline at end of file (\(tail.count) byte\(tail.count == 1 ? "" : "s"))"
    }

    /// Decodes the complete lines in `[start, end)` and hands them to the merger in order.
    ///
    /// Large blocks are cut at line ends into parts, claimed in order by `threads − 1` workers,
    /// which decode a part into a ``DecodedPart``, and by this thread. It delivers the parts in
    /// order: it decodes the next one itself, delivering its events as they come, when no worker
    /// has claimed it yet, and while a worker still decodes it, decodes the next unclaimed part as
    /// a worker would instead of waiting. So the merger's and `body`'s work on this thread overlaps the workers'
    /// decoding. `body` and the merger only ever run on the calling thread.
    func decodeLines(_ base: UnsafeRawBufferPointer, start: Int, end: Int, fileOffset: Int,
                     finalLine: Bool, merger: inout Merger, _ body: PositionedBody) throws {
        guard threads > 1, end - start >= parallelBytes else {
            return try deliverPart(base, start: start, end: end, fileOffset: fileOffset, finalLine: finalLine, merger: &merger, body)
        }
        // About eight parts per thread: small enough that no thread waits long for another.
        let partBytes = min(max((end - start) / (threads * 8), 16 << 10), 256 << 10)
        var bounds = [start]
        while let newline = memchrIndex(base, 0x0A, from: bounds.last! + partBytes, to: end), newline + 1 < end {
            bounds.append(newline + 1)
        }
        bounds.append(end)
        let parts = bounds
        let board = PartBoard(parts: parts.count - 1)
        let group = DispatchGroup()
        nonisolated(unsafe) let block = base
        for _ in 1..<threads {
            DispatchQueue.global().async(group: group) {
                while let k = board.claim() {
                    board.finish(k, Self.decodePart(block, start: parts[k], end: parts[k + 1]))
                }
            }
        }
        // The workers read the block: wait for them whatever happens on this thread.
        defer {
            board.cancel()
            group.wait()
        }
        for k in 0..<board.parts {
            if merger.stopped { return }
            let isFinal = finalLine && k == board.parts - 1
            if board.claim(k) {
                try deliverPart(base, start: parts[k], end: parts[k + 1], fileOffset: fileOffset, finalLine: isFinal, merger: &merger, body)
                continue
            }
            // While a worker decodes part k, this thread decodes the next unclaimed part.
            var ready = board.decodedIfDone(k)
            while ready == nil, let j = board.claim() {
                board.finish(j, Self.decodePart(base, start: parts[j], end: parts[j + 1]))
                ready = board.decodedIfDone(k)
            }
            let decoded = ready ?? board.decoded(k)
            try decoded.deliver(fileOffset: fileOffset, finalLine: isFinal, merger: &merger, body)
        }
    }

    /// Decodes the lines in `[start, end)` on this thread, handing each to the merger as it goes.
    private func deliverPart(_ base: UnsafeRawBufferPointer, start: Int, end: Int, fileOffset: Int,
                             finalLine: Bool, merger: inout Merger, _ body: PositionedBody) throws {
        let cache = DecodingCache()
        defer { cache.deallocate() }
        var lineStart = start
        while lineStart < end, !merger.stopped {
            prefetchAhead(base, of: lineStart, end: end)
            let newline = memchrIndex(base, 0x0A, from: lineStart, to: end) ?? end
            let isFinal = finalLine && newline + 1 >= end
            let decoded: DecodedLine
            do throws(LineError) {
                decoded = try LineDecoder.decode(UnsafeRawBufferPointer(rebasing: base[lineStart..<newline]), cache: cache)
            } catch {
                merger.defect(error, offset: fileOffset + lineStart, isLastLine: isFinal)
                lineStart = newline + 1
                continue
            }
            try merger.event(decoded.event, hasCRC: decoded.hasCRC, offset: fileOffset + lineStart, isLastLine: isFinal, body)
            lineStart = newline + 1
        }
    }

    /// Decodes the lines in `[start, end)` into a ``DecodedPart``, on a worker thread.
    static func decodePart(_ base: UnsafeRawBufferPointer, start: Int, end: Int) -> DecodedPart {
        let part = DecodedPart(capacity: (end - start) / 128 + 1)
        let cache = DecodingCache()
        defer { cache.deallocate() }
        var lineStart = start
        while lineStart < end {
            prefetchAhead(base, of: lineStart, end: end)
            let newline = memchrIndex(base, 0x0A, from: lineStart, to: end) ?? end
            let line = UnsafeRawBufferPointer(rebasing: base[lineStart..<newline])
            do throws(LineError) {
                let decoded = try LineDecoder.decode(line, cache: cache)
                part.append(consume decoded, lineStart: lineStart)
            } catch {
                part.append(error, lineStart: lineStart)
            }
            lineStart = newline + 1
        }
        return part
    }
}

/// A part's decoded lines, in order: its events stay where the worker put them until they are
/// delivered, in place. An array of enums of event or defect copied each event in and out again,
/// retaining and releasing every string, which cost about a third of decoding it.
final class DecodedPart: @unchecked Sendable {
    /// Where a line starts, whether it is the next event or the next defect, and whether the
    /// event's line has a `crc`.
    private struct Line {
        var start: Int
        var isEvent: Bool
        var hasCRC: Bool
    }

    // Only ever used by one thread at a time, handed over through the part board's lock.
    @exclusivity(unchecked) private var lines: [Line] = []
    @exclusivity(unchecked) private var events: UnsafeMutablePointer<NavigationEvent>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var count = 0
    /// How many events were moved out, delivered.
    @exclusivity(unchecked) private var delivered = 0
    @exclusivity(unchecked) private var defects: [LineError] = []

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        events = .allocate(capacity: self.capacity)
        lines.reserveCapacity(self.capacity)
    }

    deinit {
        (events + delivered).deinitialize(count: count - delivered)
        events.deallocate()
    }

    func append(_ decoded: consuming DecodedLine, lineStart: Int) {
        if count == capacity {
            let larger = UnsafeMutablePointer<NavigationEvent>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: events, count: count)
            events.deallocate()
            events = larger
            capacity *= 2
        }
        lines.append(Line(start: lineStart, isEvent: true, hasCRC: decoded.hasCRC))
        (events + count).initialize(to: decoded.event)
        count += 1
    }

    func append(_ defect: LineError, lineStart: Int) {
        defects.append(defect)
        lines.append(Line(start: lineStart, isEvent: false, hasCRC: false))
    }

    /// Hands the lines to `merger` in order, until it stops; `finalLine` when the part's last line
    /// is the log's last.
    func deliver(fileOffset: Int, finalLine: Bool, merger: inout Merger, _ body: PositionedBody) throws {
        var defect = 0
        for (k, line) in lines.enumerated() {
            if merger.stopped { return }
            let isLastLine = finalLine && k == lines.count - 1
            if line.isEvent {
                // Moved out into a constant of its own: handed over from the buffer, or as a member
                // of a moved-out value, it was copied, every string retained and released again.
                let event = (events + delivered).move()
                delivered += 1
                try merger.event(event, hasCRC: line.hasCRC, offset: fileOffset + line.start, isLastLine: isLastLine, body)
            } else {
                merger.defect(defects[defect], offset: fileOffset + line.start, isLastLine: isLastLine)
                defect += 1
            }
        }
    }
}

/// The read buffer, and the spare the next block is read into meanwhile (with several cores).
private struct Buffers {
    var current: UnsafeMutableRawBufferPointer
    var spare: UnsafeMutableRawBufferPointer?
}

/// A block being read on another thread.
private final class BlockRead: @unchecked Sendable {
    private var filled = 0
    private var error: (any Error)?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    /// Starts filling `buffer` from `from` on, from `input`'s position.
    init(_ input: InputFile, into buffer: UnsafeMutableRawBufferPointer, from: Int) {
        nonisolated(unsafe) let buffer = buffer
        nonisolated(unsafe) let input = input
        DispatchQueue.global().async {
            do { self.filled = try input.fill(buffer, from: from) } catch { self.error = error }
            self.done.signal()
        }
    }

    /// Waits for the read to end.
    func wait() {
        guard !waited else { return }
        done.wait()
        waited = true
    }

    /// Waits for the read and returns the bytes now in the buffer; rethrows its error.
    func result() throws -> Int {
        wait()
        if let error { throw error }
        return filled
    }
}

/// The parts of a block and who decodes them: each is claimed once, in order, by a worker or by
/// the delivering thread; a worker leaves its decoded part here until it is delivered.
private final class PartBoard: @unchecked Sendable {
    let parts: Int
    private let lock = NSLock()
    private var next = 0
    private var results: [DecodedPart?]
    private let done: [DispatchSemaphore]

    init(parts: Int) {
        self.parts = parts
        results = Array(repeating: nil, count: parts)
        done = (0..<parts).map { _ in DispatchSemaphore(value: 0) }
    }

    /// The next unclaimed part, now claimed; nil when none is left.
    func claim() -> Int? {
        lock.withLock {
            guard next < parts else { return nil }
            next += 1
            return next - 1
        }
    }

    /// Claims part `k` when it is the next unclaimed one.
    func claim(_ k: Int) -> Bool {
        lock.withLock {
            guard next == k else { return false }
            next += 1
            return true
        }
    }

    /// Leaves no part to claim: the workers stop after the parts they hold.
    func cancel() { lock.withLock { next = parts } }

    func finish(_ k: Int, _ decoded: DecodedPart) {
        lock.withLock { results[k] = decoded }
        done[k].signal()
    }

    /// Waits for part `k` to be decoded, and takes it.
    func decoded(_ k: Int) -> DecodedPart {
        done[k].wait()
        return take(k)
    }

    /// Takes part `k` if it is decoded; nil while it is not.
    func decodedIfDone(_ k: Int) -> DecodedPart? {
        done[k].wait(timeout: .now()) == .success ? take(k) : nil
    }

    private func take(_ k: Int) -> DecodedPart {
        lock.withLock {
            defer { results[k] = nil }
            return results[k]!
        }
    }
}

/// Asks the CPU to fetch the bytes a page after the line at `start` (as many as a line has),
/// before the newline scan reaches them: its own prefetching stops at each 4 KiB page, and the scan
/// is the first to read a block's bytes, waiting on memory at each page start otherwise.
@inline(__always) func prefetchAhead(_ base: UnsafeRawBufferPointer, of start: Int, end: Int) {
    let ahead = start + 4096
    guard ahead + 192 <= end else { return }
    navigation_history_prefetch(base.baseAddress! + ahead)
    navigation_history_prefetch(base.baseAddress! + ahead + 64)
    navigation_history_prefetch(base.baseAddress! + ahead + 128)
}

@inline(__always) func memchrIndex(_ base: UnsafeRawBufferPointer, _ byte: UInt8, from: Int, to: Int) -> Int? {
    guard from < to, let pointer = memchr(base.baseAddress! + from, Int32(byte), to - from) else { return nil }
    return UnsafeRawPointer(pointer) - base.baseAddress!
}

@inline(__always) func memrchrIndex(_ base: UnsafeRawBufferPointer, _ byte: UInt8, from: Int, to: Int) -> Int? {
    var i = to - 1
    while i >= from {
        if base[i] == byte { return i }
        i -= 1
    }
    return nil
}
