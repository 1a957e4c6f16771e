// `NavlogBench read FILE --other-layout OUT`: the same events as another writer lays them out, and
// navlog's reader on them beside the store's own layout, on one core.
//
// A Python, Kotlin or JavaScript writer keeps the members of a line in its own order and writes no
// `crc`: such lines miss the fast path for the store's layout and are read by the general decoder.
// OUT gets FILE's lines with every object's members in reverse order (the event's own members
// first, then type, session, ts, seq, v; a route's params, id, screen) and no `crc`, in compact
// form. The two files are then read in turns, K rounds, one core; the best and median of each and
// the ratio of their rates are printed beside the target (issue 23: at least 60%).
import Foundation
import NavigationHistory

/// Writes `path`'s lines to `out` in another member order and without `crc`; returns the lines written.
func writeOtherLayout(from path: String, to out: String) throws -> Int {
    let input = try Data(contentsOf: URL(fileURLWithPath: path))
    var output = [UInt8]()
    output.reserveCapacity(input.count)
    var lines = 0
    try input.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
            start = newline + 1
            guard !line.isEmpty else { continue }
            let value: JSONValue
            do throws(LineError) { value = try JSONScanner.parse(line) } catch { throw BenchError("line \(lines + 1) of \(path): \(error.detail)") }
            guard case .object(let members) = value else { throw BenchError("line \(lines + 1) of \(path) is not an object") }
            var writer = JSONWriter()
            writer.value(reversed(.object(members.filter { $0.key != "crc" })))
            output += writer.bytes
            output.append(0x0A)
            lines += 1
        }
    }
    try Data(output).write(to: URL(fileURLWithPath: out))
    return lines
}

/// `value` with the members of every object in it in reverse order.
private func reversed(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members): .object(members.reversed().map { JSONMember($0.key, reversed($0.value)) })
    case .array(let elements): .array(elements.map(reversed))
    default: value
    }
}

/// The store's layout and the other one read in turns on one core, `repeats` rounds.
func measureLayouts(store: String, other: String, repeats: Int) throws -> (store: Measurement, other: Measurement) {
    func read(_ path: String) throws -> (Int, Double) {
        let (report, elapsed) = try time { try LogReader(path: path, mode: .tolerateTornTail, threads: 1).read { _ in } }
        guard report.isClean else { throw BenchError("navlog found \(report.defectCount) defects in \(path)") }
        return (report.events, elapsed)
    }
    _ = try read(store)
    _ = try read(other)
    var storeRuns = [Double](), otherRuns = [Double]()
    var events = (0, 0)
    for _ in 0..<repeats {
        let (s, storeTime) = try read(store)
        let (o, otherTime) = try read(other)
        storeRuns.append(storeTime)
        otherRuns.append(otherTime)
        events = (s, o)
    }
    guard events.0 == events.1 else { throw BenchError("the other layout has \(events.1) events, the store's \(events.0)") }
    return (Measurement(name: "store layout 1 core", threads: 1, events: events.0, runs: storeRuns,
                        note: "the generated log as the store writes it: fast path, crc checked"),
            Measurement(name: "other layout 1 core", threads: 1, events: events.1, runs: otherRuns,
                        note: "the same events, members in reverse order, no crc: the general decoder"))
}

/// Prints the two layouts' rates, their ratio and the target.
func printLayouts(_ store: Measurement, _ other: Measurement, repeats: Int) {
    print("")
    printTable([store, other], reference: store, repeats: repeats)
    let ratio = other.eventsPerSecond / store.eventsPerSecond
    let medianRatio = store.median / other.median
    print("target: other layout >= 60% of the store layout's events/s on 1 core   (now \(format(ratio * 100, 1))%, "
          + "medians \(format(medianRatio * 100, 1))%: \(ratio >= 0.6 ? "met" : "not met"))")
}
