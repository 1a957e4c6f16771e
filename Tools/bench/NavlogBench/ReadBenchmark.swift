// `NavlogBench read`: read + decode + verify a generated log with navlog's reader on one core and
// on all cores, side by side with a hand-written JSONDecoder baseline.
//
// Measures on the same file:
//   a) navlog's LogReader on one core (threads: 1),
//   b) navlog's LogReader on all cores (threads: activeProcessorCount),
//   c) navlog's LogReader.verify on all cores (what `navlog verify` does: the log in chunks at once,
//      each from a session.start, no event handed over in order),
//   d) Foundation JSONDecoder decoding each line into Codable structs (BaselineEvent), reading the
//      file in 4 MiB chunks split at newlines and checking that seq increases by 1 — on the first
//      N lines only (default 200,000), since it is slow; its rate is extrapolated from those.
// Each is run K times (default 3) and the BEST (shortest) run is reported; the median is printed
// too. The file is read once before timing so that every contender starts from a warm page cache,
// and navlog's reader runs once untimed before its K runs.
import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let chunkSize = 4 << 20

/// Reads the whole file once in 4 MiB chunks (warms the page cache); returns its size and line count.
func warmUp(_ path: String) throws -> (bytes: Int, lines: Int) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    var bytes = 0
    var lines = 0
    while true {
        let n = read(fd, buffer.baseAddress!, chunkSize)
        if n < 0 { throw BenchError("cannot read \(path): \(String(cString: strerror(errno)))") }
        if n == 0 { break }
        bytes += n
        var p = buffer.baseAddress!
        let end = buffer.baseAddress! + n
        while p < end, let hit = memchr(p, 0x0A, end - p) {
            lines += 1
            p = UnsafeMutableRawPointer(hit) + 1
        }
    }
    return (bytes, lines)
}

/// navlog's reader: read + decode + verify (UTF-8, JSON, crc, v, required members, ts, seq) every line.
/// With `verifies`, ``LogReader/verify()`` instead of a reading in order.
func measureNavlog(_ path: String, threads: Int, repeats: Int, verifies: Bool = false) throws -> Measurement {
    func run() throws -> ReadReport {
        let reader = LogReader(path: path, mode: .tolerateTornTail, threads: threads)
        return verifies ? try reader.verify() : try reader.read { _ in }
    }
    // One run untimed first: a process's first reading also pays for faulting in its fresh memory,
    // as DuckDB's first query in a connection pays for its own setup.
    _ = try run()
    var runs = [Double]()
    var events = -1
    for _ in 0..<repeats {
        let (report, elapsed) = try time { try run() }
        guard report.isClean else { throw BenchError("navlog found \(report.defectCount) defects in \(path)") }
        if events >= 0, events != report.events { throw BenchError("navlog read \(report.events) events, before \(events)") }
        events = report.events
        runs.append(elapsed)
    }
    if verifies {
        return Measurement(name: "navlog verify (\(threads))", threads: threads, events: events, runs: runs,
                           note: "LogReader.verify, threads: \(threads); in chunks at once, each from a session.start; "
                               + "decodes + verifies crc, ts, seq")
    }
    return Measurement(name: threads == 1 ? "navlog 1 core" : "navlog all cores (\(threads))", threads: threads,
                       events: events, runs: runs,
                       note: "LogReader.read, threads: \(threads); decodes + verifies crc, ts, seq")
}

/// The hand-written baseline: 4 MiB chunks split at newlines, one JSONDecoder, one `Data` per line
/// decoded into `BaselineEvent`; checks `v == 1` and that seq increases by 1. Stops after `limit` lines.
func baselineDecode(_ path: String, limit: Int) throws -> Int {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let decoder = JSONDecoder()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    let base = buffer.baseAddress!
    var filled = 0
    var lines = 0
    var previousSeq: Int?
    reading: while lines < limit {
        let n = read(fd, base + filled, chunkSize - filled)
        if n < 0 { throw BenchError("cannot read \(path): \(String(cString: strerror(errno)))") }
        filled += n
        var start = 0
        while start < filled, let hit = memchr(base + start, 0x0A, filled - start) {
            let newline = UnsafeMutableRawPointer(hit) - base
            let line = Data(bytes: base + start, count: newline - start)
            let event: BaselineEvent
            do {
                event = try decoder.decode(BaselineEvent.self, from: line)
            } catch {
                throw BenchError("JSONDecoder: line \(lines + 1): \(error)")
            }
            guard event.v == 1 else { throw BenchError("line \(lines + 1): unsupported v \(event.v)") }
            if let previous = previousSeq, event.seq != previous + 1 {
                throw BenchError("line \(lines + 1): seq \(event.seq) does not follow \(previous)")
            }
            previousSeq = event.seq
            lines += 1
            start = newline + 1
            if lines == limit { break reading }
        }
        if n == 0 { break }  // end of file; an unterminated last line is a torn tail and is dropped
        if start == 0, filled == chunkSize { throw BenchError("line \(lines + 1) is longer than \(chunkSize) bytes") }
        if start < filled { memmove(base, base + start, filled - start) }
        filled -= start
    }
    return lines
}

