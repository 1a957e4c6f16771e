// `NavlogBench watch`: how soon a follower in another process sees an event, and what it costs
// while nothing is appended.
//
// This process follows DIR with a LogFollower (inotify on Linux) while a child process — this
// executable again, `NavlogBench watch-writer` — records N events through a Recorder under the
// default policy (batched: durable within 50 ms or 1,000 events), one every --interval µs. The
// child learns when each event is durable from its own in-process subscription (fed by the writer
// once it synced the event's batch); both processes stamp times with CLOCK_MONOTONIC, which they
// share. Per event: seen − durable (negative when the follower read the line before its sync
// finished) and seen − recorded. Then the follower waits --idle seconds with nothing appended,
// and the process's CPU time over that window is measured (getrusage).
import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let watchUsage = """
    Usage: NavlogBench watch DIR [--appends N] [--interval MICROSECONDS] [--idle SECONDS] [--json OUT]

    Follows DIR (created; its contents are replaced) while a child process records N events
    (default 10000) one every --interval µs (default 500) under the default batched policy; prints
    the latency from durable and from recorded to seen (p50, p99, max), then the CPU time this
    process used while following an idle log for --idle seconds (default 60).
    """

/// The route that marks the `i`-th recorded event: its id is `i`.
private func marker(_ i: Int) -> NavigationAction {
    .replace(scene: "main", stack: "home", route: Route(screen: "bench", id: String(i)))
}

/// The `i` of a marker event, nil for any other.
private func markerIndex(_ event: NavigationEvent) -> Int? {
    if case .replace(_, _, let route) = event.action, route.screen == "bench" { return route.id.flatMap { Int($0) } }
    return nil
}

/// The child: records N markers at the pace asked, and writes "i recorded durable" per line to OUT.
func runWatchWriter(_ arguments: [String]) async throws -> Int32 {
    var args = Arguments(arguments)
    let directory = try args.value("DIR"), out = try args.value("OUT")
    let appends = try args.integer("N"), interval = try args.integer("INTERVAL")
    let recorder = try await Recorder(directory: directory, session: "bench")
    var recorded = [UInt64](repeating: 0, count: appends)
    let durable = DurableTimes(appends)
    let subscription = recorder.events(from: .end)
    let listener = Task {
        for try await event in subscription {
            if let i = markerIndex(event) { durable.set(i, monotonicNanoseconds()) }
        }
    }
    recorder.record(.sessionStart(app: "bench", launch: .cold, meta: nil))
    recorder.record(.sceneOpen(scene: "main", kind: nil))
    recorder.record(.push(scene: "main", stack: "home", route: Route(screen: "bench", id: "start")))
    let start = monotonicNanoseconds()
    for i in 0..<appends {
        // Paced on the clock, not by sleeping a fixed time after each: the pace holds under load.
        let due = start + UInt64(i * interval) * 1000
        let now = monotonicNanoseconds()
        if due > now { try await Task.sleep(for: .nanoseconds(Int(due - now))) }
        recorded[i] = monotonicNanoseconds()
        recorder.record(marker(i))
    }
    try await recorder.close()
    _ = try await listener.value   // the subscription ends with the recorder
    let lines = (0..<appends).map { "\($0) \(recorded[$0]) \(durable.get($0))" }.joined(separator: "\n")
    try (lines + "\n").write(toFile: out, atomically: true, encoding: .utf8)
    return 0
}

/// When each marker became durable, set by the child's subscription task.
private final class DurableTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [UInt64]
    init(_ count: Int) { times = Array(repeating: 0, count: count) }
    func set(_ i: Int, _ time: UInt64) { lock.lock(); times[i] = time; lock.unlock() }
    func get(_ i: Int) -> UInt64 { lock.lock(); defer { lock.unlock() }; return times[i] }
}

