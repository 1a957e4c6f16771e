// `NavlogBench store`: the write side, side by side with a bare write + fdatasync loop.
//
// Measures, in DIR (which must be on the disk to measure, not a tmpfs):
//   a) the caller's cost of Recorder.record(_:) for N events under the default policy (batched,
//      durable within 50 ms): each call timed with the monotonic clock; p50, p99, p99.9, max;
//   b) the same run's throughput: N events from the first record until close() has made them
//      all durable (group commit);
//   c) `.everyEvent` appends/s for S events: EventLog.append, and Recorder.record + flush (what a
//      caller waiting for each acknowledgement sees), beside a bare loop of write(2) + fdatasync
//      of the very same lines; best of 3 rounds, the contenders taking turns in each round.
// It also writes the lines of the S events to DIR/lines.jsonl so that Tools/bench/sqlite_store.py
// can insert the same bytes into SQLite.
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

let storeUsage = """
    Usage: NavlogBench store DIR [--events N] [--synced S] [--json OUT]

    Benchmarks the store in DIR (created; its contents are replaced): the caller's cost of
    Recorder.record and the batched throughput for N events (default 500000), and .everyEvent
    appends/s for S events (default 2000) beside a bare write + fdatasync loop. --json writes the
    results as JSON to OUT.
    """

