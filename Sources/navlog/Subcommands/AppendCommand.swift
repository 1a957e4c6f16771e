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

        Then they are written in batches of at most 4,096. A failed write (a full disk) or Ctrl-C,
        SIGTERM or SIGHUP stops it between two batches and says how far the input is in the log:
        "the input's events through stdin line L are in the log (N events, the last one seq S) ...;
        resume after stdin line L". Appending the lines after L then gives the log a whole run would
        have. Killed with SIGKILL, append can say nothing: the log then holds the input's first
        events, and `navlog dump PATH | tail -1` shows the last of them.

        An event's line may be as long as the reader takes (64 KiB); it is checked with the seq it
        may get, so a refusal says by how many bytes the line is over, counted with which seq.

        Options:
          --event JSON   One event; repeat for several.
          --stdin        Read events from standard input, one JSON object per line (blank lines are
                         skipped; a line longer than 64 KiB is refused as soon as it is read).
          --session ID   The session of events that do not name one.

        Exit status: 0 when every event was appended, 64 on a usage error, 65 when an event is
        invalid or the log's last segment is damaged before its tail, 74 on an I/O error (a full disk:
        nothing after the failure is appended), 75 when another writer has the log open, 128 + the
        signal's number (130 for Ctrl-C, 143 for SIGTERM) when a signal stopped it.

        Examples:
          navlog append logs/app --event '{"type":"session.start","launch":"cold"}'
          navlog dump old.jsonl | navlog append logs/app --stdin
        """

    static let options: [CommandOption] = [.option("--event", "JSON"), .flag("--stdin"), .option("--session", "ID")]

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
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
        var origins: [Int] = []   // each draft's line of standard input, or its --event's number
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
                    origins.append(number)
                    heldBytes += bytes.count
                } else {
                    if spool == nil { spool = try Spool() }
                    try spool!.append(bytes, number: number)
                }
            }
        } else {
            for (index, text) in events.enumerated() {
                if let draft = try draft(text, origin: "--event \(index + 1)") {
                    drafts.append(draft)
                    origins.append(index + 1)
                } else {
                    snapshots += 1
                }
            }
        }
        // Written in batches, each whole or, after a failure, as far as the store says it got; a
        // signal stops the writing between two: what failure or signal ends it, it says how far the
        // input is in the log, so an import resumes exactly.
        var progress = Progress(path: path, origin: parsed.has("--stdin") ? "stdin line" : "--event")
        let interruption = Interruption()
        defer { interruption.end() }
        func append(_ batch: ArraySlice<EventDraft>, origins: ArraySlice<Int>) throws {
            guard !batch.isEmpty else { return }
            if let number = interruption.caught {
                try log.close()
                throw Failure(status: 128 + number, diagnostics: [progress.interrupted(by: number)])
            }
            do {
                let last = try log.append(contentsOf: batch)
                progress.advance(by: batch.count, lastSeq: last, origin: origins.last!)
            } catch var error as NavigationHistoryError {
                if let written = log.writtenByLastCall, written.events > 0 {
                    progress.advance(by: written.events, lastSeq: written.lastSeq, origin: origins[origins.startIndex + written.events - 1])
                }
                error.message += "; " + progress.failed(exactly: log.writtenByLastCall != nil)
                throw error
            }
        }
        for start in stride(from: 0, to: drafts.count, by: batchSize) {
            let end = min(start + batchSize, drafts.count)
            try append(drafts[start..<end], origins: origins[start..<end])
        }
        if let spool {
            var batch: [EventDraft] = [], numbers: [Int] = [], batchBytes = 0
            try readLines(of: try spool.rewound(), limit: LineDecoder.maximumLineLength + 21) { bytes, _ in   // and a number
                let (number, line) = Spool.split(bytes)
                batch.append(try EventDraft(json: String(decoding: line, as: UTF8.self), defaultSession: session, now: now))
                numbers.append(number)
                batchBytes += line.count
                if batch.count == batchSize || batchBytes >= batchBytesLimit {
                    try append(batch[...], origins: numbers[...])
                    batch.removeAll(keepingCapacity: true)
                    numbers.removeAll(keepingCapacity: true)
                    batchBytes = 0
                }
            }
            try append(batch[...], origins: numbers[...])
        }
        try log.close()
        let (appended, last) = (progress.events, progress.lastSeq)
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
    /// How many events are written at once: a signal waits for at most one batch.
    static let batchSize = 4096
    /// How many bytes of the spool's events are read back at once, at most: what memory holds
    /// of them (`appendFromStandardInputHoldsABoundedPartOfItsEvents`).
    static let batchBytesLimit = 1 << 20

    /// How far the input is in the log, and what a failure or signal says of it.
    struct Progress {
        let path: String
        /// What the input's events are numbered by: "stdin line" or "--event".
        let origin: String
        private(set) var events = 0
        private(set) var lastSeq = 0
        private var lastOrigin: Int?

        init(path: String, origin: String) {
            self.path = path
            self.origin = origin
        }

        mutating func advance(by count: Int, lastSeq: Int, origin: Int) {
            events += count
            self.lastSeq = lastSeq
            lastOrigin = origin
        }

        /// Where the input stands in the log.
        private var standing: String {
            guard let lastOrigin else { return "nothing was appended" }
            return "the input's events through \(origin) \(lastOrigin) are in the log (\(counted(events, "event")), the last one"
                + " seq \(lastSeq)); the rest were not appended: resume after \(origin) \(lastOrigin)"
        }

        /// What a failed write says; not `exactly` when the store could not cut back what the
        /// failure left, and the log may hold more.
        func failed(exactly: Bool) -> String {
            exactly ? standing : "at least " + standing + " (the log may hold more: `navlog dump \(path) --from \(lastSeq + 1)` shows them)"
        }

        /// What signal `number` says, once the events appended are durable.
        func interrupted(by number: Int32) -> Diagnostic {
            .error("interrupted by \(Interruption.name(number)): " + standing.replacingOccurrences(of: "are in the log", with: "are in the log, durable"),
                   at: path)
        }
    }

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
    private static func readLines(of fd: Int32, limit: Int = LineDecoder.maximumLineLength, _ body: ([UInt8], Int) throws -> Void) throws {
        var line: [UInt8] = []
        var number = 1
        var block = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = try FileSystem.read(from: fd, into: &block, path: "stdin", failure: "cannot read standard input")
            var start = 0
            while start < n {
                let end = block[start..<n].firstIndex(of: 0x0A) ?? n
                line += block[start..<end]
                guard line.count <= limit else {
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

        /// Adds a line, after its number in the input and a space, its newline added.
        func append(_ line: [UInt8], number: Int) throws {
            buffer += Array("\(number) ".utf8)
            buffer += line
            buffer.append(0x0A)
            if buffer.count >= 1 << 20 { try flush() }
        }

        /// A line of the spool: the number of the input's line, and that line.
        static func split(_ bytes: [UInt8]) -> (number: Int, line: ArraySlice<UInt8>) {
            let space = bytes.firstIndex(of: 0x20)!
            return (Int(String(decoding: bytes[..<space], as: UTF8.self))!, bytes[(space + 1)...])
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
