import Foundation
import NavigationHistory

/// `navlog restore PATH [--known-ids FILE] [--policy drop-missing|truncate] [--now TIME] [--format text|json]`
enum RestoreCommand: Subcommand {
    static let name = "restore"
    static let summary = "Print what an app would restore at its next launch, without writing anything."
    static let help = """
        Usage: navlog restore PATH [--known-ids FILE] [--policy drop-missing|truncate] [--now TIME]
                                   [--crash-loop N] [--crash-window DURATION] [--max-age DURATION]
                                   [--format text|json]

        Works out, as the app's Restorer would at launch, the state to put the user back into: the
        state at the end of the last session, however it ended, read back only to the nearest
        snapshot, with routes that no longer resolve taken out. Prints it, the seq it was restored
        from, how the last session ended, the routes dropped, and the guard that fired, if any.
        The log is not written to. The last session is named as `sessions` names it: clean (with a
        `session.end`), else open, since the log ends in it; then what a launch now takes it for:
        background (terminated in the background, not a crash) or unclean (a crash or a kill in
        the foreground), the verdict the crash-loop guard counts and JSON's "session_ending" gives.

        Options:
          --known-ids FILE      The ids that still exist, one per line: a route with an id not listed
                                is missing. By default every route resolves. FILE may be `-` or a
                                pipe; at most 64 MiB are read.
          --policy POLICY       truncate (default): a stack is cut at its first missing route, its
                                children go too. drop-missing: only the missing routes go.
          --now TIME            The moment of the launch, for the staleness guard (default: the
                                present moment; a relative TIME, such as 7d, is that long before it).
          --crash-loop N        Sessions in a row that must have crashed soon after a restore for the
                                crash-loop guard to fire (default 2). Only unclean ends count: a
                                session that ended in the background breaks a loop.
          --crash-window DURATION  How soon such a crash must come (default 10s).
          --max-age DURATION    The oldest state restored (default 7d). For these two, a number
                                without a unit is seconds, as it always was.
          --format FORMAT       text (default), or json: {"format": 2, "dropped_lines", "from", "session",
                                "session_ending", "guard", "dropped", "state"}: "dropped" the routes
                                taken out, "dropped_lines" the torn tail left out (see below).

        A torn last line, or crash damage after the last good line, is left out as the store cuts
        it when it opens the log, and said on standard error (`navlog restore: warning: path:line:
        kind: torn tail dropped: detail`) and in JSON as "dropped_lines": {"mode", "count", "first":
        [{"file", "line", "offset", "kind", "detail"}]}.

        \(TimeArgument.help)

        \(DurationArgument.help)

        Exit status: 0, 64 on a usage error, 65 when the end of the log is damaged, 66 when PATH does
        not exist, 74 on an I/O error.

        Examples:
          navlog restore app.jsonl
          navlog restore app.jsonl --policy drop-missing --known-ids screens.txt --format json
        """

