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

extension LogReader {
    /// The last line of `file` from `start` on whose event has a seq of at most `target` and sets
    /// the whole state — a `session.start`, a `snapshot` or a `restore` — among the whole lines in
    /// the file's first `bytes` bytes from `start` (4 MiB at most), read into `buffer`; with its
    /// position and seq.
    ///
    /// A fold may begin at such a line from any state, since its event replaces the state. Lines
    /// are told by the seq and type they begin with in the store's layout, without decoding them,
    /// from the last one back: a line in another layout, or damaged, is passed over, so a line found
    /// is a candidate, which the reading that begins there decodes and checks. Nil when none is
    /// found, the file cannot be read, or its line at `start` is not the one `startsWith` expects
    /// (the file changed: who reads from `start` finds out).
    package static func lastWholeStateLine(in file: String, from start: EventPosition, through target: Int, within bytes: Int,
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
            guard var lineEnd = lastNewline(read, from: 0, to: filled),
                  let first = memchrIndex(read, 0x0A, from: 0, to: filled),
                  let event = LineDecoder.decoded(Array(read[..<first])[...])?.event, expected(event) else { return nil }
            while true {
                let lineStart = lastNewline(read, from: 0, to: lineEnd).map { $0 + 1 } ?? 0
                if let (seq, type) = CanonicalLineDecoder.leadingSeqAndType(UnsafeRawBufferPointer(rebasing: read[lineStart..<lineEnd])),
                   seq <= target, type.setsWholeState {
                    let line = start.line + newlineCount(read, from: 0, to: lineStart)
                    return WholeStateLine(position: EventPosition(file: start.file, offset: start.offset + lineStart, line: line), seq: seq)
                }
                guard lineStart > 0 else { return nil }
                lineEnd = lineStart - 1
            }
        }
    }
}
