/// A line whose event sets the whole state — a `session.start`, a `snapshot` or a `restore` — found
/// by the seq and type it begins with: where a fold may begin from any state.
package struct WholeStateLine: Sendable {
    /// Where the line is.
    package var position: EventPosition
    /// The seq its line begins with.
    package var seq: Int

    /// Whether `event`, the first a reading from ``position`` hands over, is the line's: its seq,
    /// and a type that sets the whole state. A damaged line is skipped, and the next event is not.
    package func begins(with event: NavigationEvent) -> Bool { event.seq == seq && event.setsWholeState }
}

/// Where a reading that looks for a ``WholeStateLine`` is going: through a seq, or through the
/// events that happened at or before a time, up to the first that happened after it.
package enum ReadingTarget: Sendable {
    case seq(Int)
    case time(Timestamp)
}

extension LogReader {
    /// The last line of `file` from `start` on whose event sets the whole state — a
    /// `session.start`, a `snapshot` or a `restore` — and comes no later than `target`, among the
    /// whole lines in the file's first `bytes` bytes from `start` (4 MiB at most), read into
    /// `buffer`; with its position and seq.
    ///
    /// A fold may begin at such a line from any state, since its event replaces the state. Lines
    /// are told by the seq, time and type they begin with in the store's layout, without decoding
    /// them, so a line found is a candidate, which the reading that begins there decodes and
    /// checks. Nil when none is found, the file cannot be read, or its line at `start` is not the
    /// one `startsWith` expects, when given (the file changed: who reads from `start` finds out).
    ///
    /// - Through a seq, the lines are looked at from the last one back: a line in another layout,
    ///   or damaged, is passed over.
    /// - Through a time, from the first one on, up to the first whose event happened after the
    ///   time: a reading from the entry stops there, and one from the line found must stop at the
    ///   same event, so every line before that one must be known to have happened at or before
    ///   the time. A line whose time cannot be told (another layout, damage) ends the look there.
    package static func lastWholeStateLine(in file: String, from start: EventPosition, through target: ReadingTarget, within bytes: Int,
                                           startsWith expected: ((NavigationEvent) -> Bool)?,
                                           buffer: inout [UInt8]) -> WholeStateLine? {
        let bytes = min(bytes, 4 << 20)
        if buffer.count < bytes { buffer = [UInt8](repeating: 0, count: bytes) }
        return buffer.withUnsafeMutableBytes { buffer -> WholeStateLine? in
            // A look by time mostly ends far before `bytes`: it reads in pieces, the first of
            // 128 KiB, which holds a whole line of any length (`NavlogBench seeks --by-time`).
            var piece = bytes
            if case .time = target { piece = min(bytes, 128 << 10) }
            guard let filled = try? FileSystem.read(file, from: start.offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<piece])) else {
                return nil
            }
            if let expected {
                guard let first = memchrIndex(UnsafeRawBufferPointer(buffer), 0x0A, from: 0, to: filled),
                      let event = LineDecoder.decoded(Array(buffer[..<first])[...])?.event, expected(event) else { return nil }
            }
            switch target {
            case .seq(let target):
                return lastLine(in: UnsafeRawBufferPointer(rebasing: buffer[..<filled]), from: start, through: target)
            case .time(let time):
                return lastLine(in: file, from: start, through: time, buffer: buffer, filled: filled, piece: piece, bytes: bytes)
            }
        }
    }

    /// The last line whose event sets the whole state, among the lines of `file` from `start` on
    /// that happened at or before `time`, up to the first that did not or whose time cannot be
    /// told, within `bytes` from `start`: read into `buffer` a piece at a time, doubling, the
    /// first piece of `piece` bytes already there (`filled` of them).
    private static func lastLine(in file: String, from start: EventPosition, through time: Timestamp, buffer: UnsafeMutableRawBufferPointer,
                                 filled: Int, piece: Int, bytes: Int) -> WholeStateLine? {
        var found: WholeStateLine?
        var scanned = start, filled = filled, piece = piece
        while true {
            let read = UnsafeRawBufferPointer(rebasing: buffer[..<filled])
            guard let lastLineEnd = lastNewline(read, from: 0, to: filled) else { return found }
            let (stopped, next) = scan(read[...lastLineEnd], from: scanned, through: time, found: &found)
            scanned = next
            // Only whole lines were looked at: the next piece begins after the last one.
            guard !stopped, filled == piece, scanned.offset - start.offset < bytes else { return found }
            piece = min(piece * 2, bytes - (scanned.offset - start.offset))
            guard piece > 0, let more = try? FileSystem.read(file, from: scanned.offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<piece])) else {
                return found
            }
            filled = more
        }
    }

    /// The last line whose event sets the whole state and has a seq of at most `target` among the
    /// whole lines of `read`, the file's bytes from `start` on, looked at from the last one back.
    private static func lastLine(in read: UnsafeRawBufferPointer, from start: EventPosition, through target: Int) -> WholeStateLine? {
        guard var lineEnd = lastNewline(read, from: 0, to: read.count) else { return nil }
        while true {
            let lineStart = lastNewline(read, from: 0, to: lineEnd).map { $0 + 1 } ?? 0
            if let (seq, _, type) = CanonicalLineDecoder.leadingMembers(UnsafeRawBufferPointer(rebasing: read[lineStart..<lineEnd])),
               seq <= target, type.setsWholeState {
                let position = EventPosition(file: start.file, offset: start.offset + lineStart, line: start.line + newlineCount(read, from: 0, to: lineStart))
                return WholeStateLine(position: position, seq: seq)
            }
            guard lineStart > 0 else { return nil }
            lineEnd = lineStart - 1
        }
    }

    /// Looks at the lines of `lines`, the file's bytes from `start` on through a newline, from the
    /// first on, for the last whose event sets the whole state, into `found`, up to the first whose
    /// event happened after `time` or whose time cannot be told. Returns whether it met such a
    /// line, and the position after the last line it looked at.
    private static func scan(_ lines: Slice<UnsafeRawBufferPointer>, from start: EventPosition, through time: Timestamp,
                             found: inout WholeStateLine?) -> (stopped: Bool, next: EventPosition) {
        let read = UnsafeRawBufferPointer(rebasing: lines)
        var lineStart = 0, number = start.line
        while let lineEnd = memchrIndex(read, 0x0A, from: lineStart, to: read.count) {
            let text = UnsafeRawBufferPointer(rebasing: read[lineStart..<lineEnd])
            guard let (seq, timestamp, type) = CanonicalLineDecoder.leadingMembers(text),
                  let happened = Timestamp.parse(UnsafeRawBufferPointer(rebasing: text[timestamp])), happened <= time else {
                return (true, EventPosition(file: start.file, offset: start.offset + lineStart, line: number))
            }
            if type.setsWholeState {
                found = WholeStateLine(position: EventPosition(file: start.file, offset: start.offset + lineStart, line: number), seq: seq)
            }
            lineStart = lineEnd + 1
            number += 1
        }
        return (false, EventPosition(file: start.file, offset: start.offset + lineStart, line: number))
    }
}
