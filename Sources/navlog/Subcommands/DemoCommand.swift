import Foundation
import NavigationHistory

/// `navlog demo [--events N] [--keep DIR]`
enum DemoCommand: Subcommand {
    static let name = "demo"
    static let summary = "Generate a log, verify it, and show what the tools see."
    static let help = """
        Usage: navlog demo [--events N] [--seed S] [--dir DIR]

        The main job on a generated log, end to end: writes a synthetic log of N events (default
        1,000,000) as a log directory of segments, reads and verifies every line with the fast reader,
        and prints the counts, the read rate and the first events.

        Options:
          --events N   How many events to generate (default 1000000).
          --seed S     The random seed (default 1).
          --dir DIR    Where to write the log (default: a new temporary directory, removed afterwards).
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        guard let parsed = try parse(arguments, options: ["--events", "--seed", "--dir"]) else { return ExitCode.success }
        let events = try parsed.integer("--events", range: 1...100_000_000) ?? 1_000_000
        let seed = try parsed.integer("--seed", range: 0...Int.max) ?? 1
        let keep = parsed.value("--dir")
        let directory = keep ?? NSTemporaryDirectory() + "navlog-demo-\(getpid())"
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: directory) } }

        var generator = LogGenerator(seed: UInt64(seed))
        var clock = ContinuousClock.now
        let written = try generator.writeLog(to: directory, events: events)
        let writeTime = ContinuousClock.now - clock
        print("Generated \(written.events) events in \(written.segments) segments (\(written.bytes / 1_048_576) MiB) in \(format(writeTime)) → \(directory)")

        clock = ContinuousClock.now
        var types = [String: Int]()
        var first: [NavigationEvent] = []
        let report = try LogReader(path: directory).read { event in
            types[event.type, default: 0] += 1
            if first.count < 5 { first.append(event) }
        }
        let readTime = ContinuousClock.now - clock
        let seconds = Double(readTime.components.seconds) + Double(readTime.components.attoseconds) / 1e18
        print("Read and verified \(report.events) events in \(format(readTime)): \(Int(Double(report.events) / seconds / 1000))K events/s, \(report.isClean ? "no defects" : "\(report.defectCount) defects")")
        print("Sessions: \(report.sessions), seq \(report.firstSeq ?? 0)...\(report.lastSeq ?? 0)")
        print("\nEvents by type:")
        for (type, count) in types.sorted(by: { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }) {
            print("  " + type.padding(toLength: 18, withPad: " ", startingAt: 0) + String(count))
        }
        print("\nFirst events (normalized):")
        for event in first { print("  " + String(decoding: LineEncoder.encode(event).dropLast(), as: UTF8.self)) }
        return report.isClean ? ExitCode.success : ExitCode.dataError
    }

    private static func format(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return ms < 1000 ? "\(Int(ms)) ms" : String(format: "%.2f s", ms / 1000)
    }
}
