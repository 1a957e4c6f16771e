// NavlogBench shipments: `EventLog.pendingShipments()` on a log of S sealed segments beside
// listing its directory (the names alone, as `FileManager` gives them), in turns, best and median
// of R rounds. Issue 43's target: at most 2x the listing.
import Foundation
import NavigationHistory
import NavigationSimulation

let shipmentsUsage = """
    Usage: NavlogBench shipments DIR [--segments S] [--repeat R] [--json OUT]
    """

func runShipments(_ arguments: [String]) async throws -> Int32 {
    var directory: String?
    var segments = 1000, repeats = 15
    var jsonOut: String?
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--segments": segments = try arguments.integer(argument)
        case "--repeat": repeats = try arguments.integer(argument)
        case "--json": jsonOut = try arguments.value(argument)
        case "-h", "--help": print(shipmentsUsage); return 0
        default: directory = argument
        }
    }
    guard let directory else { throw BenchError("shipments needs DIR\n\(shipmentsUsage)") }
    let path = try freshDirectory(directory)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let log = try EventLog(directory: path, options: .init(durability: .none))
    var generator = LogGenerator(seed: 43)
    for _ in 0..<segments {
        try log.append(contentsOf: (0..<40).map { _ in generator.next() })
        try log.seal()
    }
    var listing: [Double] = [], pending: [Double] = []
    var listed = 0
    for _ in 0..<repeats {
        let (names, a) = try time { try FileManager.default.contentsOfDirectory(atPath: path) }
        let (shipments, b) = try time { try log.pendingShipments() }
        listed = shipments.shipments.count
        precondition(names.count >= segments && listed == segments)
        listing.append(a)
        pending.append(b)
    }
    try log.close()
    listing.sort()
    pending.sort()
    let ratio = pending[repeats / 2] / listing[repeats / 2]
    print("pendingShipments on \(grouped(segments)) sealed segments (40 events each), best of \(repeats): listing the directory"
          + " \(format(listing[0] * 1000, 2)) ms (median \(format(listing[repeats / 2] * 1000, 2))), pendingShipments"
          + " \(format(pending[0] * 1000, 2)) ms (median \(format(pending[repeats / 2] * 1000, 2))): \(format(ratio, 2))x")
    if let out = jsonOut {
        try ("{\"segments\":\(segments),\"listing_best_ms\":\(listing[0] * 1000),\"listing_median_ms\":\(listing[repeats / 2] * 1000),"
             + "\"pending_best_ms\":\(pending[0] * 1000),\"pending_median_ms\":\(pending[repeats / 2] * 1000)}\n")
            .write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}
