import Foundation
import NavigationHistory

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
        what it writes (so the output of `navlog dump` can be appended to another log). `snapshot`
        events are skipped and counted: the store writes its own, of the state its events fold to.
        `v` defaults to 1, `ts` to now, and `session` to --session.

        Every event is checked before any is written: when one is invalid, nothing is appended and the
        error names it (`stdin:LINE:` or `--event N:`). Types unknown to this version are refused.

        Options:
          --event JSON   One event; repeat for several.
          --stdin        Read events from standard input, one JSON object per line (blank lines are
                         skipped).
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
        var snapshots = 0
        let now = Timestamp.now
        if parsed.has("--stdin") {
            let input = FileHandle.standardInput.readDataToEndOfFile()
            for (index, bytes) in input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                guard let line = String(bytes: bytes, encoding: .utf8) else {
                    throw NavigationHistoryError(code: .invalidEvent, message: "stdin:\(index + 1): invalid UTF-8; nothing was appended")
                }
                if line.allSatisfy(\.isWhitespace) { continue }
                if let draft = try draft(line, session: session, now: now, origin: "stdin:\(index + 1)") { drafts.append(draft) } else { snapshots += 1 }
            }
        } else {
            for (index, text) in events.enumerated() {
                if let draft = try draft(text, session: session, now: now, origin: "--event \(index + 1)") { drafts.append(draft) } else { snapshots += 1 }
            }
        }
        let log = try EventLog(directory: path, options: .init(durability: .none))
        defer { try? log.close() }
        let last = try log.append(contentsOf: drafts)
        try log.close()
        var out = StandardOutput()
        let skipped = snapshots == 0 ? "" : "; skipped \(snapshots) snapshot event\(snapshots == 1 ? "" : "s"): the store writes its own"
        if drafts.isEmpty {
            out.line("\(path): no events given, nothing appended\(skipped)")
        } else {
            out.line("\(path): appended \(drafts.count) event\(drafts.count == 1 ? "" : "s"), the last one seq \(last); durable\(skipped)")
        }
        out.flush()
        return ExitCode.success
    }

    /// The event a line gives, checked; nil for a `snapshot`, which the store writes itself.
    private static func draft(_ text: String, session: String?, now: Timestamp, origin: String) throws -> EventDraft? {
        do {
            let draft = try EventDraft(json: text, defaultSession: session, now: now)
            if case .snapshot = draft.action { return nil }
            try EventLog.check(draft)
            return draft
        } catch var error as NavigationHistoryError {
            error.message = "\(origin): \(error.message); nothing was appended"
            throw error
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
