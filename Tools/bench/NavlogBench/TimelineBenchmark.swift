// `NavlogBench timeline`: folding, the snapshot index and seeking, side by side with a plain read
// and with a JSONDecoder fold.
//
// Measures:
//   a) the full fold of FILE (a 1M-event .jsonl): LogReader + StateFolding.fold on one core and on all
//      cores, beside the plain read of the same file and beside a JSONDecoder + Codable decode mapped
//      to the same fold (what an app would write by hand) on its first N lines;
//   b) building the snapshot index of FILE (default interval 4096), on one core and on all, as a
//      ratio to the plain read with the same threads; the index's size as a share of the log's;
//   c) with LOG (a 10M-event log) given: building its index, its size, and `state --at` — seeking
//      the Timeline to S random seqs (default 1000; seeded, the same in every run, so that two
//      builds seek to the same seqs), each timed in process: p50, p99, max; then `state --at-time`
//      to the times of the same seqs' events: p50, p99.
// Each of a) and b) is the best of K runs (default 3).
import Foundation
import NavigationHistory
import NavigationSimulation

let timelineUsage = """
    Usage: NavlogBench timeline FILE [--seek-log LOG] [--seeks S] [--interval K] [--repeat K] [--baseline-lines N] [--json OUT]

    Full fold and index build of FILE beside a plain read and a JSONDecoder fold; with --seek-log,
    the index of LOG (interval K, default 4096) and S random seeks in it (default 1000); with
    --seeks-only, only the latter. --json writes the results to OUT.
    """

/// The JSONDecoder baseline's events, mapped by hand to the fold's actions.
func baselineAction(_ e: BaselineEvent) -> NavigationAction? {
    func route(_ r: BaselineRoute?) -> Route? { r.map { Route(screen: $0.screen, id: $0.id, params: $0.params) } }
    let scene = e.scene ?? "", stack = e.stack ?? ""
    switch e.type {
    case "session.start": return .sessionStart(app: e.app, launch: LaunchKind(rawValue: e.launch ?? "") ?? .cold, meta: e.meta)
    case "session.end": return .sessionEnd(reason: e.reason)
    case "scene.open": return .sceneOpen(scene: scene, kind: e.kind)
    case "scene.close": return .sceneClose(scene: scene, kind: e.kind)
    case "scene.activate": return .sceneActivate(scene: scene)
    case "tab.select": return .tabSelect(scene: scene, tab: e.tab ?? "")
    case "push": return route(e.route).map { .push(scene: scene, stack: stack, route: $0) }
    case "pop": return .pop(scene: scene, stack: stack, count: e.count ?? 1)
    case "popToRoot": return .popToRoot(scene: scene, stack: stack)
    case "replace": return route(e.route).map { .replace(scene: scene, stack: stack, route: $0) }
    case "setPath": return .setPath(scene: scene, stack: stack, path: (e.path ?? []).compactMap(route), cause: PathCause(rawValue: e.cause ?? "") ?? .programmatic)
    case "deeplink": return .deeplink(scene: scene, url: e.url ?? "", outcome: DeepLinkOutcome(rawValue: e.outcome ?? "") ?? .unmatched,
                                      tab: e.tab, stack: e.stack, path: e.path?.compactMap(route))
    case "sheet.present": return route(e.route).map { .sheetPresent(scene: scene, sheet: e.sheet ?? "", route: $0, style: e.style.flatMap(SheetStyle.init)) }
    case "sheet.dismiss": return .sheetDismiss(scene: scene, sheet: e.sheet)
    case "split.select": return .splitSelect(scene: scene, column: SplitColumn(rawValue: e.column ?? "") ?? .sidebar, route: route(e.route))
    case "split.visibility": return .splitVisibility(scene: scene, visibility: SplitVisibility(rawValue: e.visibility ?? "") ?? .automatic)
    default: return nil   // snapshot/restore states are not modelled by the baseline; a .jsonl from generate has none
    }
}

