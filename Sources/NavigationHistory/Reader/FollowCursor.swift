import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a log's complete, checked lines as they are appended: from a segment on, through every
/// rotation, to whatever the files hold now; each ``poll()`` hands over what came since.
///
/// A line is read only once its newline is there, so a line still being written is never handed
/// over: the cursor stays at its start and reads it again once it is complete. A complete line that
/// fails its check at the very end of what is written is held the same way (a crashed writer's tail,
/// which the next writer cuts): only once something follows it, a line or the next segment, is it
/// the defect it is. Lines already read that shrink away or a segment replaced under the same name
/// throw ``NavigationHistoryError/Code/rewritten``; a segment retention deleted before it was read
/// throws ``NavigationHistoryError/Code/notRetained``.
///
/// The log is the directory or file first found at the path, held open so that its inode cannot
/// be reused: once the path is gone the cursor waits (``absence`` says so), follows the same log on
/// when it is moved back, and throws `rewritten` when anything else is at the path.
package final class FollowCursor {
    /// Which segment a cursor begins in.
    package enum Beginning: Sendable, Hashable {
        /// The oldest segment still there.
        case oldest
        /// The segment holding `seq` (or the last one, when `seq` is not written yet).
        case holding(Int)
        /// The last segment.
        case last
    }

    /// The largest number of bytes read at once.
    static let chunkSize = 1 << 20

    /// The log directory or file followed.
    package let path: String
    private var beginning: Beginning
    /// The log directory, once the path exists as one; nil for a single file or before it exists.
    private var directory: String?
    private var phase = Phase.absent
    /// The device and inode of the log opened, set as it is: its directory, held open by
    /// `directoryFD`, or its one file, held open by `file`.
    private var root: (device: UInt64, inode: UInt64)?
    private var directoryFD: Int32 = -1
    private var file: (fd: Int32, path: String, number: Int?, device: UInt64, inode: UInt64)?
    private var offset = 0
    private var line = 1
    private var crcRequired: Bool?
    /// The `seq` the next line must have, once one was read.
    private var expectedSeq: Int?
    private let cache = DecodingCache()

    /// A cursor on `path` (a log directory or `.jsonl` file, which need not exist yet) that begins
    /// at `beginning`.
    package init(path: String, beginning: Beginning) {
        self.path = path
        self.beginning = beginning
    }

    deinit {
        if let file { close(file.fd) }
        if directoryFD >= 0 { close(directoryFD) }
    }

    /// Where the cursor stands with the log at its path.
    private enum Phase {
        /// Nothing was at the path yet.
        case absent
        /// The log opened is at the path.
        case following
        /// The log opened is no longer at the path, and nothing else is.
        case removed
    }

    /// The last `seq` read (nil before the first).
    package var lastSeq: Int? { expectedSeq.map { $0 - 1 } }

    /// Why the cursor waits for its log, nil while it follows one.
    package var absence: LogWait? {
        switch phase {
        case .absent: .notCreated
        case .following: nil
        case .removed: .removed
        }
    }

    /// What to watch for news: the directory the path is in, which sees the log come and go, and
    /// the log directory followed; and the file being read.
    package var watchTargets: (directories: [String], file: String?) {
        let parent = FileSystem.parent(of: path)
        guard phase == .following else { return ([parent], nil) }
        if let directory { return ([directory, parent], file?.path) }
        return ([parent], file?.path)
    }

    /// The events whose lines were completed since the last poll, in order; empty when nothing new
    /// is there. At most about a chunk's worth at a time: poll until it returns none.
    ///
    /// Nothing is there while the path does not exist, before the log is created or once it was
    /// removed (``absence`` says which).
    ///
    /// - Throws: ``NavigationHistoryError``: `notRetained` when the beginning asked for events
    ///   retention deleted (or it deleted a segment before it was read); `rewritten` when the log
    ///   changed underneath (lines cut, a segment replaced, another log at the path); `corruptLog`
    ///   (or `unsupportedVersion`) for a defect; `noInput` when the path is something no log can
    ///   be; `io`.
    package func poll() throws -> [NavigationEvent] {
        switch phase {
        case .absent: guard try open() else { return [] }
        case .removed: guard try isBack() else { return [] }
        case .following: break
        }
        do {
            return try read()
        } catch let error as NavigationHistoryError where error.code == .io || error.code == .noInput {
            // Listing the directory or opening a segment fails once the directory is removed: that
            // is the log going away, not an I/O error.
            guard try isGone() else { throw error }
            return []
        }
    }

    private func read() throws -> [NavigationEvent] {
        if file == nil, let directory {
            // A log directory without a segment yet: looked at like the end of a segment.
            guard !(try isGone()), try openFirstSegment(directory) else { return [] }
        }
        while true {
            let (events, atEnd) = try readChunk()
            if !events.isEmpty || !atEnd { return events }
            guard let final = try nextSegment() else { return [] }
            if !final.isEmpty { return final }
        }
    }

    // MARK: Opening

    /// Opens the log when it exists (a directory's segments are opened as it is read); returns
    /// whether it does.
    private func open() throws -> Bool {
        let files: [String], segmented: Bool
        do {
            (files, segmented) = try LogFiles.resolve(path)
        } catch let error as NavigationHistoryError where LogFiles.isAbsent(error) {
            return false
        }
        guard segmented else {
            do {
                try openFile(files[0], number: nil)
            } catch let error as NavigationHistoryError where LogFiles.isAbsent(error) {
                return false   // removed since it was found
            }
            root = (file!.device, file!.inode)
            phase = .following
            if case .holding(let seq) = beginning, let first = try firstSeq(of: files[0]), seq < first {
                throw Self.notRetained(seq, first: first, path: path)
            }
            return true
        }
        guard let fd = try FileSystem.openDirectory(path) else { return false }   // removed since it was listed
        var info = stat()
        fstat(fd, &info)
        directoryFD = fd
        root = Self.identity(info)
        directory = path
        phase = .following
        return true
    }

    /// Opens the segment to begin in; returns false when the directory holds none yet.
    private func openFirstSegment(_ directory: String) throws -> Bool {
        for attempt in 0..<3 {
            let numbers = try Opening.segmentNumbers(directory)
            guard !numbers.isEmpty else {
                beginning = .oldest   // the first segment to come holds the log's first events
                return false
            }
            do {
                try openSegment(try chooseSegment(numbers), expectingFirst: nil)
                return true
            } catch let error as NavigationHistoryError where LogFiles.isAbsent(error) && attempt < 2 {
                continue   // retention deleted it between the listing and the opening
            }
        }
        return false
    }

    /// The segment to begin in among `numbers`, found by their first lines' seqs.
    private func chooseSegment(_ numbers: [Int]) throws -> Int {
        switch beginning {
        case .oldest: return numbers[0]
        case .last: return numbers[numbers.count - 1]
        case .holding(let seq):
            let first = try firstSeq(of: segmentPath(numbers[0])) ?? 1
            if seq < first { throw Self.notRetained(seq, first: first, path: path) }
            // The last segment whose first seq is at most `seq`.
            var (low, high) = (0, numbers.count - 1)
            while low < high {
                let middle = (low + high + 1) / 2
                if let start = try firstSeq(of: segmentPath(numbers[middle])), start <= seq { low = middle } else { high = middle - 1 }
            }
            return numbers[low]
        }
    }

    private func segmentPath(_ number: Int) -> String { path + "/" + Opening.segmentName(number) }

    /// The seq of the first line of `file`, nil when it has no complete line yet.
    private func firstSeq(of file: String) throws -> Int? {
        let bytes = try FileSystem.read(file, from: 0, count: LineDecoder.maximumLineLength + 1)
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        return LineDecoder.decoded(bytes[..<newline])?.event.seq
    }

    private func openFile(_ path: String, number: Int?) throws {
        let fd = try FileSystem.openRegular(path, O_RDONLY, "cannot open")
        var info = stat()
        fstat(fd, &info)
        if let file { close(file.fd) }
        let (device, inode) = Self.identity(info)
        file = (fd, path, number, device, inode)
        offset = 0
        line = 1
    }

    /// Opens segment `number`, whose first line must be `expectingFirst` when given.
    private func openSegment(_ number: Int, expectingFirst seq: Int?) throws {
        let path = segmentPath(number)
        if let seq, let first = try firstSeq(of: path), first != seq {
            throw NavigationHistoryError(code: .rewritten,
                                         message: "the log changed underneath its reader: this segment begins at seq \(first), where seq \(seq) was to follow",
                                         path: path)
        }
        try openFile(path, number: number)
        crcRequired = true
    }

    /// At the end of a segment: moves to the next one when it exists, which makes this one's end
    /// final. Returns nil when there is none yet, else the events this one's end still held (none
    /// once it moved).
    private func nextSegment() throws -> [NavigationEvent]? {
        guard let current = file, !(try isGone()) else { return nil }
        guard let number = current.number, let directory else { return nil }
        var info = stat()
        if lstat(current.path, &info) == 0, Self.identity(info) != (current.device, current.inode) {
            // Replaced with the whole directory (removed, and a log written anew in its place):
            // that is what is said.
            if try isGone() { return nil }
            throw NavigationHistoryError(code: .rewritten,
                                         message: "the log changed underneath its reader: the file was replaced by another (a repair, or a log written anew)",
                                         path: current.path)
        }
        // A segment gone was deleted by retention: its descriptor still reads it.
        let next = directory + "/" + Opening.segmentName(number + 1)
        guard FileSystem.status(next) != nil else {
            let numbers = try Opening.segmentNumbers(directory)
            if let later = numbers.first(where: { $0 > number + 1 }) {
                let first = try numbers.first.flatMap { try firstSeq(of: segmentPath($0)) }
                throw NavigationHistoryError(code: .notRetained,
                                             message: "retention deleted segment \(Opening.segmentName(number + 1)) before it was read (segment \(Opening.segmentName(later)) is there)"
                                                + (first.map { "; the first seq still there is \($0)" } ?? ""),
                                             path: directory, firstRetainedSeq: first)
            }
            return nil
        }
        // The writer syncs a segment before it starts the next: what is left unread is damage.
        let (events, atEnd) = try readChunk(final: true)
        guard events.isEmpty, atEnd else { return events }   // hand them over first; come back at the end
        try openSegment(number + 1, expectingFirst: expectedSeq)
        return []
    }

    // MARK: The log at the path

    /// What is at the path, against the log opened.
    private enum Standing { case same, gone, other }

    private func standing() throws -> Standing {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .gone }
            throw FileSystem.error("cannot look at the log", path)
        }
        return Self.identity(info) == root! ? .same : .other
    }

    /// Whether the log opened is gone from its path, which makes the cursor wait for it.
    ///
    /// - Throws: `rewritten` when something else is at the path: the log opened is held open, so
    ///   its inode is not reused, and anything else there is another.
    private func isGone() throws -> Bool {
        switch try standing() {
        case .same: return false
        case .gone:
            phase = .removed
            return true
        case .other:
            throw NavigationHistoryError(code: .rewritten,
                                         message: "the log changed underneath its reader: it was removed and another written in its place while it was followed",
                                         path: path)
        }
    }

    /// Whether the log that was gone is back at its path (moved away and back), to be followed on.
    private func isBack() throws -> Bool {
        guard !(try isGone()) else { return false }
        phase = .following
        return true
    }

    private static func identity(_ info: stat) -> (device: UInt64, inode: UInt64) {
        (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
    }

    // MARK: Lines

    /// Reads the complete lines from the offset on, at most a chunk; returns their events, and
    /// whether the end of what is written was reached. `final` says the file will not grow, so a
    /// line without its newline, or a bad last line, is a defect.
    private func readChunk(final: Bool = false) throws -> (events: [NavigationEvent], atEnd: Bool) {
        let current = file!
        let bytes = try FileSystem.read(current.fd, current.path, from: offset, count: Self.chunkSize)
        if bytes.isEmpty {
            var info = stat()
            if fstat(current.fd, &info) == 0, Int(info.st_size) < offset {
                throw NavigationHistoryError(code: .rewritten,
                                             message: "the log changed underneath its reader: the file is \(info.st_size) bytes, shorter than the \(offset) bytes already read (repaired or replaced)",
                                             path: current.path)
            }
            return ([], true)
        }
        var events: [NavigationEvent] = []
        events.reserveCapacity(min(bytes.count / 128, 8192))
        var start = 0
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            let decoded: DecodedLine
            do {
                decoded = try LineDecoder.decode(bytes: bytes[start..<newline])
                try check(decoded)
            } catch let error as LineError {
                // A bad line with nothing after it yet may be a crashed writer's tail: wait.
                if newline + 1 == bytes.count, bytes.count < Self.chunkSize, !final { return (events, true) }
                throw defect(error)
            }
            expectedSeq = decoded.event.seq + 1
            events.append(decoded.event)
            offset += newline + 1 - start
            line += 1
            start = newline + 1
        }
        let rest = bytes.count - start
        if rest > LineDecoder.maximumLineLength || (final && rest > 0) {
            throw defect(LineError(rest > LineDecoder.maximumLineLength ? .lineTooLong : .tornLine, at: 0,
                                   rest > LineDecoder.maximumLineLength ? "a line longer than the 64 KiB limit"
                                       : "no newline at the end of a segment the log went on after (\(rest) bytes)"))
        }
        return (events, bytes.count < Self.chunkSize)
    }

    private func check(_ decoded: DecodedLine) throws {
        if crcRequired == nil { crcRequired = decoded.hasCRC }
        if crcRequired == true, !decoded.hasCRC {
            throw LineError(.missingCRC, at: 0, "a line without crc in a log whose lines carry one")
        }
        guard let expected = expectedSeq else { return }
        let seq = decoded.event.seq
        if seq > expected { throw LineError(.seqGap, at: 0, "seq \(seq) follows seq \(expected - 1): events are missing") }
        if seq < expected { throw LineError(.seqNotIncreasing, at: 0, "seq \(seq) follows seq \(expected - 1)") }
    }

    private func defect(_ error: LineError) -> NavigationHistoryError {
        NavigationHistoryError(defect: LogDefect(file: file!.path, line: line, offset: offset, kind: error.kind, detail: error.detail))
    }

    static func notRetained(_ seq: Int, first: Int, path: String) -> NavigationHistoryError {
        NavigationHistoryError(code: .notRetained,
                               message: "seq \(seq) is no longer in the log: retention deleted it; the first seq still there is \(first)",
                               path: path, firstRetainedSeq: first)
    }
}
