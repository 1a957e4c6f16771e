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
        what it writes (so the output of `navlog dump` can be appended to another log). `snapshot`
        events are skipped and counted: the store writes its own, of the state its events fold to.
        `v` defaults to 1, `ts` to now, and `session` to --session.

        Every event is checked before any is written: when one is invalid, nothing is appended and the
        error names it (`stdin:LINE:` or `--event N:`). Types unknown to this version are refused. From
        standard input, the checked events past the first 8 MiB wait in a private temporary file, not
        in memory, until all are checked.

        Options:
          --event JSON   One event; repeat for several.
          --stdin        Read events from standard input, one JSON object per line (blank lines are
                         skipped; a line longer than 64 KiB is refused as soon as it is read).
          --session ID   The session of events that do not name one.

        Exit status: 0 when every event was appended, 64 on a usage error, 65 when an event is
        invalid or the log's last segment is damaged before its tail, 74 on an I/O error (a full disk:
        nothing after the failure is appended), 75 when another writer has the log open.
        """

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments, options: ["--event", "--session"], flags: ["--stdin"]) else { return }
        let path = try parsed.path()
        let session = parsed.value("--session")
        let events = parsed.all("--event")
        guard events.isEmpty != !parsed.has("--stdin") else {
            throw UsageError("give the events with --event JSON or --stdin (one of them)")
        }
        if path.hasSuffix(".jsonl") || FileManager.default.fileExists(atPath: path) && !isDirectory(path) {
            throw UsageError("append writes to a log directory, and \(path) is a single file")
        }
        let now = Timestamp.now
        // Every event is checked before any is appended, as appending it after the events before
        // it would: its line, and the state it leads to. From standard input, the checked events
        // past the first few MiB wait in a private spool rather than in memory, and are read again
        // to be appended.
        let log = try EventLog(directory: path, options: .init(durability: .none))
        defer { try? log.close() }
        var trial = log.trial()
        func draft(_ text: String, origin: String) throws -> EventDraft? {
            try Self.draft(text, session: session, now: now, origin: origin, trial: &trial)
        }
        var drafts: [EventDraft] = []
        var snapshots = 0
        var spool: Spool?
        if parsed.has("--stdin") {
            var heldBytes = 0
            try readLines(of: 0) { bytes, number in
                guard let line = String(bytes: bytes, encoding: .utf8) else {
                    throw NavigationHistoryError(code: .invalidEvent, message: "stdin:\(number): invalid UTF-8; nothing was appended")
                }
                if line.allSatisfy(\.isWhitespace) { return }
                guard let checked = try draft(line, origin: "stdin:\(number)") else {
                    snapshots += 1
                    return
                }
                if spool == nil && heldBytes + bytes.count <= heldBytesLimit {
                    drafts.append(checked)
                    heldBytes += bytes.count
                } else {
                    if spool == nil { spool = try Spool() }
                    try spool!.append(bytes)
                }
            }
        } else {
            for (index, text) in events.enumerated() {
                if let draft = try draft(text, origin: "--event \(index + 1)") { drafts.append(draft) } else { snapshots += 1 }
            }
        }
        var appended = 0
        var last = 0
        func append(_ batch: [EventDraft]) throws {
            guard !batch.isEmpty else { return }
            last = try log.append(contentsOf: batch)
            appended += batch.count
        }
        try append(drafts)
        if let spool {
            var batch: [EventDraft] = []
            try readLines(of: try spool.rewound()) { bytes, _ in
                batch.append(try EventDraft(json: String(decoding: bytes, as: UTF8.self), defaultSession: session, now: now))
                if batch.count == 256 {
                    try append(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try append(batch)
        }
        try log.close()
        var out = StandardOutput()
        let skipped = snapshots == 0 ? "" : "; skipped \(counted(snapshots, "snapshot event")): the store writes its own"
        if appended == 0 {
            out.line("\(path): no events given, nothing appended\(skipped)")
        } else {
            out.line("\(path): appended \(counted(appended, "event")), the last one seq \(last); durable\(skipped)")
        }
        try out.flush()
        return
    }

    /// How many bytes of standard input's events are held in memory before the rest is spooled.
    static let heldBytesLimit = 8 << 20

    /// The event a line gives, checked as the next one of `trial`; nil for a `snapshot`, which the
    /// store writes itself.
    private static func draft(_ text: String, session: String?, now: Timestamp, origin: String,
                              trial: inout EventLog.Trial) throws -> EventDraft? {
        do {
            let draft = try EventDraft(json: text, defaultSession: session, now: now)
            if case .snapshot = draft.action { return nil }
            try trial.check(draft)
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
            let n = try FileSystem.read(from: fd, into: &block, path: "stdin", failure: "cannot read standard input")
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

    /// A private temporary file of checked lines, removed when released or when navlog ends.
    private final class Spool {
        private let directory: String
        private let path: String
        private let fd: Int32
        private let removal: RemovalOnExit.Token
        private var buffer: [UInt8] = []

        init() throws {
            guard let (directory, armed) = LogInput.armedPrivateDirectory(for: ["stdin.jsonl"]) else {
                throw LogInput.error("cannot create a temporary directory for standard input", "stdin")
            }
            self.directory = directory
            path = directory + "/stdin.jsonl"
            removal = armed
            fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                let error = LogInput.error("cannot create the spool", path)
                try? FileManager.default.removeItem(atPath: directory)
                RemovalOnExit.disarm(removal)
                throw error
            }
        }

        deinit {
            close(fd)
            try? FileManager.default.removeItem(atPath: directory)
            RemovalOnExit.disarm(removal)
        }

        /// Adds a line, its newline added.
        func append(_ line: [UInt8]) throws {
            buffer += line
            buffer.append(0x0A)
            if buffer.count >= 1 << 20 { try flush() }
        }

        /// The spool's file, written out and read from its start.
        func rewound() throws -> Int32 {
            try flush()
            guard lseek(fd, 0, SEEK_SET) == 0 else { throw LogInput.error("seek failed", path) }
            return fd
        }

        private func flush() throws {
            try FileSystem.write(buffer, to: fd, path: path)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
