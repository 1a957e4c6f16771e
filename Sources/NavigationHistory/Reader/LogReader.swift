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
/// Reading is streaming with bounded memory: the log is read in blocks (4 MiB by default) and never
/// held whole. Each block's lines are decoded on several cores at once and delivered in order.
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
    /// The share of a block the calling thread decodes when several cores do: less than an even
    /// share when `body` has work of its own to do (a fold), so that the parts end together.
    package var callerShare = 0.5
    /// Whether to fold the events as they are read and report each `snapshot` whose state differs
    /// from the folded one as a ``DefectKind/snapshotMismatch`` defect, and count anomalies in the
    /// report. What `navlog verify` does; off by default, as it costs a fold per event.
    public var checksSnapshots = false

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
        let report = try scan(body)
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
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { buffer.deallocate() }
        for (index, file) in files.enumerated() {
            if let start, index < start.file { continue }
            merger.report.segments += 1
            let resume = start.flatMap { $0.file == index ? $0 : nil }
            merger.beginFile(file, index: index, crcRequired: segmented, firstLine: resume?.line ?? 1)
            let isLast = index == files.count - 1
            try readFile(file, from: resume?.offset ?? 0, isLast: isLast, buffer: buffer, merger: &merger, body)
            if merger.stopped {
                if mode == .pointInTime, let stop = merger.report.stoppedAt {
                    merger.reportUnread(after: stop, laterFiles: Array(files[(index + 1)...]), in: file)
                }
                break
            }
        }
        return merger.report
    }

    private func readFile(_ file: String, from offset: Int, isLast: Bool, buffer: UnsafeMutableRawBufferPointer,
                          merger: inout Merger, _ body: PositionedBody) throws {
        let input = try InputFile(path: file)
        if offset > 0 { try input.seek(to: offset) }
        var carry = 0
        var fileOffset = offset
        var longLineStart: Int?
        while !merger.stopped {
            let filled = try input.fill(buffer, from: carry)
            merger.report.bytes += filled - carry
            let eof = filled < buffer.count
            let base = UnsafeRawBufferPointer(buffer)
            var start = 0
            if let longStart = longLineStart {
                guard let newline = memchrIndex(base, 0x0A, from: 0, to: filled) else {
                    fileOffset += filled
                    carry = 0
                    if eof {
                        merger.defect(LineError(.tornLine, at: 0, "an over-long line of \(fileOffset - longStart) bytes without a newline at end of file"),
                                          offset: longStart, isLastLine: isLast)
                        return
                    }
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
            if completeEnd > start {
                let lastLineIsFinal = isLast && eof && completeEnd == filled
                try decodeLines(base, start: start, end: completeEnd, fileOffset: fileOffset,
                                finalLine: lastLineIsFinal, merger: &merger, body)
                if merger.stopped { return }
            }
            let remainder = filled - completeEnd
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
                continue
            }
            if remainder > 0 {
                (buffer.baseAddress! + 0).copyMemory(from: buffer.baseAddress! + completeEnd, byteCount: remainder)
            }
            fileOffset += completeEnd
            carry = remainder
        }
    }

    static func describeTorn(_ tail: UnsafeRawBufferPointer) -> String {
        if tail.allSatisfy({ $0 == 0 }) {
            return "no newline at end of file (\(tail.count) zero bytes, as a preallocated or partly written block leaves)"
        }
        return "no newline at end of file (\(tail.count) bytes)"
    }

    /// Decodes the complete lines in `[start, end)` and hands them to the merger in order.
    ///
    /// Large blocks are split at line ends: the calling thread decodes the first part and delivers
    /// its events as it goes, while other cores decode the remaining parts into arrays that are
    /// delivered after it. `body` and the merger only ever run on the calling thread.
    private func decodeLines(_ base: UnsafeRawBufferPointer, start: Int, end: Int, fileOffset: Int,
                             finalLine: Bool, merger: inout Merger, _ body: PositionedBody) throws {
        let tasks = end - start >= parallelBytes ? threads : 1
        var bounds = [start]
        for k in 1..<max(tasks, 1) {
            // The calling thread's part is `callerShare` of the block; the workers share the rest.
            let share = callerShare + Double(k - 1) * (1 - callerShare) / Double(tasks - 1)
            let guess = max(start + Int(Double(end - start) * share), bounds.last!)
            if let newline = memchrIndex(base, 0x0A, from: guess, to: end), newline + 1 < end { bounds.append(newline + 1) }
        }
        bounds.append(end)
        let parts = bounds
        let background = parts.count - 2
        var results = [[LineOutcome]](repeating: [], count: background)
        let group = DispatchGroup()
        try results.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let block = base
            nonisolated(unsafe) let slots = slots
            for k in 0..<background {
                DispatchQueue.global().async(group: group) {
                    slots[k] = Self.decodePart(block, start: parts[k + 1], end: parts[k + 2])
                }
            }
            // The workers read the block: wait for them whatever happens on this thread.
            defer { group.wait() }
            try deliverPart(base, start: parts[0], end: parts[1], fileOffset: fileOffset,
                            finalLine: finalLine && background == 0, merger: &merger, body)
        }
        for (k, outcomes) in results.enumerated() {
            for (i, outcome) in outcomes.enumerated() {
                if merger.stopped { return }
                let isFinal = finalLine && k == results.count - 1 && i == outcomes.count - 1
                switch outcome {
                case .event(let event, let hasCRC, let lineStart):
                    try merger.event(event, hasCRC: hasCRC, offset: fileOffset + lineStart, isLastLine: isFinal, body)
                case .defect(let error, let lineStart):
                    merger.defect(error, offset: fileOffset + lineStart, isLastLine: isFinal)
                }
            }
        }
    }

    /// Decodes the lines in `[start, end)` on this thread, handing each to the merger as it goes.
    private func deliverPart(_ base: UnsafeRawBufferPointer, start: Int, end: Int, fileOffset: Int,
                             finalLine: Bool, merger: inout Merger, _ body: PositionedBody) throws {
        var lineStart = start
        while lineStart < end, !merger.stopped {
            let newline = memchrIndex(base, 0x0A, from: lineStart, to: end) ?? end
            let isFinal = finalLine && newline + 1 >= end
            let decoded: DecodedLine
            do throws(LineError) {
                decoded = try LineDecoder.decode(UnsafeRawBufferPointer(rebasing: base[lineStart..<newline]))
            } catch {
                merger.defect(error, offset: fileOffset + lineStart, isLastLine: isFinal)
                lineStart = newline + 1
                continue
            }
            try merger.event(decoded.event, hasCRC: decoded.hasCRC, offset: fileOffset + lineStart, isLastLine: isFinal, body)
            lineStart = newline + 1
        }
    }

    /// A decoded line waiting, in a worker's array, to be delivered.
    enum LineOutcome: Sendable {
        case event(NavigationEvent, hasCRC: Bool, lineStart: Int)
        case defect(LineError, lineStart: Int)
    }

    /// Decodes the lines in `[start, end)` into outcomes, on a worker thread.
    static func decodePart(_ base: UnsafeRawBufferPointer, start: Int, end: Int) -> [LineOutcome] {
        var outcomes = [LineOutcome]()
        outcomes.reserveCapacity((end - start) / 128 + 1)
        var lineStart = start
        while lineStart < end {
            let newline = memchrIndex(base, 0x0A, from: lineStart, to: end) ?? end
            let line = UnsafeRawBufferPointer(rebasing: base[lineStart..<newline])
            do {
                let decoded = try LineDecoder.decode(line)
                outcomes.append(.event(decoded.event, hasCRC: decoded.hasCRC, lineStart: lineStart))
            } catch {
                outcomes.append(.defect(error, lineStart: lineStart))
            }
            lineStart = newline + 1
        }
        return outcomes
    }
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
