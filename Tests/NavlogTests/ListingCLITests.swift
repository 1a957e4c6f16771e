import Foundation
import Testing
import TestSupport

/// What the listing commands print, on the built binary: `--limit` and `sessions --ending`, text
/// columns aligned by kind, the words of counts and ages, and the demo that leaves its files.
@Suite struct ListingCLITests {
    let scratch: ScratchDirectory
    let log: String

    init() throws {
        scratch = try ScratchDirectory()
        log = scratch.path + "/app.jsonl"
        let made = try NavlogRun("generate", "--events", "5000", "--seed", "3", "-o", log)
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// The sessions of the JSON output of `arguments`.
    func sessions(_ arguments: [String]) throws -> [[String: Any]] {
        let run = try NavlogRun(["sessions", log, "--format", "json"] + arguments, stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(object["sessions"] as? [[String: Any]])
    }

    @Test func sessionsEndingKeepsTheSessionsThatEndedSoAndLimitTheFirstN() throws {
        let all = try sessions([])
        let unclean = try sessions(["--ending", "unclean"])
        #expect(!unclean.isEmpty && unclean.count < all.count)
        #expect(unclean.allSatisfy { $0["ending"] as? String == "unclean" })
        #expect(unclean.map { $0["id"] as? String } == all.filter { $0["ending"] as? String == "unclean" }.map { $0["id"] as? String })
        let two = try sessions(["--ending", "unclean,background"])
        #expect(two.count == all.filter { ["unclean", "background"].contains($0["ending"] as? String) }.count)
        #expect(try sessions(["--ending", "unclean", "--ending", "background"]).count == two.count)
        let limited = try sessions(["--limit", "3"])
        #expect(limited.map { $0["id"] as? String } == all.prefix(3).map { $0["id"] as? String })
        let text = try NavlogRun("sessions", log, "--ending", "background", "--limit", "2")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 5, "counts, the note, the header and 2 rows: \(text.stdout)")
        #expect(lines[1] == "showing 2 of \(all.count) (--ending background, --limit 2)")
        let wrong = try NavlogRun("sessions", log, "--ending", "crashed")
        #expect(wrong.status == 64 && wrong.stderr.contains("--ending must be one of clean, background, unclean, open"), "\(wrong.stderr)")
        #expect(try NavlogRun("sessions", log, "--limit", "0").status == 64)
    }

    @Test func limitKeepsTheFirstRowsOfDumpTransitionsAndDeepLinks() throws {
        let dump = try NavlogRun("dump", log, "--type", "push", "--limit", "4")
        #expect(dump.status == 0 && dump.stdout.split(separator: "\n").count == 4)
        #expect(dump.stdout.split(separator: "\n").allSatisfy { $0.contains(#""type":"push""#) })
        #expect(dump.stdout == (try NavlogRun("dump", log, "--type", "push")).stdout.split(separator: "\n").prefix(4).map { $0 + "\n" }.joined())
        for command in [["transitions"], ["transitions", "--steps", "3"], ["deeplinks"]] {
            let every = try NavlogRun([command[0], log] + command.dropFirst() + ["--format", "json"], stdin: nil)
            let some = try NavlogRun([command[0], log] + command.dropFirst() + ["--format", "json", "--limit", "2"], stdin: nil)
            let rows = { (run: NavlogRun) throws -> [Any] in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
                return try #require(object["rows"] as? [Any])
            }
            let all = try rows(every), first = try rows(some)
            #expect(all.count > 2 && first.count == 2, "\(command)")
            #expect(NSArray(array: first).isEqual(to: Array(all.prefix(2))), "\(command): the first rows")
        }
    }

    @Test func textTablesPutTextLeftAndNumbersRight() throws {
        let run = try NavlogRun("transitions", log, "--limit", "3")
        let lines = run.stdout.split(separator: "\n").dropFirst().map(String.init)
        #expect(lines[0].hasPrefix("from ") && lines[0].hasSuffix("  count"), "\(run.stdout)")
        let toColumn = try #require(lines[0].range(of: "to")).lowerBound.utf16Offset(in: lines[0])
        for row in lines.dropFirst() {
            #expect(row.utf16.count >= toColumn && Array(row.utf16)[toColumn - 1] == 0x20 && Array(row.utf16)[toColumn] != 0x20,
                    "the 'to' screen begins under its header: \(row)")
            #expect(row.count == lines[0].count, "the count ends under its header: \(row)")
        }
    }

    @Test func flowTransitionsNameScreensInTextAndNodesInCSV() throws {
        let text = try NavlogRun("transitions", log, "--steps", "3", "--limit", "1")
        let row = try #require(text.stdout.split(separator: "\n").last.map(String.init))
        #expect(row.split(separator: " ").prefix(3) == ["1", "home", "category"], "\(text.stdout)")
        let csv = try NavlogRun("transitions", log, "--steps", "3", "--limit", "1", "--format", "csv")
        #expect(csv.stdout.split(separator: "\n").last?.hasPrefix("1,1_home,2_category,") == true, "\(csv.stdout)")
    }

