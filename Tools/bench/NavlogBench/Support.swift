import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A benchmark's arguments, read one at a time; an option's value is the argument after it.
struct Arguments {
    private let arguments: [String]
    private var index = 0

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next argument, or nil after the last.
    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    /// The value of `option`.
    mutating func value(_ option: String) throws -> String {
        guard let value = next() else { throw BenchError("\(option) needs a value") }
        return value
    }

    /// The value of `option` as an integer of at least `minimum`.
    mutating func integer(_ option: String, atLeast minimum: Int = 1) throws -> Int {
        guard let n = Int(try value(option)), n >= minimum else {
            throw BenchError(minimum == 1 ? "\(option) needs a positive integer" : "\(option) needs an integer of at least \(minimum)")
        }
        return n
    }
}

/// One contender's measurements.
struct Measurement {
    var name: String
    var threads: Int
    var events: Int
    var runs: [Double]
    var note: String

    var best: Double { runs.min() ?? .nan }
    var median: Double {
        let sorted = runs.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
    var eventsPerSecond: Double { Double(events) / best }
}

func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try body()
    return (value, (clock.now - start).seconds)
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return out
}

func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return left ? s + fill : fill + s
}

/// Prints one row per contender with its events/s as a ratio to `reference`'s.
func printTable(_ results: [Measurement], reference: Measurement, repeats: Int) {
    let ratioTitle = "vs " + reference.name
    let header = [pad("contender", 26, left: true), pad("events", 11), pad("best s", 9), pad("median s", 9),
                  pad("events/s", 12), pad(ratioTitle, max(17, ratioTitle.count))]
    print(header.joined(separator: "  "))
    for m in results {
        let ratio = m.eventsPerSecond / reference.eventsPerSecond
        let row = [pad(m.name, 26, left: true), pad(grouped(m.events), 11), pad(format(m.best), 9),
                   pad(format(m.median), 9), pad(grouped(Int(m.eventsPerSecond.rounded())), 12),
                   pad(format(ratio, 3) + "x", max(17, ratioTitle.count))]
        print(row.joined(separator: "  "))
    }
    print("events/s from the best of \(repeats) runs; ratio = events/s ÷ \(reference.name)'s events/s")
    for m in results { print("- \(m.name): \(m.note)") }
}
