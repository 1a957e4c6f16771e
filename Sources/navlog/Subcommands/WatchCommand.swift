import Dispatch
import Foundation
import NavigationAnalytics
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog watch PATH [--from SEQ | --from-end] [--session S] [--format text|json]`
enum WatchCommand: Subcommand {
    static let name = "watch"
    static let summary = "Follow a log live: each event as it is appended, and the screen it leaves visible."
    static let help = """
        Usage: navlog watch PATH [--from SEQ | --from-end] [--session ID ...] [--format text|json]

        Prints each event of the log, then each new one as it is appended — by this machine's app,
        a simulator, or `navlog append` — with the screen its scene shows after it, until Ctrl-C.
        The log may be written by another process while it is watched: watch never takes its lock
        and never writes to it. It goes on across segment rotations and retention, and prints a
        line only once it is completely written. The kernel says when the log changes (inotify on
        Linux, kqueue on macOS): watching an idle log takes no CPU.

        A log that does not exist yet is waited for ("PATH: waiting for the log to be created" on
        standard error, once). A log removed while it is watched is waited for too (saying so
        once): moved back, it is followed on; a log written anew in its place, whether it comes
        before or after the removal is seen, ends the watch with exit 65, naming PATH.

        Options:
          --from SEQ        Begin at this seq (default: the first event the log still holds).
                            A seq retention has deleted is refused (exit 65), naming the first
                            one still there.
          --from-end        Print only the events appended from now on.
          --session ID      Only events of this session (repeatable); every event is still
                            folded, so the screens shown are right.
          --format FORMAT   text (default): one line per event — its seq, time, what it did, and
                            "→ scene: screen", the visible screen of its scene after it — and a
                            "session ID" line whenever the session changes.
                            json: one object per line, {"format": 2, "seq", "ts", "session",
                            "type", "event", "scene", "visible", "anomaly", "record"}, "record"
                            being the event as the log holds it (normalized).

        PATH is a log directory or a .jsonl file; standard input and pipes cannot be followed.

        Exit status: 0 when ended by Ctrl-C (SIGINT) or SIGTERM, 64 on a usage error, 65 on a
        defect in the log, a --from retention deleted, or a log changed underneath the watch (a
        repair, or a log written anew in its place), 66 when PATH is not a log, 74 on an I/O error
        (never because the log was removed).

        Examples:
          navlog watch logs/app
          navlog watch logs/app --from-end --format json | jq .visible
        """

    static let options: [CommandOption] = [.option("--from", "SEQ"), .flag("--from-end"), .option("--session", "ID"), .textOrJSON]

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let path = try parsed.path()
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        guard format == .text || format == .json else { throw UsageError("--format must be text or json") }
        let from = try parsed.integer("--from", range: 1...Int.max)
        if from != nil && parsed.has("--from-end") { throw UsageError("give --from SEQ or --from-end, not both") }
        try refuseStreams(path)
        let start: SubscriptionStart = from.map { .seq($0) } ?? (parsed.has("--from-end") ? .end : .oldest)
        let sessions = Set(parsed.all("--session"))
        let terminal = isatty(STDERR_FILENO) == 1
        let events = LogFollower(path: path, onWait: { wait in Diagnostics.print(waitingNotice(wait, path, terminal: terminal)) })
            .events(from: start).withStates()

        let watching = Task { () async throws -> Void in
            var out = StandardOutput()
            var lastSession: String?
            for try await step in events {
                let event = step.event
                guard sessions.isEmpty || sessions.contains(event.session) else { continue }
                let scene = event.action.scene ?? step.state.active
                let visible = scene.flatMap { step.state.scenes[$0]?.visibleScreen.route }
                switch format {
                case .json:
                    try JSONOutput.write(Line(event: event, scene: scene, visible: visible, anomaly: step.anomaly), to: &out)
                default:
                    if event.session != lastSession {
                        out.line("session \(event.session)")
                        lastSession = event.session
                    }
                    var line = "\(event.seq)  \(event.timestamp)  \(event.summary)"
                    if let scene, let visible { line += "  →  \(scene): \(visible.text)" }
                    if let anomaly = step.anomaly { line += "  [anomaly: \(anomaly.kind.rawValue)]" }
                    out.line(line)
                }
                try out.flush()   // each event as it comes: someone is watching
            }
            try out.flush()
        }
        let stops = cancelOnSignals(watching)
        defer { for source in stops { source.cancel() } }
        try await watching.value
    }

    /// Ctrl-C (and SIGTERM) end the watch as its normal end: the task is cancelled, the
    /// subscription ends, and navlog exits 0. Handled on a queue of its own, off the main actor.
    private nonisolated static func cancelOnSignals(_ task: Task<Void, any Error>) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
    }

    /// The note standard error gets, once, when the watch begins to wait for the log at `path`;
    /// on a `terminal`, where someone watches it wait, it says how to stop.
    nonisolated static func waitingNotice(_ wait: LogWait, _ path: String, terminal: Bool) -> Diagnostic {
        let stop = terminal ? "; press Ctrl-C to stop" : ""
        return switch wait {
        case .notCreated: .note("no log here yet; waiting for it to appear\(stop)", at: path)
        case .removed: .note("the log was removed; waiting for it to come back (a log written anew in its place ends the watch)\(stop)", at: path)
        }
    }

    /// Refuses what can be read only once: a subscription reads its log again as it grows.
    private static func refuseStreams(_ path: String) throws {
        if path == "-" { throw UsageError("watch follows a log directory or a .jsonl file; it cannot follow standard input") }
        var info = stat()
        guard stat(path, &info) == 0 else { return }   // not there yet: waited for
        let kind = info.st_mode & S_IFMT
        if kind != S_IFREG && kind != S_IFDIR {
            throw NavigationHistoryError(code: .noInput, message: "it is not a log directory or a .jsonl file, which watch can follow", path: path)
        }
    }

    /// One event of `--format json`.
    struct Line: Encodable {
        var event: NavigationEvent
        var scene: String?
        var visible: Route?
        var anomaly: Projection.Anomaly?

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: AnyKey.self)
            try members.encode(JSONOutput.format, forKey: AnyKey("format"))
            try members.encode(event.seq, forKey: AnyKey("seq"))
            try members.encode(JSONFragment { [event] in $0.timestamp(event.timestamp) }, forKey: AnyKey("ts"))
            try members.encode(event.session, forKey: AnyKey("session"))
            try members.encode(event.type, forKey: AnyKey("type"))
            try members.encode(event.summary, forKey: AnyKey("event"))
            try members.encode(scene, forKey: AnyKey("scene"))
            try members.encode(JSONFragment { [visible] in $0.optionalRoute(visible) }, forKey: AnyKey("visible"))
            try members.encode(anomaly?.description, forKey: AnyKey("anomaly"))
            try members.encode(JSONFragment { [event] in $0.raw(String(decoding: LineEncoder.encode(event).dropLast(), as: UTF8.self)) },
                               forKey: AnyKey("record"))
        }
    }
}
