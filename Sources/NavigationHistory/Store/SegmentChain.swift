/// The rule that a log's segments follow one another: each segment's first `seq` is the previous
/// segment's last `seq` plus one.
///
/// A segment copied over, restored from an older backup or left behind breaks it, and a writer that
/// went on after such a last segment would give new events seqs the log already holds, which no
/// reader shows. Checked from the segments' first and last lines alone, so opening a log costs
/// two small reads a segment, not a reading of the log.
package enum SegmentChain {
    /// Checks that each of `segments` (paths, in order) begins where the one before it ends.
    ///
    /// The last segment's first line may be torn (a crash while it held nothing else): opening
    /// removes such a segment, and the tail rule judges it; its link is then not checked.
    ///
    /// - Throws: ``NavigationHistoryError/Code/corruptLog`` naming both segments when one does
    ///   not follow the other, or when a line that says where a segment begins or ends is damaged.
    package static func check(_ segments: [String]) throws {
        guard segments.count > 1 else { return }
        var previousEnd = try lastSeq(of: segments[0])
        for (k, segment) in segments.enumerated().dropFirst() {
            let isLast = k == segments.count - 1
            guard let first = try firstSeq(of: segment) else {
                if isLast { return }
                throw damaged(segment, "its first line does not decode, so where it begins is not known")
            }
            if first != previousEnd.seq + 1 {
                let kind: DefectKind = first <= previousEnd.seq ? .seqNotIncreasing : .seqGap
                let relation = first <= previousEnd.seq
                    ? "it repeats events the log already holds"
                    : "\(first - previousEnd.seq - 1) events are missing between them"
                throw NavigationHistoryError(defect: LogDefect(
                    file: segment, line: 1, offset: 0, kind: kind,
                    detail: "this segment begins at seq \(first), but \(previousEnd.file) ends at seq \(previousEnd.seq):"
                        + " \(relation); a log's segments follow one another (was a segment copied, restored from an"
                        + " older backup or deleted?), so nothing is written after them (`navlog verify` lists what the log holds)"))
            }
            if !isLast { previousEnd = try lastSeq(of: segment) }
        }
    }

    /// The seq of a segment's first line, or nil when that line does not decode.
    private static func firstSeq(of segment: String) throws -> Int? {
        let bytes = try FileSystem.read(segment, from: 0, count: LineDecoder.maximumLineLength + 1)
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        return decodedSeq(bytes[..<newline])
    }

    /// The seq of a segment's last line, which must be complete and decode: a segment before the
    /// last was synced whole before the next one was begun.
    private static func lastSeq(of segment: String) throws -> (seq: Int, file: String) {
        let size = FileSystem.status(segment)?.size ?? 0
        let start = max(0, size - LineDecoder.maximumLineLength - 2)
        let bytes = try FileSystem.read(segment, from: start, count: size - start)
        guard bytes.last == 0x0A else {
            throw damaged(segment, "it does not end with a complete line, though a later segment follows it")
        }
        let body = bytes.dropLast()
        let lineStart = body.lastIndex(of: 0x0A).map { $0 + 1 } ?? (start == 0 ? body.startIndex : nil)
        guard let lineStart, let seq = decodedSeq(body[lineStart...]) else {
            throw damaged(segment, "its last line does not decode, so where it ends is not known")
        }
        return (seq, segment)
    }

    private static func decodedSeq(_ line: ArraySlice<UInt8>) -> Int? {
        let decoded = line.withUnsafeBytes { buffer in Result { () throws(LineError) in try LineDecoder.decode(buffer) } }
        return try? decoded.get().event.seq
    }

    private static func damaged(_ segment: String, _ why: String) -> NavigationHistoryError {
        NavigationHistoryError(code: .corruptLog,
                               message: "\(why); the log's segments cannot be checked to follow one another"
                                   + " (`navlog verify --mode salvage` lists every defect and reads around them)",
                               path: segment)
    }
}
