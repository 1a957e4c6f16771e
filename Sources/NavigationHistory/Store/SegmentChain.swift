/// The rule that a log's segments follow one another: each segment's first `seq` is the previous
/// segment's last `seq` plus one.
///
/// A segment copied over, restored from an older backup or left behind breaks it, and a writer that
/// went on after such a last segment would give new events seqs the log already holds, which no
/// reader shows. Checked from the segments' first and last lines alone: two small reads a segment,
/// not a reading of the log.
package enum SegmentChain {
    /// Checks that each of `segments` (paths, in order) from `first` on begins where the one
    /// before it ends.
    ///
    /// The last segment's first line may be torn (a crash while it held nothing else): opening
    /// removes such a segment, and the tail rule judges it; its link is then not checked.
    ///
    /// - Throws: ``NavigationHistoryError/Code/corruptLog`` naming both segments when one does
    ///   not follow the other, or when a line that says where a segment begins or ends is damaged.
    package static func check(_ segments: [String], from first: Int = 1) throws {
        guard segments.count > 1 else { return }
        let first = max(first, 1)
        var previous = try Bounds(of: segments[first - 1], needsFirst: false)
        for k in first..<segments.count {
            let isLast = k == segments.count - 1
            let segment = try Bounds(of: segments[k], needsFirst: true)
            guard let firstSeq = segment.firstSeq else {
                if isLast { return }
                throw damaged(segments[k], "its first line does not decode, so where it begins is not known")
            }
            let end = try previous.lastSeq()
            if firstSeq != end + 1 {
                let repeats = firstSeq <= end
                throw NavigationHistoryError(defect: LogDefect(
                    file: segments[k], line: 1, offset: 0, kind: repeats ? .seqNotIncreasing : .seqGap,
                    detail: "this segment begins at seq \(firstSeq), but \(previous.path) ends at seq \(end): "
                        + (repeats ? "it repeats events the log already holds" : "\(firstSeq - end - 1) events are missing between them")
                        + "; a log's segments follow one another (was a segment copied, restored from an older backup"
                        + " or deleted?), so nothing is written after them (`navlog verify` lists what the log holds)"))
            }
            previous = segment
        }
    }

    /// Where a segment begins, and the means to find where it ends.
    private struct Bounds {
        let path: String
        let file: InputFile
        let size: Int
        /// The seq of the first line, when asked for and readable.
        var firstSeq: Int?

        /// How much of a segment's start or end is read first: most lines fit; a longer last line
        /// is read whole, and a longer first line (the opening snapshot) only as far as its `seq`.
        static let window = 4096

        init(of path: String, needsFirst: Bool) throws {
            self.path = path
            file = try InputFile(path: path)
            size = file.size()
            if needsFirst { firstSeq = try Self.firstSeq(file) }
        }

        /// The first line is the segment's opening snapshot, as long as the state: its seq is read
        /// from the store's fixed layout, `{"v":1,"seq":N,`, without decoding the state (a damaged
        /// seq there is caught when the segment is read); a line in another layout is decoded.
        private static func firstSeq(_ file: InputFile) throws -> Int? {
            let bytes = try file.read(from: 0, count: window)
            let prefix = Array("{\"v\":1,\"seq\":".utf8)
            if bytes.starts(with: prefix) {
                let digits = bytes[prefix.count...].prefix { $0 &- 0x30 < 10 }
                if (1...16).contains(digits.count), digits.first != 0x30, digits.endIndex < bytes.count, bytes[digits.endIndex] == 0x2C {
                    return Int(String(decoding: digits, as: UTF8.self))
                }
            }
            guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
            return decodedSeq(bytes[..<newline])
        }

        /// The seq of the last line, which must be complete and decode: a segment before the last
        /// was synced whole before the next one was begun.
        func lastSeq() throws -> Int {
            for length in [Self.window, LineDecoder.maximumLineLength + 2] {
                let start = max(0, size - length)
                let bytes = try file.read(from: start, count: size - start)
                guard bytes.last == 0x0A else {
                    throw damaged(path, "it does not end with a complete line, though a later segment follows it")
                }
                let body = bytes.dropLast()
                guard let lineStart = body.lastIndex(of: 0x0A).map({ $0 + 1 }) ?? (start == 0 ? body.startIndex : nil) else {
                    continue   // a line longer than the window
                }
                guard let seq = decodedSeq(body[lineStart...]) else { break }
                return seq
            }
            throw damaged(path, "its last line does not decode, so where it ends is not known")
        }
    }

    private static func decodedSeq(_ line: ArraySlice<UInt8>) -> Int? {
        LineDecoder.decoded(line)?.event.seq
    }

    private static func damaged(_ segment: String, _ why: String) -> NavigationHistoryError {
        NavigationHistoryError(code: .corruptLog,
                               message: "\(why); the log's segments cannot be checked to follow one another"
                                   + " (`navlog verify --mode salvage` lists every defect and reads around them)",
                               path: segment)
    }
}

extension InputFile {
    /// Up to `count` bytes from `offset`: fewer at the file's end.
    fileprivate func read(from offset: Int, count: Int) throws -> [UInt8] {
        try seek(to: offset)
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = try bytes.withUnsafeMutableBytes { try fill($0, from: 0) }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
