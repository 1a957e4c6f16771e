import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog append PATH (--event JSON | --stdin) [--session S]`
enum AppendCommand: Subcommand {
    static let name = "append"
    static let summary = "Append events, given as JSON, to a log directory through the store."
    static let help = """
        Usage: navlog append PATH --event JSON [--event JSON ...] [--session ID]
               navlog append PATH --stdin [--session ID]

        Appends events to the log directory PATH (created when missing) through the store: with its
        lock, its checks, the next seq, a crc, segment rotation, and a sync before it returns. For
        scripts and tests.

        Each event is one JSON object with the members of event format v1, e.g.
          {"type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"42"}}
        `seq` and `crc` may be left out and are ignored when given: the store numbers and checksums
        what it writes (so the output of `navlog dump` can be appended to another log). `v` defaults
        to 1, `ts` to now, and `session` to --session.

        Every event is checked before any is written: when one is invalid, nothing is appended and the
        error names it (`stdin:LINE:` or `--event N:`). Types unknown to this version are refused.

        Options:
          --event JSON   One event; repeat for several.
          --stdin        Read events from standard input, one JSON object per line (blank lines are
                         skipped; a line longer than 64 KiB is refused as soon as it is read).
          --session ID   The session of events that do not name one.

        Exit status: 0 when every event was appended, 64 on a usage error, 65 when an event is
        invalid or the log's last segment is damaged before its tail, 74 on an I/O error (a full disk:
        nothing after the failure is appended), 75 when another writer has the log open.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let parsed = try parse(arguments, options: ["--event", "--session"], flags: ["--stdin"]) else { return ExitCode.success }
        let path = try parsed.path()
        let session = parsed.value("--session")
        let events = parsed.all("--event")
        guard events.isEmpty != !parsed.has("--stdin") else {
            throw UsageError("give the events with --event JSON or --stdin (one of them)")
        }
        if path.hasSuffix(".jsonl") || FileManager.default.fileExists(atPath: path) && !isDirectory(path) {
            throw UsageError("append writes to a log directory, and \(path) is a single file")
        }
        var drafts: [EventDraft] = []
        let now = Timestamp.now
        if parsed.has("--stdin") {
            try readLines(of: 0) { bytes, number in
                guard let line = String(bytes: bytes, encoding: .utf8) else {
                    throw NavigationHistoryError(code: .invalidEvent, message: "stdin:\(number): invalid UTF-8; nothing was appended")
                }
                if line.allSatisfy(\.isWhitespace) { return }
                drafts.append(try draft(line, session: session, now: now, origin: "stdin:\(number)"))
            }
        } else {
            for (index, text) in events.enumerated() {
                drafts.append(try draft(text, session: session, now: now, origin: "--event \(index + 1)"))
            }
        }
        let log = try EventLog(directory: path, options: .init(durability: .none))
        defer { try? log.close() }
        let last = try log.append(contentsOf: drafts)
        try log.close()
        var out = StandardOutput()
        if drafts.isEmpty {
            out.line("\(path): no events given, nothing appended")
        } else {
            out.line("\(path): appended \(drafts.count) event\(drafts.count == 1 ? "" : "s"), the last one seq \(last); durable")
        }
        out.flush()
        return ExitCode.success
    }

    private static func draft(_ text: String, session: String?, now: Timestamp, origin: String) throws -> EventDraft {
        do {
            let draft = try EventDraft(json: text, defaultSession: session, now: now)
            try EventLog.check(draft)
            return draft
        } catch var error as NavigationHistoryError {
            error.message = "\(origin): \(error.message); nothing was appended"
            throw error
        }
    }

    /// Hands each line `fd` delivers, without its newline, to `body` with its number, reading a
    /// block at a time: a line longer than the limit of an event line is refused as soon as it is,
    /// so memory stays bounded whatever the input.
    private static func readLines(of fd: Int32, _ body: ([UInt8], Int) throws -> Void) throws {
        var line: [UInt8] = []
        var number = 1
        var block = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = block.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw NavigationHistoryError(code: .io, message: "cannot read standard input: \(String(cString: strerror(errno)))", errno: errno)
            }
            var start = 0
            while start < n {
                let end = block[start..<n].firstIndex(of: 0x0A) ?? n
                line += block[start..<end]
                guard line.count <= LineDecoder.maximumLineLength else {
                    throw NavigationHistoryError(code: .invalidEvent,
                                                 message: "stdin:\(number): the line is longer than the 64 KiB limit of an event line; nothing was appended")
                }
                if end < n {
                    try body(line, number)
                    line.removeAll(keepingCapacity: true)
                    number += 1
                }
                start = end + 1
            }
            if n == 0 {
                if !line.isEmpty { try body(line, number) }
                return
            }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
