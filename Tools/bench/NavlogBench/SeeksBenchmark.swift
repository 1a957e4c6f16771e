// `NavlogBench seeks`: the in-process seeks of `NavlogBench timeline --seek-log` alone, run after
// run on the index as it is, for comparing two builds in turns without rebuilding the index of a
// 10M-event log each time.
import Foundation
import NavigationHistory

let seeksUsage = """
    Usage: NavlogBench seeks LOG [--seeks S] [--interval K] [--repeat R] [--by-time]

    Opens LOG's timeline (its index at interval K, default 4096, built only when missing or stale)
    and seeks it to S random seqs (default 1000, the same seqs as `timeline --seek-log`), R times
    (default 5); prints each run's p50 in milliseconds. With --by-time, seeks to the times of
    those seqs' events instead (`state --at-time`), each found by an untimed seek first.
    """

func runSeeks(_ arguments: [String]) throws -> Int32 {
    var log: String?
    var seeks = 1000, interval = 4096, repeats = 5
    var byTime = false
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--seeks": seeks = try arguments.integer(argument)
        case "--interval": interval = try arguments.integer(argument)
        case "--repeat": repeats = try arguments.integer(argument)
        case "--by-time": byTime = true
        case "-h", "--help": print(seeksUsage); return 0
        default:
            guard log == nil, !argument.hasPrefix("--") else { throw BenchError("unexpected argument \(argument)\n\(seeksUsage)") }
            log = argument
        }
    }
    guard let log else { throw BenchError("seeks needs a LOG\n\(seeksUsage)") }
    let timeline = try Timeline(path: log, interval: interval)
    guard timeline.lastSeq != nil else { throw BenchError("\(log) is empty") }
    var p50s: [String] = []
    for _ in 0..<repeats {
        let micros = try seekTimes(timeline, seeks: seeks, byTime: byTime)
        p50s.append(format(micros[micros.count / 2] / 1000, 4))
    }
    print(p50s.joined(separator: " "))
    return 0
}
