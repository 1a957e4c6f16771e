/// Reads a log's events backwards from its end, newest first, a block at a time: what a restore
/// needs, since its cost must depend on how far back the last snapshot is, not on the log's length.
///
/// Every line is decoded and checked as the forward reader checks a single line (UTF-8, JSON, crc,
/// members, the 64 KiB limit); the checks across lines (gapless seq) are not made. A torn last line
/// is skipped, as `tolerateTornTail` does; any other defect stops the reading with an error.
package struct LogTail {
    private let source: LogSource
    private var file: Int
    private var end: Int          // bytes of `file` not yet read
    private var pending: [UInt8] = []   // the start of a line whose beginning is in an earlier block
    private var lines: [NavigationEvent] = []   // decoded, newest last
    private var atLogEnd = true
    private static let blockSize = 64 << 10

    package init(_ source: LogSource) {
        self.source = source
        file = source.files.count - 1
        end = file >= 0 ? FileSystem.status(source.files[file])?.size ?? 0 : 0
    }

    /// The next event going back, or nil at the log's start.
    package mutating func previous() throws -> NavigationEvent? {
        while lines.isEmpty {
            guard try readBlock() else { return nil }
        }
        return lines.removeLast()
    }

    /// Reads the block before `end` (or the previous file), decoding its complete lines.
    private mutating func readBlock() throws -> Bool {
        while end == 0 {
            // A file's first block leaves nothing pending: its first line begins at offset 0.
            guard file > 0 else { return !lines.isEmpty }
            file -= 1
            end = FileSystem.status(source.files[file])?.size ?? 0
            if !lines.isEmpty { return true }
        }
        let start = max(0, end - Self.blockSize)
        var bytes = try FileSystem.read(source.files[file], from: start, count: end - start) + pending
        end = start
        // The bytes before the first newline may belong to a line that began in an earlier block.
        if start > 0 {
            guard let newline = bytes.firstIndex(of: 0x0A) else {
                // No line is this long: what has no newline yet is the log's torn tail, or damage.
                guard bytes.count <= LineDecoder.maximumLineLength + 1 else {
                    if atLogEnd {
                        pending = []
                        end = start
                        return true   // a torn tail without any newline (a preallocated block): skipped
                    }
                    throw NavigationHistoryError(code: .corruptLog, message: "lineTooLong: a line longer than the 64 KiB limit", path: source.files[file])
                }
                pending = bytes
                return true
            }
            pending = Array(bytes[..<newline])
            bytes.removeSubrange(...newline)
        } else {
            pending = []
        }
        var parts = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if parts.last?.isEmpty == true { parts.removeLast() }
        try decode(parts)
        return true
    }

    private mutating func decode(_ parts: [[UInt8]]) throws {
        var decoded: [NavigationEvent] = []
        decoded.reserveCapacity(parts.count)
        for (k, part) in parts.enumerated() {
            let result = part.withUnsafeBytes { line in Result { () throws(LineError) in try LineDecoder.decode(line) } }
            switch result {
            case .success(let line):
                decoded.append(line.event)
            case .failure(let error):
                let isLogsLastLine = atLogEnd && k == parts.count - 1
                if isLogsLastLine { continue }   // a torn tail
                throw NavigationHistoryError(code: .corruptLog, message: "\(error.kind): \(error.detail)", path: source.files[file])
            }
        }
        if !parts.isEmpty { atLogEnd = false }   // only once the log's last line has been looked at
        lines.insert(contentsOf: decoded, at: 0)
    }
}
