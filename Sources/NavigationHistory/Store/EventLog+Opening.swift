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
        var segmentNumber = 0
        var segmentBytes = 0
    }

    static func open(_ directory: String) throws -> Opened {
        var opened = Opened()
        for name in try FileSystem.list(directory) where name.hasSuffix(".jsonl" + temporarySuffix) {
            try FileSystem.remove(directory + "/" + name)
            opened.recovery.removedFiles.append(directory + "/" + name)
        }
        var numbers = try segmentNumbers(directory)
        while let number = numbers.last {
            let path = directory + "/" + segmentName(number)
            var state = NavigationState()
            var lastSeq = 0
            var events = 0
            let reader = LogReader(path: path, mode: .tolerateTornTail, threads: 1)
            let report = try reader.scan(files: [path], segmented: true) { event in
                _ = Projection.fold(&state, event)
                lastSeq = event.seq
                events += 1
            }
            if let stop = report.stoppedAt {
                var error = NavigationHistoryError(defect: stop)
                error.message += "; the last segment is damaged before its tail, so nothing is appended to it"
                    + " (`navlog verify --mode salvage \(directory)` lists every defect)"
                throw error
            }
            if let torn = report.tornTail {
                let cut = try cutTail(of: path, at: torn.offset)
                opened.recovery.tornTail = torn
                opened.recovery.savedTo = cut.savedTo
                opened.recovery.removedBytes += cut.removedBytes
            }
            if events == 0 {
                try FileSystem.remove(path)
                try FileSystem.syncDirectory(directory)
                opened.recovery.removedFiles.append(path)
                numbers.removeLast()
                continue
            }
            // What a crash left in the page cache becomes durable before anything follows it.
            try WritableFile(path: path).sync()
            opened.state = state
            opened.lastSeq = lastSeq
            opened.segmentNumber = number
            opened.segmentBytes = FileSystem.status(path)?.size ?? 0
            return opened
        }
        return opened
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
        let file = try WritableFile(path: path)
        try file.truncate(to: offset)
        try file.sync()
        let directory = (path as NSString).deletingLastPathComponent
        try FileSystem.syncDirectory(directory.isEmpty ? "." : directory)
        return (savedTo, bytes.count)
    }
}