/// Nanoseconds on the monotonic clock.
@inline(__always) func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func percentile(_ sorted: [UInt32], _ p: Double) -> UInt32 {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

func freshDirectory(_ path: String) throws -> String {
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

struct RecordCost {
    var events: Int
    var p50: UInt32, p99: UInt32, p999: UInt32, max: UInt32
    var clockOverhead: UInt32
    var secondsUntilDurable: Double
}

/// a) and b): record N drafts as fast as the caller can, each call timed, then close.
func measureRecord(_ drafts: [EventDraft], in directory: String) async throws -> RecordCost {
    var overhead = [UInt32](repeating: 0, count: 100_000)
    for i in overhead.indices {
        let start = monotonicNanoseconds()
        overhead[i] = UInt32(monotonicNanoseconds() - start)
    }
    overhead.sort()
    let recorder = try await Recorder(directory: try freshDirectory(directory), session: "bench")
    var costs = [UInt32](repeating: 0, count: drafts.count)
    let begin = monotonicNanoseconds()
    for (i, draft) in drafts.enumerated() {
        let start = monotonicNanoseconds()
        recorder.record(draft.action, at: draft.timestamp)
        costs[i] = UInt32(clamping: monotonicNanoseconds() - start)
    }
    try await recorder.close()
    let total = Double(monotonicNanoseconds() - begin) / 1e9
    costs.sort()
    return RecordCost(events: drafts.count, p50: percentile(costs, 0.5), p99: percentile(costs, 0.99),
                      p999: percentile(costs, 0.999), max: costs.last ?? 0, clockOverhead: percentile(overhead, 0.5),
                      secondsUntilDurable: total)
}

/// c) The bare baseline: write(2) + fdatasync per line, nothing else.
func bareWriteSync(_ lines: [[UInt8]], in directory: String) throws -> Double {
    let path = try freshDirectory(directory) + "/bare.jsonl"
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw BenchError("cannot create \(path)") }
    defer { close(fd) }
    let start = monotonicNanoseconds()
    for line in lines {
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        guard written == line.count else { throw BenchError("short write to \(path)") }
        #if canImport(Darwin)
        guard fcntl(fd, F_FULLFSYNC) == 0 else { throw BenchError("F_FULLFSYNC failed") }
        #else
        guard fdatasync(fd) == 0 else { throw BenchError("fdatasync failed") }
        #endif
    }
    return Double(monotonicNanoseconds() - start) / 1e9
}

/// c) EventLog.append under `.everyEvent`: each append returns once its event is durable.
func eventLogEveryEvent(_ drafts: [EventDraft], in directory: String) throws -> Double {
    let log = try EventLog(directory: try freshDirectory(directory), options: .init(durability: .everyEvent))
    let start = monotonicNanoseconds()
    for draft in drafts { try log.append(draft.action, session: draft.session, at: draft.timestamp) }
    let elapsed = Double(monotonicNanoseconds() - start) / 1e9
    try log.close()
    return elapsed
}

/// c) Recorder under `.everyEvent`, the caller waiting for each acknowledgement.
func recorderEveryEvent(_ drafts: [EventDraft], in directory: String) async throws -> Double {
    let recorder = try await Recorder(directory: try freshDirectory(directory), options: .init(durability: .everyEvent), session: "bench")
    try await recorder.flush()   // the first segment's snapshot is not part of the measurement
    let start = monotonicNanoseconds()
    for draft in drafts {
        recorder.record(draft.action, at: draft.timestamp)
        try await recorder.flush()
    }
    let elapsed = Double(monotonicNanoseconds() - start) / 1e9
    try await recorder.close()
    return elapsed
}

func runStore(_ arguments: [String]) async throws -> Int32 {
    var directory: String?
    var events = 500_000
    var synced = 2000
    var jsonOut: String?
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--events": events = try arguments.integer(argument)
        case "--synced": synced = try arguments.integer(argument)
        case "--json": jsonOut = try arguments.value(argument)
        case "-h", "--help": print(storeUsage); return 0
        default:
            guard directory == nil, !argument.hasPrefix("--") else { throw BenchError("unexpected argument \(argument)\n\(storeUsage)") }
            directory = argument
        }
    }
    guard let root = directory else { throw BenchError("store needs a DIR\n\(storeUsage)") }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)

    var generator = LogGenerator(seed: 1)
    let drafts = (0..<max(events, synced)).map { _ in generator.next() }
    let syncedDrafts = Array(drafts.prefix(synced))
    let lines = syncedDrafts.enumerated().map { k, draft in
        LineEncoder.encode(NavigationEvent(seq: k + 2, timestamp: draft.timestamp, session: "bench", action: draft.action))
    }
    try Data(lines.joined()).write(to: URL(fileURLWithPath: root + "/lines.jsonl"))

    print("store benchmark in \(root): \(grouped(events)) recorded events, \(grouped(synced)) synced one by one")
    let record = try await measureRecord(Array(drafts.prefix(events)), in: root + "/recorder")

    var bare = [Double](), log = [Double](), recorder = [Double]()
    for _ in 0..<3 {
        bare.append(try bareWriteSync(lines, in: root + "/bare"))
        log.append(try eventLogEveryEvent(syncedDrafts, in: root + "/everyEvent"))
        recorder.append(try await recorderEveryEvent(syncedDrafts, in: root + "/recorderEveryEvent"))
    }
    let everyEvent = [
        Measurement(name: "write + fdatasync (bare)", threads: 1, events: synced, runs: bare,
                    note: "write(2) of the same line bytes, then fdatasync, per event"),
        Measurement(name: "EventLog .everyEvent", threads: 1, events: synced, runs: log,
                    note: "EventLog.append: encode, fold, write, fdatasync per event"),
        Measurement(name: "Recorder .everyEvent", threads: 1, events: synced, runs: recorder,
                    note: "Recorder.record + await flush() per event: the round trip through the writer thread"),
    ]
    print("")
    print("record(_:) caller cost, \(grouped(record.events)) calls: p50 \(record.p50) ns, p99 \(record.p99) ns, "
          + "p99.9 \(record.p999) ns, max \(record.max) ns (clock overhead p50 \(record.clockOverhead) ns, included)")
    print("batched (default policy): \(grouped(record.events)) events durable in \(format(record.secondsUntilDurable)) s = "
          + "\(grouped(Int(Double(record.events) / record.secondsUntilDurable))) events/s")
    print("")
    printTable(everyEvent, reference: everyEvent[0], repeats: 3)
    if let out = jsonOut {
        let items = everyEvent.map { m in
            "{\"name\":\"\(m.name)\",\"events\":\(m.events),\"seconds\":\(m.best),\"events_per_second\":\(m.eventsPerSecond),"
                + "\"runs\":[\(m.runs.map { String($0) }.joined(separator: ","))]}"
        }
        let text = "{\"record\":{\"events\":\(record.events),\"p50_ns\":\(record.p50),\"p99_ns\":\(record.p99),"
            + "\"p999_ns\":\(record.p999),\"max_ns\":\(record.max),\"clock_overhead_ns\":\(record.clockOverhead),"
            + "\"seconds_until_durable\":\(record.secondsUntilDurable)},"
            + "\"every_event\":[\(items.joined(separator: ","))]}\n"
        try text.write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}
