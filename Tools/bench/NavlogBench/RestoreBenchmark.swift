// `NavlogBench restore`: the restore at launch on logs of several sizes, beside a naive full replay
// with JSONDecoder, and the Router's cost per navigation call on the main thread.
//
// Measures:
//   a) Restorer.restore on each LOG (e.g. 1K, 1M and 10M events): best and median of K runs
//      (default 20) — it reads back only to the nearest snapshot, so it should be flat;
//   b) a naive restore: decoding the whole log with JSONDecoder + Codable and folding every event,
//      on the logs of at most N events (default 1,000,000), extrapolated to the larger ones;
//   c) the Router (recipe example) recording through a Recorder with the default policy: each of
//      C navigation calls (default 200,000) timed; p50, p99, max.
import Foundation
import NavigationHistory
import NavigationRouting
import RecipeApp

let restoreUsage = """
    Usage: NavlogBench restore LOG... [--repeat K] [--naive-max N] [--calls C] [--json OUT]
    """

@MainActor
func measureRouterCalls(_ calls: Int, in directory: String) async throws -> [Double] {
    let recorder = try await Recorder(directory: try freshDirectory(directory), session: "bench")
    let router = Router<RecipeApp.Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
    router.open(scene: "main")
    router.select(tab: "home")
    var nanos = [Double]()
    nanos.reserveCapacity(calls)
    for k in 0..<calls {
        let start = monotonicNanoseconds()
        switch k % 4 {
        case 0: router.push(.category("desserts"))
        case 1: router.push(.recipe("apple-pie"))
        case 2: router.setPath([.category("desserts")], for: "home")   // a swipe back
        default: router.pop()
        }
        nanos.append(Double(monotonicNanoseconds() - start))
    }
    try await recorder.close()
    return nanos.sorted()
}

func runRestore(_ arguments: [String]) async throws -> Int32 {
    var logs: [String] = []
    var repeats = 20, naiveMax = 1_000_000, calls = 200_000
    var jsonOut: String?
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--repeat": repeats = try arguments.integer(argument)
        case "--naive-max": naiveMax = try arguments.integer(argument, atLeast: 0)
        case "--calls": calls = try arguments.integer(argument)
        case "--json": jsonOut = try arguments.value(argument)
        case "-h", "--help": print(restoreUsage); return 0
        default: logs.append(argument)
        }
    }
    guard !logs.isEmpty else { throw BenchError("restore needs at least one LOG\n\(restoreUsage)") }
    var items: [String] = []
    var naiveRate: Double?
    print("restore at launch, best of \(repeats) runs each")
    for log in logs {
        var lastSeq = 0
        let options = Restorer.Options(crashLoopSessions: 1_000_000, maximumAge: .seconds(Int64(Int32.max)))
        var runs: [Double] = []
        for _ in 0..<repeats {
            let (result, seconds) = try time { try Restorer(options: options).restore(from: log) }
            lastSeq = result.from
            runs.append(seconds)
        }
        runs.sort()
        var naive: Double?
        if lastSeq <= naiveMax {
            var decoded = 0
            naive = try time {
                for file in try LogSource(path: log).files { decoded += try baselineFold(file, limit: Int.max).events }
            }.1
            naiveRate = Double(decoded) / naive!
        }
        let naiveText = naive.map { "\(format($0 * 1000, 1)) ms measured" }
            ?? naiveRate.map { "~\(format(Double(lastSeq) / $0, 1)) s extrapolated" } ?? "n/a"
        print("  \(grouped(lastSeq)) events: restore best \(format(runs[0] * 1000, 3)) ms, median \(format(runs[runs.count / 2] * 1000, 3)) ms;"
              + " naive JSONDecoder full replay: \(naiveText)")
        items.append("{\"events\":\(lastSeq),\"best_ms\":\(runs[0] * 1000),\"median_ms\":\(runs[runs.count / 2] * 1000),"
                     + "\"naive_s\":\(naive.map { String($0) } ?? "null"),\"naive_extrapolated_s\":\(naiveRate.map { String(Double(lastSeq) / $0) } ?? "null")}")
    }
    let nanos = try await measureRouterCalls(calls, in: NSTemporaryDirectory() + "navlog-bench-router-\(getpid())")
    try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "navlog-bench-router-\(getpid())")
    let p50 = nanos[nanos.count / 2], p99 = nanos[nanos.count * 99 / 100]
    print("Router call on the main thread, \(grouped(calls)) calls (push, push, swipe back, pop): p50 \(format(p50 / 1000, 2)) µs,"
          + " p99 \(format(p99 / 1000, 2)) µs, max \(format(nanos.last! / 1000, 1)) µs")
    if let out = jsonOut {
        let text = "{\"restores\":[\(items.joined(separator: ","))],\"router\":{\"calls\":\(calls),\"p50_us\":\(p50 / 1000),"
            + "\"p99_us\":\(p99 / 1000),\"max_us\":\(nanos.last! / 1000)}}\n"
        try text.write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}