    @Test func exitsOfAStillOpenSessionNamesTheScreenStateShowsVisible() throws {
        let open = scratch.path + "/open.jsonl"
        let lines = [
            #"{"v":1,"seq":1,"ts":"2026-11-29T10:00:00.000Z","session":"s","type":"session.start","launch":"cold"}"#,
            #"{"v":1,"seq":2,"ts":"2026-11-29T10:00:00.000Z","session":"s","type":"scene.open","scene":"main"}"#,
            #"{"v":1,"seq":3,"ts":"2026-11-29T10:00:00.000Z","session":"s","type":"tab.select","scene":"main","tab":"home"}"#,
            #"{"v":1,"seq":4,"ts":"2026-11-29T10:00:01.000Z","session":"s","type":"push","scene":"main","stack":"home","route":{"screen":"a"}}"#,
            #"{"v":1,"seq":5,"ts":"2026-11-29T10:00:05.000Z","session":"s","type":"push","scene":"main","stack":"home","route":{"screen":"b"}}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: open, atomically: true, encoding: .utf8)
        let state = try NavlogRun("state", open)
        #expect(state.stdout.contains("      b  <- visible"), "\(state.stdout)")
        let exits = try NavlogRun("exits", open, "--session", "s", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(exits.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["screen"] as? String } == ["b"], "the screen the user sees as the log ends: \(exits.stdout)")
    }

    @Test func verifyNamesTheModeOnlyWhenItMatters() throws {
        let plain = try NavlogRun("verify", log)
        #expect(plain.stdout.hasSuffix(", 1 segment\n"), "\(plain.stdout)")
        #expect(try NavlogRun("verify", log, "--mode", "salvage").stdout.hasSuffix(", 1 segment (mode salvage)\n"))
        let torn = scratch.path + "/torn.jsonl"
        try (try String(contentsOfFile: log, encoding: .utf8) + #"{"v":1,"seq":5001"#).write(toFile: torn, atomically: true, encoding: .utf8)
        #expect(try NavlogRun("verify", torn).stdout.hasSuffix(" (mode tolerateTornTail)\n"), "it tolerated the torn tail")
    }

    @Test func aStaleStateIsSaidInDays() throws {
        let run = try NavlogRun("restore", log, "--now", "2027-06-01T00:00:00.000Z")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(" days old; starting at the root") && !run.stdout.contains("hours old"), "\(run.stdout)")
    }

    @Test func demoKeepsItsDirectoryWithTheReportAndEndsWithThreeCommandsThatWork() throws {
        let directory = scratch.path + "/demo"
        let run = try NavlogRun("demo", "--events", "20000", "--dir", directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted().prefix(3) == ["app", "log", "report.html"])
        let page = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>"))
        let last = run.stdout.split(separator: "\n").suffix(4).map(String.init)
        #expect(last[0] == "Open \(directory)/report.html in a browser. Try next:", "\(last)")
        #expect(last[1].hasPrefix("  navlog report \(directory)/log -o \(directory)/report.html"))
        #expect(last[2].hasPrefix("  navlog replay \(directory)/log --session ") && last[2].hasSuffix("# a session that crashed"))
        #expect(last[3] == "  navlog funnel \(directory)/log --steps home,recipe,reviews")
        let session = String(last[2].dropFirst("  navlog replay \(directory)/log --session ".count).prefix { $0 != " " })
        let crashed = try NavlogRun("sessions", directory + "/log", "--ending", "unclean", "--format", "json")
        #expect(crashed.stdout.contains(#""id":"\#(session)""#), "the session named crashed")
        for command in last.dropFirst() {
            let words = command.split(separator: "#")[0].split(separator: " ").map(String.init)
            let tried = try NavlogRun(Array(words.dropFirst()), stdin: nil)
            #expect(tried.status == 0, "\(command): \(tried.stderr)")
        }
        let again = try NavlogRun("demo", "--events", "1000", "--dir", directory)
        #expect(again.status == 64 && again.stderr.contains("is not an empty directory"), "nothing is replaced: \(again.stderr)")
    }

    @Test func restoreAndSessionsNameTheLastSessionOfALogTheSameWay() throws {
        let log = NavlogCLITests.examples.appendingPathComponent("lifecycle.jsonl").path
        let sessions = try NavlogRun("sessions", log, "--no-index")
        let last = try #require(sessions.stdout.split(separator: "\n").last { $0.hasPrefix("s2 ") })
        #expect(last.split(separator: " ").contains("open"), "\(last)")
        let restore = try NavlogRun("restore", log, "--now", "2026-11-30T08:00:00Z")
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("(session s2, ended open, as the log ends in it; a launch now takes it as unclean:"),
                "\(restore.stdout)")
        let json = try NavlogRun("restore", log, "--now", "2026-11-30T08:00:00Z", "--format", "json")
        #expect(json.stdout.contains(#""session":"s2","session_ending":"unclean""#), "the launch's verdict, which the guard counts")
    }
}
