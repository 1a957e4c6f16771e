// NavlogBench redact: `Shipment.redacted(_:salt:)` of an 8 MiB sealed segment (ids, params and
// URLs, salted) beside the LogReader reading the same segment on one core, in turns, best and
// median of R rounds, as bytes a second. Issue 43's target: redacting at least half the reader's
// single-core rate. `contents()` (the bytes and their SHA-256, what an unredacted upload reads) is
// measured too, as the floor a redacted upload adds to.
import Foundation
import NavigationHistory
import NavigationSimulation

let redactUsage = """
    Usage: NavlogBench redact DIR [--repeat R] [--json OUT]
    """

func runRedact(_ arguments: [String]) async throws -> Int32 {
    var directory: String?
    var repeats = 9
    var jsonOut: String?
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--repeat": repeats = try arguments.integer(argument)
        case "--json": jsonOut = try arguments.value(argument)
        case "-h", "--help": print(redactUsage); return 0
        default: directory = argument
        }
    }
    guard let directory else { throw BenchError("redact needs DIR\n\(redactUsage)") }
    let path = try freshDirectory(directory)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var generator = LogGenerator(seed: 43)
    try generator.writeLog(to: path, events: 120_000, segmentSize: 8 << 20)
    let log = try EventLog(directory: path, options: .init(durability: .none))
    defer { try? log.close() }
    guard let shipment = try log.pendingShipments().shipments.first, shipment.byteSize > 7 << 20 else {
        throw BenchError("no sealed segment of 8 MiB in \(path)")
    }
    var reading: [Double] = [], redacting: [Double] = [], contents: [Double] = []
    for _ in 0..<repeats {
        let (report, a) = try time { try LogReader(path: shipment.path, mode: .tolerateTornTail, threads: 1).read { _ in } }
        precondition(report.events == shipment.seqs.count)
        let (copy, b) = try time { try shipment.redacted([.ids, .params, .urls], salt: "bench-salt") }
        precondition(copy.bytes.count > shipment.byteSize / 2)
        let (_, c) = try time { try shipment.contents() }
        reading.append(a)
        redacting.append(b)
        contents.append(c)
    }
    reading.sort()
    redacting.sort()
    contents.sort()
    let mib = Double(shipment.byteSize) / Double(1 << 20)
    func rate(_ seconds: Double) -> String { "\(format(mib / seconds, 1)) MiB/s" }
    let median = repeats / 2
    let ratio = reading[median] / redacting[median]
    print("An \(format(mib, 2)) MiB segment of \(grouped(shipment.seqs.count)) events, best (median) of \(repeats), in turns:")
    print("  LogReader, 1 core:      \(rate(reading[0])) (\(rate(reading[median])))")
    print("  redacted(ids, params, urls): \(rate(redacting[0])) (\(rate(redacting[median])))")
    print("  contents() (read + SHA-256): \(rate(contents[0])) (\(rate(contents[median])))")
    print("  redacting / reading rate: \(format(ratio, 2)) (median), \(format(reading[0] / redacting[0], 2)) (best)")
    if let out = jsonOut {
        try ("{\"bytes\":\(shipment.byteSize),\"events\":\(shipment.seqs.count),\"read_best_s\":\(reading[0]),\"read_median_s\":\(reading[median]),"
             + "\"redact_best_s\":\(redacting[0]),\"redact_median_s\":\(redacting[median]),\"contents_median_s\":\(contents[median])}\n")
            .write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}
