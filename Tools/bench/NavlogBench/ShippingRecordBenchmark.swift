// NavlogBench record-during-shipping: the caller's cost of Recorder.record(_:) (default policy)
// at a steady rate from the main actor, in rounds taking turns: one with a concurrent task that
// seals and ships (seal, pendingShipments, contents, a copy into an outbox, markShipped) every
// few milliseconds, one without. Each round records the same N events into a fresh log; p50, p99,
// p99.9 and max of each kind of round, pooled, side by side, and their ratios. Issue 43's target:
// record(_:) p99 unchanged (within 5%) while a seal and a shipment run.
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

let shippingRecordUsage = """
    Usage: NavlogBench record-during-shipping DIR [--events N] [--rate R] [--rounds K] [--ship-every MS] [--json OUT]

    Records N events a round (default 20000) at R events/s (default 10000) through a Recorder with
    the default policy, timing each record(_:) call, in K rounds (default 8) taking turns: without
    shipping, and with a task that seals and ships every MS ms (default 50) while it records.
    """

/// The record(_:) costs of one kind of round, pooled, and what the shipping task did in them.
struct ShippingRoundCosts {
    var costs: [UInt32] = []
    var seals = 0, segments = 0, bytes = 0

    func summary() -> (p50: UInt32, p99: UInt32, p999: UInt32, max: UInt32) {
        let sorted = costs.sorted()
        return (percentile(sorted, 0.5), percentile(sorted, 0.99), percentile(sorted, 0.999), sorted.last ?? 0)
    }
}

/// Seals and ships the recorder's log into `outbox` until cancelled, every `interval`; returns
/// the seals done, and the segments and bytes shipped.
func sealAndShip(_ recorder: Recorder, into outbox: String, every interval: Duration) async throws -> (seals: Int, segments: Int, bytes: Int) {
    var done = (seals: 0, segments: 0, bytes: 0)
    while !Task.isCancelled {
        if try await recorder.seal() { done.seals += 1 }
        for shipment in try await recorder.pendingShipments().shipments {
            let contents = try shipment.contents()
            try Data(contents.bytes).write(to: URL(fileURLWithPath: outbox + "/" + shipment.fileName))
            try await recorder.markShipped(shipment)
            done.segments += 1
            done.bytes += contents.bytes.count
        }
        try? await Task.sleep(for: interval)
    }
    return done
}

/// One round: the drafts recorded at `rate` from the main actor, each call timed; with
/// `shipping`, a task seals and ships meanwhile.
@MainActor
func recordRound(_ drafts: [EventDraft], rate: Int, in directory: String, shipping: Duration?,
                 into costs: inout ShippingRoundCosts) async throws {
    let path = try freshDirectory(directory)
    let outbox = try freshDirectory(directory + ".outbox")
    let recorder = try await Recorder(directory: path, session: "bench")
    let shipper = shipping.map { interval in Task.detached { try await sealAndShip(recorder, into: outbox, every: interval) } }
    let gap = UInt64(1_000_000_000 / max(rate, 1))
    var next = monotonicNanoseconds()
    for draft in drafts {
        let start = monotonicNanoseconds()
        recorder.record(draft.action, at: draft.timestamp)
        costs.costs.append(UInt32(clamping: monotonicNanoseconds() - start))
        next += gap
        let now = monotonicNanoseconds()
        if next > now { usleep(useconds_t((next - now) / 1000)) }
    }
    if let shipper {
        shipper.cancel()
        let done = try await shipper.value
        costs.seals += done.seals
        costs.segments += done.segments
        costs.bytes += done.bytes
    }
    try await recorder.close()
}

@MainActor
func runShippingRecord(_ arguments: [String]) async throws -> Int32 {
    var directory: String?
    var events = 20_000, rate = 10_000, rounds = 8, shipEvery = 50
    var jsonOut: String?
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--events": events = try arguments.integer(argument)
        case "--rate": rate = try arguments.integer(argument)
        case "--rounds": rounds = try arguments.integer(argument, atLeast: 2)
        case "--ship-every": shipEvery = try arguments.integer(argument)
        case "--json": jsonOut = try arguments.value(argument)
        case "-h", "--help": print(shippingRecordUsage); return 0
        default:
            guard directory == nil, !argument.hasPrefix("--") else { throw BenchError("unexpected argument \(argument)\n\(shippingRecordUsage)") }
            directory = argument
        }
    }
    guard let root = directory else { throw BenchError("record-during-shipping needs a DIR\n\(shippingRecordUsage)") }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    var generator = LogGenerator(seed: 43)
    let drafts = (0..<events).map { _ in generator.next() }
    var without = ShippingRoundCosts(), with = ShippingRoundCosts()
    without.costs.reserveCapacity(events * rounds / 2 + events)
    with.costs.reserveCapacity(events * rounds / 2 + events)
    for round in 0..<rounds {
        if round % 2 == 0 {
            try await recordRound(drafts, rate: rate, in: root + "/log", shipping: nil, into: &without)
        } else {
            try await recordRound(drafts, rate: rate, in: root + "/log", shipping: .milliseconds(shipEvery), into: &with)
        }
    }
    try? FileManager.default.removeItem(atPath: root)
    let a = without.summary(), b = with.summary()
    let turns = rounds / 2
    print("record(_:) at \(grouped(rate)) events/s from the main actor, \(grouped(events)) events a round, \(turns) rounds of each in turns"
          + " (load average \(loadAverage()))")
    func row(_ name: String, _ figures: [UInt32]) -> String {
        pad(name, 44, left: true) + zip(figures, [8, 8, 9, 9]).map { " " + pad("\($0)", $1) }.joined()
    }
    let head = pad("rounds", 44, left: true) + zip(["p50 ns", "p99 ns", "p99.9 ns", "max ns"], [8, 8, 9, 9]).map { " " + pad($0, $1) }.joined()
    print(head)
    print(String(repeating: "-", count: head.count))
    print(row("without shipping", [a.p50, a.p99, a.p999, a.max]))
    print(row("seal + ship every \(shipEvery) ms (\(with.seals) seals)", [b.p50, b.p99, b.p999, b.max]))
    let p50Ratio = Double(b.p50) / Double(max(a.p50, 1)), p99Ratio = Double(b.p99) / Double(max(a.p99, 1))
    print("with / without: p50 \(format(p50Ratio, 3))x, p99 \(format(p99Ratio, 3))x; shipped \(with.segments) segments, "
          + "\(grouped(with.bytes)) bytes")
    if let out = jsonOut {
        func member(_ s: (p50: UInt32, p99: UInt32, p999: UInt32, max: UInt32)) -> String {
            "{\"p50_ns\":\(s.p50),\"p99_ns\":\(s.p99),\"p999_ns\":\(s.p999),\"max_ns\":\(s.max)}"
        }
        try ("{\"events_per_round\":\(events),\"rate\":\(rate),\"rounds_each\":\(turns),\"ship_every_ms\":\(shipEvery),"
             + "\"without\":\(member(a)),\"with\":\(member(b)),\"seals\":\(with.seals),\"shipped_segments\":\(with.segments),"
             + "\"shipped_bytes\":\(with.bytes),\"p50_ratio\":\(p50Ratio),\"p99_ratio\":\(p99Ratio),\"load_average\":\"\(loadAverage())\"}\n")
            .write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}

/// The machine's 1-, 5- and 15-minute load averages, as /proc/loadavg or getloadavg says them.
func loadAverage() -> String {
    var loads = [Double](repeating: 0, count: 3)
    guard getloadavg(&loads, 3) == 3 else { return "unknown" }
    return loads.map { format($0, 2) }.joined(separator: " ")
}
