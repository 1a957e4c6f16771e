import Foundation
import NavigationHistory
import NavigationSimulation

/// `navlog generate --events N [--seed S] [--crash-rate R] [--force] -o PATH`
enum GenerateCommand: Subcommand {
    static let name = "generate"
    static let summary = "Write a realistic synthetic log, the same for the same seed."
    static let help = """
        Usage: navlog generate --events N [--seed S] [--crash-rate R] [--segment-size BYTES] [--force]
                               -o PATH

        Writes N events of a synthetic recipe app: four tabs each with its own stack, sheets with their
        own stacks, a split view and a second window on iPad sessions, deep links (resolved, partial,
        unmatched), log-normal dwell times, and the app going to the background (scene.phase inactive,
        then background) and coming back (inactive, then active) after seconds to hours. The same
        seed always gives the same log.

        Sessions end as on a phone (the names are the event format's, Lifecycle):
          background  most: the system ends the app in the background, without notice: every scene
                      goes inactive, then background, and no session.end follows. Not a crash.
          clean       about a quarter of the rest: the user swipes the app away (inactive, then
                      session.end).
          unclean     the share --crash-rate: a crash in the foreground; the events just stop,
                      with the scenes active.
        The next session.start follows a gap of a minute to hours; the log's last session is open.

        Options:
          --events N            How many lines to write (snapshots included).
          --seed S              The random seed (default 1).
          --crash-rate R        The share of sessions that crash in the foreground, 0 to 1 (default
                                0.02).
          --segment-size BYTES  Segment size of a log directory (default 8388608).
          -o, --output PATH     A path ending in .jsonl writes one file (written beside it and renamed
                                over it once complete); - (standard output), a character device or a
                                FIFO is written straight as one file; any other path is a log directory
                                of segments, each starting with a snapshot, as the store writes them,
                                written holding the directory's lock.
          --force               Replace a file that is not empty, or the log in a directory that holds
                                one (its segments, index and torn tails; a directory holding other files
                                is refused). Without it, such a PATH is refused (exit 64).

        Examples:
          navlog generate --events 100000 --seed 7 -o app.jsonl
          navlog generate --events 1000000 --segment-size 8000000 -o logs/app
        """

    static let options: [CommandOption] = [.option("--events", "N"), .option("--seed", "S"), .option("--crash-rate", "R"),
                                           .option("--segment-size", "BYTES"), .file("-o", "PATH"), .file("--output", "PATH"), .flag("--force")]
    static let operands = Operands.none

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        guard parsed.positional.isEmpty else { throw UsageError("unexpected argument '\(parsed.positional[0])'") }
        guard let events = try parsed.integer("--events", range: 1...1_000_000_000) else { throw UsageError("missing --events N") }
        guard let output = parsed.value("-o") ?? parsed.value("--output") else { throw UsageError("missing -o PATH") }
        let seed = try parsed.integer("--seed", range: 0...Int.max) ?? 1
        let crashRate = try parsed.double("--crash-rate", range: 0...1) ?? 0.02
        let segmentSize = try parsed.integer("--segment-size", range: 4096...Int.max) ?? 8 << 20
        let force = parsed.has("--force")
        var generator = LogGenerator(seed: UInt64(seed), crashRate: crashRate)
        let summary: LogGenerator.WriteSummary
        if output.hasSuffix(".jsonl") || OutputFile.isStream(output) {
            let file = try OutputFile(output, replacing: force)
            summary = try generator.writeLines(events: events) { try file.write($0) }
            try file.commit()
        } else {
            do {
                summary = try generator.writeLog(to: output, events: events, segmentSize: segmentSize, replacing: force)
            } catch let error as NavigationHistoryError where error.errno == EEXIST && !force {
                throw UsageError("\(output) is not empty; give --force to replace the log in it")
            }
        }
        Diagnostics.note("wrote \(counted(summary.events, "event")) (\(counted(summary.bytes, "byte"))) in \(counted(summary.segments, "file")) to \(output)")
        return
    }
}
