// `NavlogBench cliffs`: work that must grow with the log's events, timed at N, 2N and 4N events
// in one run, each beside `navlog verify` of the same log (reading and folding it: the linear
// baseline). Each row gives the time's ratio to the row before: doubling the events must at most
// about double the time.
//
// The logs are StressLog's, the hostile test's shapes of issue 20:
//   scenes:   one session that opens N / 10 scenes and navigates a little in each (about 10
//             events a scene): `navlog screens`, `paths`, `export --table transitions`, `report`;
//   stack:    one session of N pushes onto one stack: `navlog replay --session`, and `navlog state`
//             (its last state, through the snapshot index the replay built);
//   sheets:   N / 8 sheets presented each over the last, then dismissed (N / 4 events): `navlog
//             replay --session` (the fold itself looks through the sheets presented at each
//             presentation: verify grows with their square too, and the replay adds to it in
//             proportion, about two folds);
//   sessions: 10 sessions of N / 10 pushes each: `navlog report` (the page replays at most 2,000
//             events a session: its size stops growing);
//   churn:    one session that opens and closes N / 2 scenes one after another: `navlog sessions`
//             (which builds the snapshot index, whose entries name the session's scenes).
import Foundation
import NavigationHistory
import NavigationSimulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let cliffsUsage = """
    Usage: NavlogBench cliffs --navlog PATH [--events N] [--repeat K] [--only CASE] [--json OUT]

    Times navlog on the stress logs of N, 2N and 4N events (default N = 50,000; best of K runs,
    default 3) beside navlog verify of the same log, with each time's ratio to the one at half the
    events. CASE: scenes, stack, sheets, sessions or churn. The logs go to a temporary directory.
    """

private struct Cliff: Sendable {
    var name: String
    var log: @Sendable (Int) -> StressLog
    /// The commands timed, each as its arguments after `navlog`, given the log and a scratch path.
    var commands: [(label: String, arguments: @Sendable (String, String) -> [String])]
}

private let cliffs: [Cliff] = [
    Cliff(name: "scenes", log: { .manyScenes($0 / 10) }, commands: [
        ("screens", { log, _ in ["screens", log, "--format", "json"] }),
        ("paths --length 3", { log, _ in ["paths", log, "--length", "3", "--format", "json"] }),
        ("export transitions", { log, out in ["export", log, "--table", "transitions", "-o", out + ".ndjson"] }),
        ("report", { log, out in ["report", log, "-o", out + ".html"] }),
    ]),
    Cliff(name: "stack", log: { .deepStack($0) }, commands: [
        ("replay --session", { log, _ in ["replay", log, "--session", "s1", "--format", "json"] }),
        ("state --at (last)", { log, _ in ["state", log, "--format", "json"] }),
    ]),
    Cliff(name: "sheets", log: { .stackedSheets($0 / 4) }, commands: [
        ("replay --session", { log, _ in ["replay", log, "--session", "s1", "--format", "json"] }),
    ]),
    Cliff(name: "sessions", log: { .longSessions(sessions: 10, pushes: $0 / 10) }, commands: [
        ("report", { log, out in ["report", log, "-o", out + ".html"] }),
    ]),
    Cliff(name: "churn", log: { .sceneChurn($0) }, commands: [
        ("sessions", { log, _ in ["sessions", log, "--no-index"] }),
    ]),
]

func runCliffs(_ arguments: [String]) throws -> Int32 {
    var navlog: String?, jsonOut: String?, only: String?
    var events = 50_000, repeats = 3
    var args = Arguments(arguments)
    while let arg = args.next() {
        switch arg {
        case "--navlog": navlog = try args.value(arg)
        case "--events": events = try args.integer(arg, atLeast: 100)
        case "--repeat": repeats = try args.integer(arg)
        case "--only": only = try args.value(arg)
        case "--json": jsonOut = try args.value(arg)
        case "-h", "--help":
            print(cliffsUsage)
            return 0
        default: throw BenchError("unknown argument \(arg)\n\(cliffsUsage)")
        }
    }
    guard let navlog else { throw BenchError("give the navlog binary with --navlog PATH\n\(cliffsUsage)") }
    guard only == nil || cliffs.contains(where: { $0.name == only }) else {
        throw BenchError("--only takes \(cliffs.map(\.name).joined(separator: ", "))")
    }
    let directory = NSTemporaryDirectory() + "navlog-cliffs-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }

    /// The best wall time of `repeats` runs of navlog with `arguments`, its output discarded.
    func best(_ arguments: [String]) throws -> Double {
        try (0..<repeats).map { _ in
            let (status, seconds) = try time { try spawnAndWait(navlog, arguments) }
            guard status == 0 else { throw BenchError("navlog \(arguments.joined(separator: " ")) exited \(status)") }
            return seconds
        }.min()!
    }

    var results: [[String: Any]] = []
    print(["case", "command", "events", "best s", "x half", "verify s", "x verify", "output"].enumerated().map { k, title in
        k < 2 ? pad(title, k == 0 ? 9 : 20, left: true) : pad(title, 10)
    }.joined(separator: "  "))
    for cliff in cliffs where only == nil || cliff.name == only {
        var previous: [String: Double] = [:]
        for size in [events, events * 2, events * 4] {
            let log = directory + "/\(cliff.name)-\(size).jsonl"
            let stress = cliff.log(size)
            try stress.write(to: log)
            let count = stress.events.count
            let verify = try best(["verify", log])
            for (label, arguments) in cliff.commands {
                let out = directory + "/out"
                let seconds = try best(arguments(log, out))
                let written = [".html", ".ndjson"].compactMap { try? FileManager.default.attributesOfItem(atPath: out + $0)[.size] as? Int }.first
                let ratio = previous[label].map { format(seconds / $0, 2) + "x" } ?? "-"
                previous[label] = seconds
                print([pad(cliff.name, 9, left: true), pad(label, 20, left: true), pad(grouped(count), 10), pad(format(seconds), 10), pad(ratio, 10),
                       pad(format(verify), 10), pad(format(seconds / verify, 1) + "x", 10),
                       pad(written.map { grouped($0 >> 10) + " KiB" } ?? "", 10)].joined(separator: "  "))
                results.append(["case": cliff.name, "command": label, "events": count, "seconds": seconds, "verifySeconds": verify,
                                "outputBytes": written ?? 0])
                for suffix in [".html", ".ndjson"] { try? FileManager.default.removeItem(atPath: out + suffix) }
            }
            try? FileManager.default.removeItem(atPath: log)
        }
    }
    print("best of \(repeats) runs; x half = the time's ratio to the same command's on half the events (at most about 2x);")
    print("x verify = the time's ratio to navlog verify of the same log (reading and folding it)")
    if let jsonOut {
        let data = try JSONSerialization.data(withJSONObject: ["events": events, "repeat": repeats, "results": results], options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: jsonOut))
    }
    return 0
}

/// Runs `program` with `arguments`, its standard output and error going to /dev/null, and returns
/// its exit status once it ends: with posix_spawn and waitpid, as Foundation's Process waits in
/// steps of tens of milliseconds.
private func spawnAndWait(_ program: String, _ arguments: [String]) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
    guard spawned == 0 else { throw BenchError("cannot run \(program): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw BenchError("waitpid: \(String(cString: strerror(errno)))") }
    }
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F   // exited, or killed by a signal
}