func baselineFold(_ path: String, limit: Int) throws -> (events: Int, state: NavigationState) {
    let decoder = JSONDecoder()
    var state = NavigationState()
    var count = 0
    guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchError("cannot open \(path)") }
    defer { try? handle.close() }
    var pending = Data()
    while count < limit {
        let chunk = handle.readData(ofLength: 4 << 20)
        if chunk.isEmpty { break }
        pending += chunk
        var start = pending.startIndex
        while count < limit, let newline = pending[start...].firstIndex(of: 0x0A) {
            let event = try decoder.decode(BaselineEvent.self, from: pending[start..<newline])
            if let action = baselineAction(event), let ts = Timestamp(event.ts) {
                Projection.fold(&state, NavigationEvent(seq: event.seq, timestamp: ts, session: event.session, action: action))
            }
            count += 1
            start = newline + 1
        }
        pending = Data(pending[start...])
    }
    return (count, state)
}

func best(_ repeats: Int, _ body: () throws -> Void) rethrows -> [Double] {
    try (0..<repeats).map { _ in try time(body).1 }
}

func runTimeline(_ arguments: [String]) throws -> Int32 {
    var file: String?, seekLog: String?, jsonOut: String?
    var seeksOnly = false
    var seeks = 1000, repeats = 3, baselineLines = 200_000, interval = 4096
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--seek-log": seekLog = try arguments.value(argument)
        case "--seeks": seeks = try arguments.integer(argument, atLeast: 0)
        case "--interval": interval = try arguments.integer(argument)
        case "--repeat": repeats = try arguments.integer(argument)
        case "--baseline-lines": baselineLines = try arguments.integer(argument, atLeast: 0)
        case "--json": jsonOut = try arguments.value(argument)
        case "--seeks-only": seeksOnly = true
        case "-h", "--help": print(timelineUsage); return 0
        default:
            guard file == nil, !argument.hasPrefix("--") else { throw BenchError("unexpected argument \(argument)\n\(timelineUsage)") }
            file = argument
        }
    }
    guard let path = file else { throw BenchError("timeline needs a FILE\n\(timelineUsage)") }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let (bytes, lines) = seeksOnly ? (0, 0) : try warmUp(path)
    var results: [Measurement] = []
    var json: [String] = []
    var baselineEvents = 0, baselineSeconds = 0.0, indexBytes = 0
    if !seeksOnly {
    print("fold and index: \(path), \(grouped(bytes)) bytes, \(grouped(lines)) events; best of \(repeats)")
    for threads in [1, cores] {
        let read = try best(repeats) { _ = try LogReader(path: path, threads: threads).read { _ in } }
        var folded = NavigationState()
        let fold = try best(repeats) {
            var folding = StateFolding()
            _ = try LogReader(path: path, threads: threads).read { folding.fold($0) }
            folded = folding.state
        }
        let source = try LogSource(path: path)
        let build = try best(repeats) { _ = try SnapshotIndex.updated(source, save: false, threads: threads) }
        results.append(Measurement(name: "plain read, \(threads) core\(threads == 1 ? "" : "s")", threads: threads, events: lines, runs: read, note: "LogReader.read"))
        results.append(Measurement(name: "full fold, \(threads) core\(threads == 1 ? "" : "s")", threads: threads, events: lines, runs: fold,
                                   note: "LogReader.read + StateFolding.fold"))
        results.append(Measurement(name: "index build, \(threads) core\(threads == 1 ? "" : "s")", threads: threads, events: lines, runs: build,
                                   note: "snapshot index, interval 4096, built in memory"))
        json.append("{\"threads\":\(threads),\"read_s\":\(read.min()!),\"fold_s\":\(fold.min()!),\"build_s\":\(build.min()!)}")
        _ = folded
    }
    let baseline = try best(1) { _ = try baselineFold(path, limit: min(baselineLines, lines)) }
    baselineEvents = min(baselineLines, lines)
    baselineSeconds = baseline.min()!
    results.append(Measurement(name: "JSONDecoder fold, 1 core", threads: 1, events: baselineEvents, runs: baseline,
                               note: "JSONDecoder + Codable mapped to Projection.fold, first \(baselineEvents) lines"))
    print("")
    printTable(results, reference: results[1], repeats: repeats)
    let index = try SnapshotIndex.updated(try LogSource(path: path), save: false).index
    indexBytes = index.encoded()?.count ?? 0
    print("index of \(path): \(grouped(indexBytes)) bytes = \(format(100 * Double(indexBytes) / Double(bytes), 2))% of the log")
    }

    var seekJSON = "null"
    if let seekLog {
        let logBytes = try LogFiles.size(seekLog)
        let indexPath = SnapshotIndex.path(forLog: seekLog, segmented: try LogSource(path: seekLog).segmented)
        try? FileManager.default.removeItem(atPath: indexPath)
        let (timeline, buildSeconds) = try time { try Timeline(path: seekLog, interval: interval) }
        let seekIndexBytes = (try? FileManager.default.attributesOfItem(atPath: indexPath)[.size] as? Int) ?? 0
        guard let last = timeline.lastSeq else { throw BenchError("\(seekLog) is empty") }
        let micros = try seekTimes(timeline, seeks: seeks)
        let p50 = micros[micros.count / 2], p99 = micros[min(micros.count - 1, micros.count * 99 / 100)]
        print("")
        print("seek log \(seekLog): \(grouped(last)) events, \(grouped(logBytes)) bytes; index (interval \(interval)) built in \(format(buildSeconds)) s,"
              + " \(grouped(seekIndexBytes)) bytes = \(format(100 * Double(seekIndexBytes) / Double(logBytes), 2))% of the log")
        print("state --at, \(seeks) random seqs, in process: p50 \(format(p50 / 1000, 3)) ms, p99 \(format(p99 / 1000, 3)) ms, max \(format(micros.last! / 1000, 3)) ms")
        let byTime = try seekTimes(timeline, seeks: seeks, byTime: true)
        let timeP50 = byTime[byTime.count / 2], timeP99 = byTime[min(byTime.count - 1, byTime.count * 99 / 100)]
        print("state --at-time, the times of the same seqs' events, in process: p50 \(format(timeP50 / 1000, 3)) ms, p99 \(format(timeP99 / 1000, 3)) ms")
        seekJSON = "{\"interval\":\(interval),\"events\":\(last),\"log_bytes\":\(logBytes),\"index_bytes\":\(seekIndexBytes),\"build_s\":\(buildSeconds),"
            + "\"seeks\":\(seeks),\"p50_ms\":\(p50 / 1000),\"p99_ms\":\(p99 / 1000),\"max_ms\":\(micros.last! / 1000),"
            + "\"time_p50_ms\":\(timeP50 / 1000),\"time_p99_ms\":\(timeP99 / 1000)}"
    }
    if let out = jsonOut {
        let text = "{\"events\":\(lines),\"bytes\":\(bytes),\"index_bytes\":\(indexBytes),\"runs\":[\(json.joined(separator: ","))],"
            + "\"baseline\":{\"events\":\(baselineEvents),\"seconds\":\(baselineSeconds)},\"seek\":\(seekJSON)}\n"
        try text.write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}

/// How long each of `seeks` seeks of `timeline` to random seqs took, in microseconds, sorted: the
/// seqs are seeded, the same in every run and every build.
func seekTimes(_ timeline: Timeline, seeks: Int, byTime: Bool = false) throws -> [Double] {
    guard let last = timeline.lastSeq else { return [] }
    var random = SeededRandom(seed: 7)
    var micros: [Double] = []
    for _ in 0..<seeks {
        let target = Int.random(in: 1...last, using: &random)
        guard byTime else {
            let (_, seconds) = try time { try timeline.seek(to: target) }
            micros.append(seconds * 1e6)
            continue
        }
        // The time of the same seq's event, found untimed.
        try timeline.seek(to: target)
        guard let moment = timeline.event?.timestamp else { continue }
        let (_, seconds) = try time { try timeline.seek(toTime: moment) }
        micros.append(seconds * 1e6)
    }
    return micros.sorted()
}
