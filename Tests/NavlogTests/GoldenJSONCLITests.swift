import Foundation
import Testing

/// Every `--format json` output is one line, `format` its first member, and the same bytes for the
/// same log: each subcommand's output of an example log equals its checked-in file. Run with
/// NAVLOG_UPDATE_GOLDEN=1 to write the files after a deliberate change, and review the diff.
@Suite struct GoldenJSONCLITests {
    static let cases: [(golden: String, log: String, arguments: [String])] = [
        ("verify", "sessions-and-scenes", ["verify"]),
        ("state-scene", "sessions-and-scenes", ["state", "--at", "6", "--scene", "main", "--no-index"]),
        ("replay-session", "sessions-and-scenes", ["replay", "--session", "s1", "--no-index"]),
        ("replay-range", "sheets", ["replay", "--from", "3", "--to", "9", "--no-index"]),
        ("diff", "sheets", ["diff", "2", "12", "--no-index"]),
        ("sessions", "snapshot-and-restore", ["sessions", "--no-index"]),
        ("restore", "snapshot-and-restore", ["restore", "--now", "2026-12-05T12:00:00.000Z"]),
        ("screens", "tabs-and-stacks", ["screens"]),
        ("transitions", "tabs-and-stacks", ["transitions"]),
        ("transitions-steps", "tabs-and-stacks", ["transitions", "--steps", "3"]),
        ("paths", "tabs-and-stacks", ["paths", "--length", "2"]),
        ("funnel", "tabs-and-stacks", ["funnel", "--steps", "home,recipe"]),
        ("exits", "snapshot-and-restore", ["exits", "--crash-paths", "2"]),
        ("exits-lifecycle", "lifecycle-endings", ["exits", "--crash-paths", "2"]),
        ("sessions-lifecycle", "lifecycle-endings", ["sessions", "--no-index"]),
        ("restore-lifecycle", "lifecycle-endings", ["restore", "--now", "2026-11-29T13:00:00.000Z"]),
        ("bounces", "tabs-and-stacks", ["bounces"]),
        ("deeplinks", "deep-links", ["deeplinks"]),
        ("tabs", "tabs-and-stacks", ["tabs"]),
        ("depth", "sheets", ["depth"]),
    ]

    @Test(arguments: cases)
    func jsonOutputOfAnExampleLogMatchesItsGoldenFile(golden: String, log: String, arguments: [String]) throws {
        let input = try String(contentsOf: NavlogCLITests.examples.appendingPathComponent(log + ".jsonl"), encoding: .utf8)
        let run = try NavlogRun([arguments[0], "-"] + arguments.dropFirst() + ["--format", "json"], stdin: input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix(#"{"format":2,"#) && run.stdout.hasSuffix("}\n") && run.stdout.filter { $0 == "\n" }.count == 1)
        let file = NavlogCLITests.golden.appendingPathComponent(golden + ".json")
        if ProcessInfo.processInfo.environment["NAVLOG_UPDATE_GOLDEN"] == "1" {
            try Data(run.stdout.utf8).write(to: file)
        }
        #expect(run.stdout == (try String(contentsOf: file, encoding: .utf8)))
    }

    /// The exported tables of a log with every ending equal their checked-in files: `sessions`
    /// (with and without idle parts) and `screen_views`' dwell and background time.
    @Test(arguments: [("sessions-export.ndjson", ["--table", "sessions"]), ("sessions-export-idle.csv", ["--table", "sessions", "--idle", "60s", "--format", "csv"]),
                      ("screen-views-lifecycle.ndjson", ["--table", "screen_views"])])
    func exportOfALogWithEveryEndingMatchesItsGoldenFile(golden: String, arguments: [String]) throws {
        let input = try String(contentsOf: NavlogCLITests.examples.appendingPathComponent("lifecycle-endings.jsonl"), encoding: .utf8)
        let run = try NavlogRun(["export", "-"] + arguments, stdin: input)
        #expect(run.status == 0, "\(run.stderr)")
        let file = NavlogCLITests.golden.appendingPathComponent(golden)
        if ProcessInfo.processInfo.environment["NAVLOG_UPDATE_GOLDEN"] == "1" {
            try Data(run.stdout.utf8).write(to: file)
        }
        #expect(run.stdout == (try String(contentsOf: file, encoding: .utf8)))
    }
}
