import Foundation
import Testing

/// Every option that takes a time or a duration reads it as people write it, and refuses what
/// could be read two ways (exit 64) with a form that works.
@Suite struct TimeArgumentCLITests {
    /// 25 events from 2028-02-29T12:00:00.000Z to 12:06:00.500Z, session s1.
    static let log = NavlogCLITests.examples.appendingPathComponent("tabs-and-stacks.jsonl").path

    /// The rows of `screens --format json` with `options`.
    static func screens(_ options: String...) throws -> String {
        let run = try NavlogRun(["screens", log, "--format", "json"] + options, stdin: nil)
        #expect(run.status == 0, "\(options): \(run.stderr)")
        return try #require(run.stdout.components(separatedBy: #""rows":"#).last)
    }

    @Test func everyFormOfOneMomentFiltersAlike() throws {
        let exact = try Self.screens("--since", "2028-02-29T12:03:00.000Z")
        for form in ["2028-02-29T12:03:00Z", "2028-02-29T12:03Z", "2028-02-29T13:03:00+01:00", "2028-02-29T07:03-05:00",
                     "2028-02-29T12:03:00.000000Z", "2028-02-29 12:03:00Z", "2028-02-29t12:03:00z"] {
            #expect(try Self.screens("--since", form) == exact, "\(form)")
        }
        #expect(exact != (try Self.screens()), "the moment is within the log: it filters")
        #expect(try Self.screens("--since", "2028-02-29") == (try Self.screens("--since", "2028-02-29T00:00:00.000Z")), "a date is its midnight UTC")
        #expect(try Self.screens("--until", "2028-03-01") == (try Self.screens()), "the day after holds every view")
    }

    /// The log's events are in 2028, after the present moment: whatever is some time ago is before them.
    @Test func aRelativeTimeIsThatLongBeforeNow() throws {
        let all = try Self.screens()
        let none = try Self.screens("--until", "2028-02-28")
        for form in ["7d", "36h", "90m", "1h30m", "now"] {
            #expect(try Self.screens("--since", form) == all, "\(form)")
            #expect(try Self.screens("--until", form) == none, "\(form)")
        }
    }

    @Test(arguments: [
        (["screens", "--since", "2028-02-29T12:00"], "--since '2028-02-29T12:00': add Z (UTC) or an offset, such as 2028-02-29T12:00Z or 2028-02-29T12:00+01:00"),
        (["screens", "--until", "10"], "--until '10': give a unit for how long ago, such as 10d or 10h, or a date, such as 2027-01-01"),
        (["screens", "--since", "02/29/2028"], "--since '02/29/2028': write a date as YYYY-MM-DD, such as 2027-01-02"),
        (["screens", "--since", "-7d"], "--since '-7d': a relative time is how long ago, without a sign: 7d is that long before now"),
        (["state", "--at-time", "2028-02-30"], "--at-time '2028-02-30': there is no such date"),
        (["state", "--at", "yesterday"], "--at 'yesterday': give a time, such as 2027-01-01T09:30:00Z"),
        (["restore", "--now", "2028-02-29T12:00:00+0100"], "--now '2028-02-29T12:00:00+0100': end the time with Z (UTC) or an offset written ±HH:MM"),
        (["funnel", "--steps", "home,recipe", "--window", "10"], "--window '10': give a unit, such as 10s, 10m, 10h or 10d"),
        (["funnel", "--steps", "home,recipe", "--window", "1.5h"], "--window '1.5h': write whole numbers, a smaller unit for the fraction: 1h30m, not 1.5h"),
        (["screens", "--idle", "1M"], "--idle '1M': M could be minutes or months"),
        (["bounces", "--within", "30m1h"], "--within '30m1h': give each unit once, the largest first, such as 1h30m or 2m30s"),
        (["restore", "--max-age", "1mo"], "--max-age '1mo': a month has no fixed length: write days, such as 30d"),
        (["screens", "--idle", "0s"], "--idle '0s': give a gap above 0, such as 30m"),
    ] as [([String], String)])
    func anAmbiguousOrMalformedFormIsAUsageErrorWithAFormThatWorks(arguments: [String], message: String) throws {
        let run = try NavlogRun([arguments[0], Self.log] + arguments.dropFirst() + ["--no-index"].filter { _ in arguments[0] == "state" }, stdin: nil)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("navlog \(arguments[0]): error: \(message)"), "\(run.stderr)")
    }

    @Test func everyFormOfOneDurationGivesTheSameAnswer() throws {
        func funnel(_ window: String) throws -> String {
            let run = try NavlogRun("funnel", Self.log, "--steps", "home,recipe,author", "--window", window, "--format", "json")
            #expect(run.status == 0, "\(window): \(run.stderr)")
            return run.stdout
        }
        let minute = try funnel("1m")
        for form in ["60s", "60000ms", "1min", "0h1m"] { #expect(try funnel(form) == minute, "\(form)") }
        #expect(try funnel("1h30m") == (try funnel("90m")))
        #expect(try funnel("1d") == (try funnel("24h")))
        #expect(minute != (try funnel("1s")), "the window decides the answer")
    }

    @Test func stateAtATimeIsStateAtTheLastEventThen() throws {
        let bySeq = try NavlogRun("state", Self.log, "--at-time", "2028-02-29T12:03:00.000Z", "--no-index", "--format", "json")
        #expect(bySeq.status == 0)
        for form in [["--at-time", "2028-02-29T13:03+01:00"], ["--at", "2028-02-29T12:03:00Z"]] {
            let run = try NavlogRun(["state", Self.log, "--no-index", "--format", "json"] + form, stdin: nil)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == bySeq.stdout, "\(form)")
        }
        let seq = try NavlogRun("state", Self.log, "--at", "3", "--no-index", "--format", "json")
        #expect(seq.stdout.contains(#""seq":3,"#), "digits alone are a seq")
        #expect(try NavlogRun("state", Self.log, "--at", "3", "--at-time", "now").status == 64)
    }

    /// restore's durations, always in seconds, keep a number alone as seconds and take units too.
    @Test func restoreTakesDurationsWithUnitsAndNumbersAsSeconds() throws {
        let now = "2028-03-01T12:00:00Z"
        let seconds = try NavlogRun("restore", Self.log, "--now", now, "--max-age", "3600", "--format", "json")
        let hour = try NavlogRun("restore", Self.log, "--now", now, "--max-age", "1h", "--format", "json")
        #expect(seconds.status == 0 && hour.status == 0)
        #expect(seconds.stdout == hour.stdout)
        #expect(hour.stdout.contains("stale"), "a day after the log's end, 1h is too old: \(hour.stdout)")
        let week = try NavlogRun("restore", Self.log, "--now", "2028-03-01", "--max-age", "7d", "--format", "json")
        #expect(!week.stdout.contains("stale"), "\(week.stdout)")
    }

    @Test(arguments: ["screens", "funnel", "state", "restore", "export", "report"])
    func theHelpSaysHowTimesAndDurationsAreWritten(_ subcommand: String) throws {
        let help = try NavlogRun("help", subcommand).stdout
        #expect(help.contains("TIME is RFC 3339"), "\(subcommand)")
        if subcommand != "state" { #expect(help.contains("DURATION is whole numbers each with its unit"), "\(subcommand)") }
    }
}
