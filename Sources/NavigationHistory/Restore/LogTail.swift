/// Reads a log's lines backwards, newest first, through 64 KiB blocks: what a restore needs, since
/// its cost must depend on how far back the last snapshot is, not on the log's length.
///
/// It reads in one of two ways:
/// - from the log's end, *finding*: the bytes after the last newline are left out, and lines that
///   do not decode or are too long are passed over. It only finds where to begin; ``LogEnd`` then
///   reads forward from there and judges every line as the store does.
/// - from a line a forward reading began at, *checking*: every line before it must decode (UTF-8,
///   JSON, crc, members, the 64 KiB limit) and the seqs must run back without a gap, across
///   segments too. Anything else is damage before lines the forward reading accepted: an error.
package struct LogTail {
    /// A line read: its event, and where it is (`line` is not known: 0).
    package struct Line {
        package var event: NavigationEvent
        package var position: EventPosition
    }

    private let files: [String]
    private let checking: Bool
    private var file: Int
    /// The offset of the newline that ends the next line to read, or nil when the next line to
    /// read is the previous file's last.
    private var lineEnd: Int?
    private var block: [UInt8] = []
    private var blockStart = 0
    /// The last line returned when checking: the next one back must hold the seq before its.
    private var newer: (seq: Int, position: EventPosition)?
    private static let blockSize = 64 << 10

    /// Reads back from the end of the log whose files are `files`, finding.
    package init(endOf files: [String]) {
        self.files = files
        checking = false
        file = files.count
        lineEnd = nil
    }

    /// Reads back from the line at `position`, which holds seq `seq`, checking.
    package init(before position: EventPosition, seq: Int, in files: [String]) {
        self.files = files
        checking = true
        file = position.file
        lineEnd = position.offset > 0 ? position.offset - 1 : nil
        newer = (seq, position)
    }

    /// The next line going back, or nil at the log's start.
    ///
    /// - Throws: `corruptLog` when checking and a line is damaged or does not run on; `io`.
    package mutating func previous() throws -> Line? {
        while true {
            guard let end = try nextLineEnd() else { return nil }
            let newline = try previousNewline(before: end)
            let start = newline.map { $0 + 1 } ?? 0
            lineEnd = newline
            let position = EventPosition(file: file, offset: start, line: 0)
            guard end - start <= LineDecoder.maximumLineLength else {
                if checking { throw try damage(at: position, .lineTooLong, "line is \(end - start) bytes, longer than the 64 KiB limit") }
                continue
            }
            let bytes = try self.bytes(from: start, to: end)
            switch Result(catching: { () throws(LineError) in try LineDecoder.decode(bytes: bytes[...]) }) {
            case .success(let line):
                if checking {
                    // Named where the forward reader names it: at the line that does not follow.
                    if let newer, newer.seq != line.event.seq + 1 {
                        throw try newer.seq > line.event.seq
                            ? damage(at: newer.position, .seqGap,
                                     "seq \(newer.seq) after seq \(line.event.seq): \(newer.seq - line.event.seq - 1) events missing")
                            : damage(at: newer.position, .seqNotIncreasing,
                                     "seq \(newer.seq) after seq \(line.event.seq): events repeated or out of order")
                    }
                    newer = (line.event.seq, position)
                }
                return Line(event: line.event, position: position)
            case .failure(let error):
                if checking { throw try damage(at: position, error.kind, error.detail) }
            }
        }
    }

    /// The end of the next line to read, moving to the previous file when this one is read; nil at
    /// the log's start.
    private mutating func nextLineEnd() throws -> Int? {
        while lineEnd == nil {
            guard file > 0 else { return nil }
            file -= 1
            block = []
            let size = FileSystem.status(files[file])?.size ?? 0
            guard size > 0 else { continue }
            if try bytes(from: size - 1, to: size) == [0x0A] {
                lineEnd = size - 1
                continue
            }
            // What follows the last newline is a line that never ended: the log's torn tail, left
            // out when finding; damage when checking, as a file before the last was synced whole.
            if checking {
                throw try damage(at: EventPosition(file: file, offset: size, line: 0), .tornLine,
                                 "the file does not end with a newline, though a later file follows it")
            }
            lineEnd = try previousNewline(before: size)
        }
        return lineEnd
    }

    /// The offset of the last newline before `offset` in the current file, or nil when there is none.
    private mutating func previousNewline(before offset: Int) throws -> Int? {
        var searchEnd = offset
        while searchEnd > 0 {
            if searchEnd <= blockStart || searchEnd > blockStart + block.count {
                blockStart = max(0, searchEnd - Self.blockSize)
                block = try FileSystem.read(files[file], from: blockStart, count: searchEnd - blockStart)
            }
            if let index = block[..<(searchEnd - blockStart)].lastIndex(of: 0x0A) { return blockStart + index }
            searchEnd = blockStart
        }
        return nil
    }

    /// The bytes `[start, end)` of the current file.
    private func bytes(from start: Int, to end: Int) throws -> [UInt8] {
        if start >= blockStart && end <= blockStart + block.count {
            return Array(block[(start - blockStart)..<(end - blockStart)])
        }
        return try FileSystem.read(files[file], from: start, count: end - start)
    }

    /// The error for damage found while checking: it precedes lines the forward reading accepted,
    /// so it is not at the tail.
    private func damage(at position: EventPosition, _ kind: DefectKind, _ detail: String) throws -> NavigationHistoryError {
        let path = files[position.file]
        let line = try LogEnd.linesBefore(position.offset, in: path) + 1
        var error = NavigationHistoryError(defect: LogDefect(file: path, line: line, offset: position.offset, kind: kind, detail: detail))
        error.message += "; the damage is not at the tail (`navlog verify --mode salvage` lists every defect and reads around them)"
        return error
    }
}