    static let options: [CommandOption] = [.file("--known-ids"), .choice("--policy", ["truncate", "drop-missing"]), .option("--now", "TS"),
                                           .option("--crash-loop", "N"), .option("--crash-window", "SECONDS"), .option("--max-age", "SECONDS"),
                                           .textOrJSON]

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInput(parsed.path())
        let path = input.shown
        guard FileManager.default.fileExists(atPath: input.path) else {
            throw NavigationHistoryError(code: .noInput, message: "no such file or directory", path: path)
        }
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        let policy: Restorer.Policy
        switch parsed.value("--policy") ?? "truncate" {
        case "truncate": policy = .truncateAtFirstMissing
        case "drop-missing": policy = .dropMissing
        case let other: throw UsageError("--policy takes truncate or drop-missing, not '\(other)'")
        }
        var resolve: @Sendable (Route) -> Bool = { _ in true }
        if let file = parsed.value("--known-ids") {
            let known = try knownIDs(file)
            resolve = { route in route.id.map(known.contains) ?? true }
        }
        let now = try parsed.time("--now") ?? .now
        let options = Restorer.Options(policy: policy, resolve: resolve,
                                       crashLoopSessions: try parsed.integer("--crash-loop", range: 1...1000) ?? 2,
                                       crashLoopWindow: try parsed.duration("--crash-window", bareUnit: 1000) ?? .seconds(10),
                                       maximumAge: try parsed.duration("--max-age", bareUnit: 1000) ?? .seconds(604_800))
        let result = try Restorer(options: options).restore(from: input.path, now: now)
        let dropped = try DroppedOutput(path, restored: result)
        dropped.warn()
        var out = StandardOutput()
        switch format {
        case .text:
            if let reason = result.guardFired {
                out.line("\(path): nothing restored: \(reason)")
                if let session = result.session, let ending = result.sessionEnding {
                    out.line("the last session, \(session), ended \(Self.described(ending))")
                }
            } else {
                out.line("\(path): restores the state after seq \(result.from) (session \(result.session ?? "-"), ended "
                         + "\(result.sessionEnding.map(Self.described) ?? "-"))")
                if !result.dropped.isEmpty { out.line("dropped: \(result.dropped.map(\.text).joined(separator: ", "))") }
                for line in TimelineOutput.text(result.state, scene: nil) { out.line(line) }
            }
        case .json:
            try JSONOutput.write(Output(result, dropped: dropped), to: &out)
        }
        try out.flush()
        return
    }

    /// How the log's last session ended, in words: as `sessions` names it — open, since the log
    /// ends in it, unless it ended cleanly — and what a launch now takes it for.
    static func described(_ ending: SessionEnd) -> String {
        switch ending {
        case .clean: "clean, with a session.end"
        case .background: "open, as the log ends in it; a launch now takes it as background: terminated in the background, not a crash"
        case .unclean: "open, as the log ends in it; a launch now takes it as unclean: terminated in the foreground, a crash or a kill"
        case .open: "open: it may still be running"
        }
    }

    /// The most bytes of ids read: a list that never ends (a device, an endless pipe) is refused.
    static let knownIDsLimit = 64 << 20

    /// The ids listed in `file` (`-`: standard input), one per line. A regular file, a pipe or a
    /// FIFO is read, up to the limit; anything else is refused.
    private static func knownIDs(_ file: String) throws -> Set<String> {
        let shown = file == "-" ? "stdin" : file
        var fd: Int32 = 0
        if file != "-" {
            // A device is refused before it is opened, as opening one may act.
            var seen = stat()
            if stat(file, &seen) == 0, ![S_IFREG, S_IFIFO].contains(seen.st_mode & S_IFMT) {
                throw NavigationHistoryError(code: .noInput, message: "the known ids must be a file or a pipe of ids, one per line", path: shown)
            }
            // A FIFO without a writer is waited for, as a log is, saying so after a second.
            fd = seen.st_mode & S_IFMT == S_IFIFO ? try LogInput.openWaiting(file) : open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let code = errno
                throw NavigationHistoryError(code: code == ENOENT ? .noInput : .io,
                                             message: "cannot read the known ids: \(String(cString: strerror(code)))", path: shown, errno: code)
            }
        }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0, [S_IFREG, S_IFIFO].contains(info.st_mode & S_IFMT) else {
            throw NavigationHistoryError(code: .noInput, message: "the known ids must be a file or a pipe of ids, one per line", path: shown)
        }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = try FileSystem.read(from: fd, into: &block, path: shown, failure: "cannot read the known ids"), n > 0 {
            bytes += block[..<n]
            guard bytes.count <= knownIDsLimit else {
                throw NavigationHistoryError(code: .invalidEvent, message: "the known ids take more than \(knownIDsLimit >> 20) MiB", path: shown)
            }
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw NavigationHistoryError(code: .invalidEvent, message: "the known ids are not UTF-8 text", path: shown)
        }
        return Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// The JSON output: what would be restored, and why nothing would be when a guard fired.
    struct Output: Encodable {
        let format = JSONOutput.format
        var droppedLines: JSONFragment
        var from: Int
        var session: String?
        var sessionEnding: String?
        var `guard`: String?
        var dropped: JSONFragment
        var state: JSONFragment

        enum CodingKeys: String, CodingKey {
            case format, droppedLines = "dropped_lines", from, session, sessionEnding = "session_ending", `guard`, dropped, state
        }

        /// `result`, the log's lines the restore left out as `dropped` says.
        init(_ result: Restorer.Result, dropped lines: DroppedOutput) {
            droppedLines = lines.json
            (from, session, sessionEnding, `guard`) = (result.from, result.session, result.sessionEnding?.rawValue, result.guardFired?.description)
            dropped = JSONFragment { $0.routes(result.dropped) }
            state = JSONFragment { $0.state(result.state) }
        }
    }
}
