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
        /// Files removed: segments a crash left half-created, and a last segment that held nothing
        /// but a torn line.
        public var removedFiles: [String] = []

        /// Whether the log was left exactly as a clean close leaves it.
        public var isClean: Bool { tornTail == nil && removedFiles.isEmpty }
    }
}

/// Opening a log directory: cleaning up after a crash and finding where to go on.
enum Opening {
    /// The suffix of a segment being created, before its rename.
    static let temporarySuffix = ".tmp"
    /// The largest segment number the eight digits of a segment's name hold.
    static let maximumSegmentNumber = 99_999_999

    static func segmentName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".jsonl"
    }

    /// The numbers of the segments in `directory`, in order.
    static func segmentNumbers(_ directory: String) throws -> [Int] {
        try FileSystem.list(directory).filter(LogFiles.isSegmentName).compactMap { Int($0.prefix(8)) }.sorted()
    }

    struct Opened {
        var recovery = EventLog.Recovery()
        var state = NavigationState()
        var lastSeq = 0
        var lastSnapshotSeq = 0
        var lastSession = ""
        var segmentNumber = 0
        var segmentBytes = 0
        /// The bytes of the last segment's first line, its opening snapshot.
        var openingBytes = 0
    }

    static func open(_ directory: String) throws -> Opened {
        var opened = Opened()
        var numbers = try segmentNumbers(directory)
        // Nothing is written before the segments are known to follow one another: appending after
        // a stale or copied last segment would give new events seqs the log already holds.
        try SegmentChain.check(numbers.map { directory + "/" + segmentName($0) })
        for name in try FileSystem.list(directory) where name.hasSuffix(".jsonl" + temporarySuffix) {
            try FileSystem.remove(directory + "/" + name)
            opened.recovery.removedFiles.append(directory + "/" + name)
        }
        while let number = numbers.last {
            let path = directory + "/" + segmentName(number)
            var state = NavigationState()
            var last: NavigationEvent?
            var lastSnapshotSeq = 0
            var secondLine: Int?
            if let damage = try LogEnd.damage(of: [path], crcRequired: true, { event, position in
                _ = Projection.fold(&state, event)
                if last != nil, secondLine == nil { secondLine = position.offset }
                if event.isSnapshot { lastSnapshotSeq = event.seq }
                last = event
            }) {
                let cut = try cutTail(of: path, at: damage.offset)
                opened.recovery.tornTail = damage
                opened.recovery.savedTo = cut.savedTo
                opened.recovery.removedBytes += cut.removedBytes
            }
            guard let last else {
                try FileSystem.remove(path)
                try FileSystem.syncDirectory(directory)
                opened.recovery.removedFiles.append(path)
                numbers.removeLast()
                continue
            }
            // What a crash left in the page cache becomes durable before anything follows it.
            try WritableFile(path: path).sync()
            opened.state = state
            opened.lastSeq = last.seq
            opened.lastSession = last.session
            opened.lastSnapshotSeq = lastSnapshotSeq
            opened.segmentNumber = number
            opened.segmentBytes = FileSystem.status(path)?.size ?? 0
            opened.openingBytes = secondLine ?? opened.segmentBytes
            return opened
        }
        return opened
    }

    /// The first line of `path` after `offset` that decodes, described, or nil.
    static func firstGoodLine(in path: String, after offset: Int) throws -> String? {
        let bytes = try FileSystem.readTail(path, from: offset)
        var start = bytes.firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        var line = 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            line += 1
            let decoded = bytes[start..<end].withUnsafeBytes { buffer in
                Result { () throws(LineError) in try LineDecoder.decode(buffer) }
            }
            if case .success(let good) = decoded { return "seq \(good.event.seq), \(line - 1) lines further" }
            start = end + 1
        }
        return nil
    }

    /// Cuts `path` at `offset`, first keeping the bytes removed in a new `<path>.torn` file (or
    /// `<path>.torn.2`, … when one exists). Everything is synced before it returns.
    static func cutTail(of path: String, at offset: Int) throws -> (savedTo: String, removedBytes: Int) {
        let bytes = try FileSystem.readTail(path, from: offset)
        var savedTo = path + ".torn"
        var suffix = 2
        while FileSystem.status(savedTo) != nil {
            savedTo = path + ".torn.\(suffix)"
            suffix += 1
        }
        try FileSystem.writeNewFile(savedTo, bytes)
        try FileSystem.syncDirectory(FileSystem.parent(of: path))   // the kept bytes are durable first
        let file = try WritableFile(path: path)
        try file.truncate(to: offset)
        try file.sync()
        return (savedTo, bytes.count)
    }
}