/// When the follower saw each marker, and when it had seen them all.
private final class SeenTimes: @unchecked Sendable {
    private let condition = NSCondition()
    private var times: [UInt64]
    private var count = 0
    init(_ count: Int) { times = Array(repeating: 0, count: count) }
    func set(_ i: Int, _ time: UInt64) {
        condition.lock()
        if times[i] == 0 { count += 1 }
        times[i] = time
        condition.broadcast()
        condition.unlock()
    }
    func waitForAll() -> [UInt64] {
        condition.lock()
        while count < times.count { condition.wait() }
        defer { condition.unlock() }
        return times
    }
}

/// CPU time (user + system) this process has used, in microseconds.
private func cpuMicroseconds() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

func runWatch(_ arguments: [String]) async throws -> Int32 {
    var args = Arguments(arguments)
    var directory: String?, appends = 10_000, interval = 500, idle = 60, jsonOut: String?
    while let argument = args.next() {
        switch argument {
        case "--appends": appends = try args.integer(argument)
        case "--interval": interval = try args.integer(argument)
        case "--idle": idle = try args.integer(argument)
        case "--json": jsonOut = try args.value(argument)
        case "-h", "--help": print(watchUsage); return 0
        default: directory = argument
        }
    }
    guard let directory else { throw BenchError(watchUsage) }
    _ = try freshDirectory(directory)
    let log = directory + "/log"
    let seen = SeenTimes(appends)
    // The follower starts before the log exists, as `navlog watch` may.
    let follower = Task.detached {
        for try await event in LogFollower(path: log).events() {
            if let i = markerIndex(event) { seen.set(i, monotonicNanoseconds()) }
        }
    }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    if !FileManager.default.isExecutableFile(atPath: child.executableURL!.path) {
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    }
    let times = directory + "/times.txt"
    child.arguments = ["watch-writer", log, times, String(appends), String(interval)]
    try child.run()
    let seenAt = await Task.detached { seen.waitForAll() }.value
    child.waitUntilExit()
    guard child.terminationStatus == 0 else { throw BenchError("the writer process failed (\(child.terminationStatus))") }
    var fromDurable: [Double] = [], fromRecorded: [Double] = []
    for line in try String(contentsOfFile: times, encoding: .utf8).split(separator: "\n") {
        let fields = line.split(separator: " ").map { Int64($0)! }
        let seenTime = Int64(seenAt[Int(fields[0])])
        fromRecorded.append(Double(seenTime - fields[1]) / 1e6)
        fromDurable.append(Double(seenTime - fields[2]) / 1e6)
    }
    fromDurable.sort()
    fromRecorded.sort()
    func at(_ values: [Double], _ p: Double) -> Double { values[min(values.count - 1, Int(Double(values.count) * p))] }
    print("watcher latency over \(grouped(appends)) appends from another process (default batched policy, one every \(interval) µs):")
    print("  seen − durable:   p50 \(format(at(fromDurable, 0.5), 2)) ms  p99 \(format(at(fromDurable, 0.99), 2)) ms  max \(format(fromDurable.last!, 2)) ms  (target: p99 ≤ 100 ms)")
    print("  seen − recorded:  p50 \(format(at(fromRecorded, 0.5), 2)) ms  p99 \(format(at(fromRecorded, 0.99), 2)) ms  max \(format(fromRecorded.last!, 2)) ms")
    // Idle: the follower waits in the kernel; nothing in this process runs.
    let before = cpuMicroseconds()
    try await Task.sleep(for: .seconds(idle))
    let used = cpuMicroseconds() - before
    follower.cancel()
    print("  idle: \(used) µs of CPU in \(idle) s of following a log nothing was appended to (target: about 0)")
    if let jsonOut {
        let json = """
            {"appends":\(appends),"interval_us":\(interval),"durable_p50_ms":\(at(fromDurable, 0.5)),"durable_p99_ms":\(at(fromDurable, 0.99)),\
            "recorded_p50_ms":\(at(fromRecorded, 0.5)),"recorded_p99_ms":\(at(fromRecorded, 0.99)),"idle_seconds":\(idle),"idle_cpu_us":\(used)}
            """
        try json.write(toFile: jsonOut, atomically: true, encoding: .utf8)
    }
    return 0
}