func measureBaseline(_ path: String, limit: Int, repeats: Int) throws -> Measurement {
    var runs = [Double]()
    var events = 0
    for _ in 0..<repeats {
        let (lines, elapsed) = try time { try baselineDecode(path, limit: limit) }
        events = lines
        runs.append(elapsed)
    }
    return Measurement(name: "JSONDecoder baseline", threads: 1, events: events, runs: runs,
                       note: "Foundation JSONDecoder + Codable, first \(events) lines only; checks v and seq, no crc/ts check")
}


func json(_ results: [Measurement], layouts: [Measurement], file: String, bytes: Int, lines: Int, repeats: Int) -> String {
    func string(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    func item(_ m: Measurement) -> String {
        "{\"name\":\(string(m.name)),\"threads\":\(m.threads),\"events\":\(m.events),\"seconds\":\(m.best),"
            + "\"median_seconds\":\(m.median),\"events_per_second\":\(m.eventsPerSecond),"
            + "\"runs\":[\(m.runs.map { String($0) }.joined(separator: ","))],\"note\":\(string(m.note))}"
    }
    let items = results.map(item)
    return "{\"file\":\(string(file)),\"bytes\":\(bytes),\"lines\":\(lines),\"repeats\":\(repeats),"
        + "\"results\":[\(items.joined(separator: ","))],\"layouts\":[\(layouts.map(item).joined(separator: ","))]}\n"
}

let readUsage = """
    Usage: NavlogBench read FILE [--repeat K] [--baseline-lines N] [--other-layout LOG] [--json OUT]
           NavlogBench read FILE --threads T [--verify] [--repeat K]

    Reads FILE (a .jsonl log, e.g. from `navlog generate --events 1000000 --seed 1 -o FILE`) with
    navlog's reader on 1 core and on all cores, with LogReader.verify on all cores (in chunks at once,
    as `navlog verify` reads), and with a Foundation JSONDecoder baseline (first N lines, default
    200000; 0 leaves it out); each K times (default 3), reporting the best run.
    --other-layout writes FILE's events to LOG in another member order without crc, as other writers
    lay them out, and reads both files in turns on one core (OtherLayout.swift). --json writes the
    results as JSON to OUT. With --threads, only navlog's reader (with --verify, LogReader.verify) on
    T threads, K times, each run's seconds on one line: for comparing two builds in turns, one
    process after the other.
    """

func runRead(_ arguments: [String]) throws -> Int32 {
    var file: String?
    var repeats = 3
    var baselineLines: Int?
    var jsonOut: String?
    var otherLayout: String?
    var threads: Int?
    var verifies = false
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--repeat": repeats = try arguments.integer(argument)
        case "--baseline-lines": baselineLines = try arguments.integer(argument, atLeast: 0)
        case "--json": jsonOut = try arguments.value(argument)
        case "--other-layout": otherLayout = try arguments.value(argument)
        case "--threads": threads = try arguments.integer(argument)
        case "--verify": verifies = true
        case "-h", "--help": print(readUsage); return 0
        default:
            guard file == nil, !argument.hasPrefix("--") else { throw BenchError("unexpected argument \(argument)\n\(readUsage)") }
            file = argument
        }
    }
    guard let path = file else { throw BenchError("read needs a FILE\n\(readUsage)") }
    if verifies, threads == nil { throw BenchError("--verify times LogReader.verify alone: it needs --threads\n\(readUsage)") }
    if threads != nil, jsonOut != nil || otherLayout != nil || baselineLines != nil {
        throw BenchError("--threads times navlog's reader alone: it takes only --repeat\n\(readUsage)")
    }

    let cores = ProcessInfo.processInfo.activeProcessorCount
    let (bytes, lines) = try warmUp(path)
    if let threads {
        let runs = try measureNavlog(path, threads: threads, repeats: repeats, verifies: verifies).runs
        print(runs.map { String(format: "%.5f", $0) }.joined(separator: " "))
        return 0
    }
    print("file: \(path) — \(grouped(bytes)) bytes, \(grouped(lines)) lines; \(cores) active cores; best of \(repeats) runs")

    let one = try measureNavlog(path, threads: 1, repeats: repeats)
    let all = try measureNavlog(path, threads: cores, repeats: repeats)
    let verify = try measureNavlog(path, threads: cores, repeats: repeats, verifies: true)
    for m in [one, all, verify] where m.events != lines {
        throw BenchError("\(m.name) read \(m.events) events, the file has \(lines) lines")
    }
    let baselineLimit = baselineLines ?? 200_000
    let results = [one, all, verify] + (baselineLimit > 0 ? [try measureBaseline(path, limit: baselineLimit, repeats: repeats)] : [])
    print("")
    printTable(results, reference: one, repeats: repeats)
    var layouts: (store: Measurement, other: Measurement)?
    if let otherLayout {
        _ = try writeOtherLayout(from: path, to: otherLayout)
        _ = try warmUp(otherLayout)
        layouts = try measureLayouts(store: path, other: otherLayout, repeats: repeats)
        printLayouts(layouts!.store, layouts!.other, repeats: repeats)
    }
    if let out = jsonOut {
        try json(results, layouts: layouts.map { [$0.store, $0.other] } ?? [], file: path, bytes: bytes, lines: lines, repeats: repeats)
            .write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}

