import Foundation

extension EventLog {
    /// What opening a log found and repaired.
    public struct Recovery: Sendable, Hashable {
        /// The torn last line that was cut off, if there was one.
        public var tornTail: LogDefect?
        /// Where the bytes cut off were kept (`<segment>.torn`).
        public var savedTo: String?
        /// How many bytes were cut off.
        public var removedBytes = 0
        /// How many of the bytes cut off were kept in ``savedTo``: all of them, or the first
        /// 1 MiB of a longer tail.
        public var keptBytes = 0
        /// Files removed: segments a crash left half-created, and a last segment that held nothing
        /// but a torn line.
        public var removedFiles: [String] = []

        /// Whether the log was left exactly as a clean close leaves it.
        public var isClean: Bool { tornTail == nil && removedFiles.isEmpty }
    }
}

/// Opening a log directory: cleaning up after a crash and finding where to go on.
package enum Opening {
    /// The suffix of a segment being created, before its rename.
    package static let temporarySuffix = ".tmp"
    /// The largest segment number the eight digits of a segment's name hold.
    static let maximumSegmentNumber = 99_999_999

    package static func segmentName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".jsonl"
    }

    /// The numbers of the segments in `directory`, in order.
    static func segmentNumbers(_ directory: String) throws -> [Int] {
        try FileSystem.list(directory).compactMap(LogFiles.segmentNumber).sorted()
    }

    struct Opened {
        var recovery = EventLog.Recovery()
        var state = NavigationState()
        var lastSeq = 0
        var lastSnapshotSeq = 0
        var lastSession = ""
        var lastTimestamp = Timestamp(millisecondsSince1970: 0)
        var segmentNumber = 0
        var segmentBytes = 0
        /// The bytes of the last segment's first line, its opening snapshot.
        var openingBytes = 0
    }

    static func open(_ directory: String) throws -> Opened {
        var opened = Opened()
        let numbers = try segmentNumbers(directory)
        // Nothing is written before the whole log's end is judged: the segments must follow one
        // another (appending after a stale or copied last segment would give new events seqs the
        // log already holds), and every damage to cut must be a crash's.
        try SegmentChain.check(numbers.map { directory + "/" + segmentName($0) })
        var emptied: [(path: String, damage: LogDefect?)] = []   // last segments holding no event
        var kept: (number: Int, damage: LogDefect?)?
        for number in numbers.reversed() {
            let path = directory + "/" + segmentName(number)
            var folding = StateFolding()
            var last: NavigationEvent?
            var lastSnapshotSeq = 0
            var secondLine: Int?
            let damage = try LogEnd.damage(of: [path], crcRequired: true) { event, position in
                folding.fold(event)
                if last != nil, secondLine == nil { secondLine = position.offset }
                if event.isSnapshot { lastSnapshotSeq = event.seq }
                last = event
            }
            guard let last else {
                emptied.append((path, damage))
                continue
            }
            opened.state = folding.state
            opened.lastSeq = last.seq
            opened.lastSession = last.session
            opened.lastTimestamp = last.timestamp
            opened.lastSnapshotSeq = lastSnapshotSeq
            opened.segmentNumber = number
            opened.openingBytes = secondLine ?? 0
            kept = (number, damage)
            break
        }
        // Then what a crash left is cleaned up: segments half-created, emptied or torn.
        for name in try FileSystem.list(directory) where name.hasSuffix(".jsonl" + temporarySuffix) {
            try FileSystem.remove(directory + "/" + name)
            opened.recovery.removedFiles.append(directory + "/" + name)
        }
        func cut(_ path: String, at damage: LogDefect) throws {
            let cut = try cutTail(of: path, at: damage.offset)
            opened.recovery.tornTail = damage
            opened.recovery.savedTo = cut.savedTo
            opened.recovery.removedBytes += cut.removedBytes
            opened.recovery.keptBytes += cut.keptBytes
        }
        for (path, damage) in emptied {
            if let damage { try cut(path, at: damage) }
            try FileSystem.remove(path)
            try FileSystem.syncDirectory(directory)
            opened.recovery.removedFiles.append(path)
        }
        guard let kept else { return opened }
        let path = directory + "/" + segmentName(kept.number)
        if let damage = kept.damage { try cut(path, at: damage) }
        // What a crash left in the page cache becomes durable before anything follows it.
        try WritableFile(path: path).sync()
        opened.segmentBytes = FileSystem.status(path)?.size ?? 0
        if opened.openingBytes == 0 { opened.openingBytes = opened.segmentBytes }
        return opened
    }

    /// The first line of `path` after the line at `offset` that decodes, described, or nil.
    ///
    /// Read a block at a time: a line longer than the limit, which cannot decode, is skipped
    /// without being held, so a tail of any length is searched in bounded memory.
    static func firstGoodLine(in path: String, after offset: Int) throws -> String? {
        let input = try InputFile(path: path)
        try input.seek(to: offset)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { buffer.deallocate() }
        var filled = try input.fill(buffer, from: 0)
        var start = 0           // where the line not yet looked at begins in the buffer
        var linesFurther = 0    // how many lines after the damaged one the current one is
        var skipping = true     // the current line is the damaged one, or too long to decode
        func decoded(_ end: Int) -> String? {
            let line = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[start..<end])
            guard let good = try? LineDecoder.decode(line) else { return nil }
            return "seq \(good.event.seq), \(linesFurther) line\(linesFurther == 1 ? "" : "s") further"
        }
        while true {
            let base = UnsafeRawBufferPointer(buffer)
            while let newline = memchrIndex(base, 0x0A, from: start, to: filled) {
                if !skipping, let good = decoded(newline) { return good }
                skipping = false
                linesFurther += 1
                start = newline + 1
            }
            if filled < buffer.count {   // the end of the file: its last line may lack a newline
                return !skipping && start < filled ? decoded(filled) : nil
            }
            if start == 0 {
                skipping = true          // a whole buffer without a newline: too long to decode
                filled = try input.fill(buffer, from: 0)
            } else {
                let remainder = filled - start
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: remainder)
                filled = try input.fill(buffer, from: remainder)
            }
            start = 0
        }
    }

    /// The most bytes of a cut tail kept in its `.torn` file: a crash leaves less than a line and
    /// zeros; what is longer is damage of another kind, of which a prefix shows enough.
    static let keptTornBytes = 1 << 20

    /// Cuts `path` at `offset`, first keeping the bytes removed — at most the first
    /// ``keptTornBytes`` of them — in a new `<path>.torn` file (or `<path>.torn.2`, … when one
    /// exists). Everything is synced before it returns.
    static func cutTail(of path: String, at offset: Int) throws -> (savedTo: String, removedBytes: Int, keptBytes: Int) {
        let file = try WritableFile(path: path)
        let removed = max(0, try file.size() - offset)
        let kept = try FileSystem.read(path, from: offset, count: min(removed, keptTornBytes))
        var savedTo = path + ".torn"
        var suffix = 2
        while FileSystem.status(savedTo) != nil {
            savedTo = path + ".torn.\(suffix)"
            suffix += 1
        }
        try FileSystem.writeNewFile(savedTo, kept)
        try FileSystem.syncDirectory(FileSystem.parent(of: path))   // the kept bytes are durable first
        try file.truncate(to: offset)
        try file.sync()
        return (savedTo, removed, kept.count)
    }
}
