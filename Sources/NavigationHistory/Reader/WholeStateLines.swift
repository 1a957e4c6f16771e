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
    /// one `startsWith` expects (the file changed: who reads from `start` finds out).
    ///
    /// - Through a seq, the lines are looked at from the last one back: a line in another layout,
    ///   or damaged, is passed over.
    /// - Through a time, from the first one on, up to the first whose event happened after the
    ///   time: a reading from the entry stops there, and one from the line found must stop at the
    ///   same event, so every line before that one must be known to have happened at or before
    ///   the time. A line whose time cannot be told (another layout, damage) ends the look there.
    package static func lastWholeStateLine(in file: String, from start: EventPosition, through target: ReadingTarget, within bytes: Int,
                                           startsWith expected: (NavigationEvent) -> Bool,
                                           buffer: inout [UInt8]) -> WholeStateLine? {
        let bytes = min(bytes, 4 << 20)
        if buffer.count < bytes { buffer = [UInt8](repeating: 0, count: bytes) }
        return buffer.withUnsafeMutableBytes { buffer -> WholeStateLine? in
            guard let filled = try? FileSystem.read(file, from: start.offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<bytes])) else {
                return nil
            }
            let read = UnsafeRawBufferPointer(rebasing: buffer[..<filled])
            // Only whole lines: the last one read may be cut short.
            guard let lastLineEnd = lastNewline(read, from: 0, to: filled),
                  let first = memchrIndex(read, 0x0A, from: 0, to: filled),
                  let event = LineDecoder.decoded(Array(read[..<first])[...])?.event, expected(event) else { return nil }
            func line(at lineStart: Int, seq: Int, number: Int) -> WholeStateLine {
                WholeStateLine(position: EventPosition(file: start.file, offset: start.offset + lineStart, line: number), seq: seq)
            }
            switch target {
            case .seq(let target):
                var lineEnd = lastLineEnd
                while true {
                    let lineStart = lastNewline(read, from: 0, to: lineEnd).map { $0 + 1 } ?? 0
                    if let (seq, _, type) = CanonicalLineDecoder.leadingMembers(UnsafeRawBufferPointer(rebasing: read[lineStart..<lineEnd])),
                       seq <= target, type.setsWholeState {
                        return line(at: lineStart, seq: seq, number: start.line + newlineCount(read, from: 0, to: lineStart))
                    }
                    guard lineStart > 0 else { return nil }
                    lineEnd = lineStart - 1
                }
            case .time(let time):
                var found: WholeStateLine?
                var lineStart = 0, number = start.line
                while lineStart < lastLineEnd, let lineEnd = memchrIndex(read, 0x0A, from: lineStart, to: lastLineEnd + 1) {
                    let text = UnsafeRawBufferPointer(rebasing: read[lineStart..<lineEnd])
                    guard let (seq, timestamp, type) = CanonicalLineDecoder.leadingMembers(text),
                          let happened = Timestamp.parse(UnsafeRawBufferPointer(rebasing: text[timestamp])), happened <= time else { break }
                    if type.setsWholeState { found = line(at: lineStart, seq: seq, number: number) }
                    lineStart = lineEnd + 1
                    number += 1
                }
                return found
            }
        }
    }
}
