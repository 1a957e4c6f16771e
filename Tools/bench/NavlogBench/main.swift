// NavlogBench — navlog's benchmarks, each side by side with its baselines in one process.
//
//   NavlogBench read FILE [--repeat K] [--baseline-lines N] [--json OUT]    (ReadBenchmark.swift)
//   NavlogBench store DIR [--events N] [--synced N] [--json OUT]             (StoreBenchmark.swift)
//   NavlogBench timeline FILE [--seek-log LOG] [--seeks S] [--json OUT]      (TimelineBenchmark.swift)
//   NavlogBench seeks LOG [--seeks S] [--repeat R]                           (SeeksBenchmark.swift)
//   NavlogBench restore LOG... [--repeat K] [--calls C] [--json OUT]         (RestoreBenchmark.swift)
//   NavlogBench bindings [--rounds N] [--json OUT]                           (BindingsBenchmark.swift)
//   NavlogBench shipments DIR [--segments S] [--repeat R] [--json OUT]       (ShipmentsBenchmark.swift)
//   NavlogBench record-during-shipping DIR [--events N] [--rate R] [--rounds K] [--json OUT]
//   NavlogBench redact DIR [--repeat R] [--json OUT]                       (RedactBenchmark.swift)
//                                                                            (ShippingRecordBenchmark.swift)
//   NavlogBench cliffs --navlog PATH [--events N] [--repeat K] [--only CASE]  (CliffsBenchmark.swift)
//   NavlogBench watch DIR [--appends N] [--interval US] [--idle S] [--json OUT]  (WatchBenchmark.swift)
//
// Use Tools/bench/run for the whole benchmark (it generates the log and adds DuckDB).
import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
// The reader as navlog runs it, through memory mappings; but for `restore`, which stands for an
// app's launch, as an app runs it, through copies.
LogReader.mapsFilesByDefault = arguments.first != "restore"
let usage = "Usage: NavlogBench read FILE ... | store DIR ... | timeline FILE ... | seeks LOG ... | restore LOG ... | bindings ... | shipments DIR ... | record-during-shipping DIR ... | redact DIR ... | cliffs --navlog PATH ... | watch DIR ...   (--help after any for more)"
do {
    switch arguments.first {
    case "read": exit(try runRead(Array(arguments.dropFirst())))
    case "store": exit(try await runStore(Array(arguments.dropFirst())))
    case "timeline": exit(try runTimeline(Array(arguments.dropFirst())))
    case "seeks": exit(try runSeeks(Array(arguments.dropFirst())))
    case "restore": exit(try await runRestore(Array(arguments.dropFirst())))
    case "bindings": exit(try await runBindings(Array(arguments.dropFirst())))
    case "shipments": exit(try await runShipments(Array(arguments.dropFirst())))
    case "redact": exit(try await runRedact(Array(arguments.dropFirst())))
    case "record-during-shipping": exit(try await runShippingRecord(Array(arguments.dropFirst())))
    case "cliffs": exit(try runCliffs(Array(arguments.dropFirst())))
    case "watch": exit(try await runWatch(Array(arguments.dropFirst())))
    case "watch-writer": exit(try await runWatchWriter(Array(arguments.dropFirst())))
    case nil, "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("NavlogBench: \(error)\n".utf8))
    exit(1)
}
