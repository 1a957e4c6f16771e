import Foundation
import TestSupport
import Testing

/// Analytics commands and `sessions` over several logs and directories of logs.
@Suite(.serialized) final class ManyLogsCLITests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    /// Generates a log at `name` (under a `logs` directory) with `seed`.
    func generate(_ name: String, seed: Int, events: Int = 3000) throws -> String {
        try FileManager.default.createDirectory(atPath: scratch.path + "/logs", withIntermediateDirectories: true)
        let path = scratch.path + "/logs/" + name
        let run = try NavlogRun("generate", "--events", String(events), "--seed", String(seed), "-o", path)
        #expect(run.status == 0)
        return path
    }

    @Test func aDirectoryOfLogsAnswersAsItsLogsGivenOneByOne() throws {
        let a = try generate("a.jsonl", seed: 3), b = try generate("b.navlog", seed: 4)
        let together = try NavlogRun("screens", scratch.path + "/logs")
        let apart = try NavlogRun("screens", a, b)
        #expect(together.status == 0 && apart.status == 0)
        #expect(together.stdout == apart.stdout)
        #expect(apart.stdout.hasPrefix("2 logs: screens, 6,000 events, no filters\n"))
        let json = try NavlogRun("funnel", a, b, "--steps", "home,recipe", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let logs = try #require(object["logs"] as? [[String: Any]])
        #expect(logs.map { $0["path"] as? String } == [a, b])
        #expect(logs.map { $0["events"] as? Int } == [3000, 3000])
        #expect((object["repeated_sessions"] as? [Any])?.isEmpty == true)
    }

    @Test func aSessionIdTwoLogsUseIsReportedAndKeptApart() throws {
        let a = try generate("a.jsonl", seed: 5), again = try generate("again.jsonl", seed: 5)
        let one = try NavlogRun("sessions", a)
        let both = try NavlogRun("sessions", a, again)
        #expect(both.status == 0)
        let rows = one.stdout.split(separator: "\n").count - 2
        #expect(both.stdout.split(separator: "\n").count - 2 == 2 * rows)
        #expect(both.stdout.contains("\(again)  "))
        #expect(both.stderr.contains("is in 2 logs (\(a), \(again)): counted apart, as "))
        let screens = try NavlogRun("screens", a, again, "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(screens.stdout.utf8)) as? [String: Any])
        let repeated = try #require((object["repeated_sessions"] as? [[String: Any]])?.first)
        let id = try #require(repeated["session"] as? String)
        #expect(repeated["names"] as? [String] == [id, id + "@2"])
        #expect(repeated["logs"] as? [String] == [a, again])
    }

    /// The data a report page embeds.
    func pageData(_ page: String) throws -> [String: Any] {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let start = try #require(html.range(of: #"<script id="report-data" type="application/json">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    }

    /// A page is never written over a log the report reads, named directly, among several or
    /// through a link: the log stays as it was.
    @Test func aReportRefusesToWriteOverALogItReads() throws {
        let a = try generate("a.jsonl", seed: 7), b = try generate("b.jsonl", seed: 8)
        let before = try Data(contentsOf: URL(fileURLWithPath: b))
        let link = scratch.path + "/page.html"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: b)
        for output in [b, link] {
            for paths in [[b], [a, b]] {
                let run = try NavlogRun(["report"] + paths + ["-o", output], stdin: nil)
                #expect(run.status == 64 && run.stderr.contains("-o \(output) is a file of the log \(b), which the report reads"), "\(run.stderr)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: b)) == before)
    }

    @Test func aReportOverSeveralLogsCountsThemAllAndReplaysEachSessionFromItsLog() throws {
        let a = try generate("a.jsonl", seed: 7), b = try generate("b.navlog", seed: 8), again = try generate("c.jsonl", seed: 7, events: 2000)
        let screens = try NavlogRun("screens", a, b, again, "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(screens.stdout.utf8)) as? [String: Any])
        let repeated = try #require((object["repeated_sessions"] as? [[String: Any]])?.first)
        let id = try #require(repeated["session"] as? String)
        let page = scratch.path + "/many.html"
        let run = try NavlogRun("report", a, b, again, "-o", page, "--crashed", "0", "--recent", "3", "--session", id + "@3", "--session", id + "@1")
        #expect(run.status == 0, "\(run.stderr)")
        // In its first log, a repeated id is named as it is: `ID@1` names nothing, and is said to.
        #expect(run.stderr.contains("navlog report: \(page): --session \(id)@1 names no session of the report"), "\(run.stderr)")
        #expect(!run.stderr.contains("--session \(id)@3 names no session"))
        #expect(run.stdout.contains("KiB; 8,000 events, ") && run.stdout.hasSuffix(" sessions of 3 logs\n"), "\(run.stdout)")
        #expect(run.stderr.contains("navlog report: warning: session \(id) is in 2 logs (\(a), \(again)): counted apart, as \(id), \(id)@3"))
        let data = try pageData(page)
        #expect(data["log"] as? String == "\(a) \(b) \(again)", "the page's commands name the logs as given")
        let logs = try #require(data["logs"] as? [[String: Any]])
        #expect(logs.map { $0["path"] as? String } == [a, b, again])
        #expect(logs.map { $0["events"] as? Int } == [3000, 3000, 2000])
        #expect((data["repeated_sessions"] as? [[String: Any]])?.count == (object["repeated_sessions"] as? [Any])?.count)
        // The screens are those of `navlog screens` over the same logs.
        let rows = try #require(object["rows"] as? [[String: Any]])
        let shown = try #require(data["screens"] as? [[String: Any]])
        #expect(shown.map { $0["screen"] as? String } == rows.map { $0["screen"] as? String })
        #expect(shown.map { $0["views"] as? Int } == rows.map { $0["views"] as? Int })
        #expect(shown.map { $0["sessions"] as? Int } == rows.map { $0["sessions"] as? Int })
        // And the sessions those of `navlog sessions`.
        let sessions = try NavlogRun("sessions", a, b, again)
        #expect(sessions.stdout.hasPrefix("3 logs: \((data["sessions"] as? [String: Int])?["total"] ?? -1) sessions: "))
        // The session named ID@3 is the third log's, replayed from it.
        let replays = try #require(data["replays"] as? [[String: Any]])
        #expect(replays.count == 4)
        let named = try #require(replays.first)
        #expect(named["id"] as? String == id + "@3" && named["log"] as? String == again && named["session_in_log"] as? String == id)
        let replay = try NavlogRun("replay", again, "--session", id, "--format", "json")
        let steps = try #require((try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])?["steps"] as? [[String: Any]])
        #expect((named["steps"] as? [[String: Any]])?.map { $0["seq"] as? Int } == steps.map { $0["seq"] as? Int })
        // The directory of the logs gives the same page but for the paths as given.
        let together = scratch.path + "/together.html"
        #expect(try NavlogRun("report", scratch.path + "/logs", "-o", together, "--crashed", "0", "--recent", "3", "--session", id + "@3", "--session", id + "@1").status == 0)
        var same = try pageData(together)
        #expect(same["log"] as? String == scratch.path + "/logs")
        same["log"] = data["log"]
        #expect(NSDictionary(dictionary: same).isEqual(to: data))
    }

    @Test func aDirectoryOfOneLogGivesThatLogsReportByteForByte() throws {
        let a = try generate("a.jsonl", seed: 9)
        let one = scratch.path + "/one.html", listed = scratch.path + "/listed.html"
        let byPath = try NavlogRun("report", a, "-o", one, "--crashed", "0", "--recent", "4")
        let byDirectory = try NavlogRun("report", scratch.path + "/logs", "-o", listed, "--crashed", "0", "--recent", "4")
        #expect(byPath.status == 0 && byDirectory.status == 0)
        #expect(FileManager.default.contents(atPath: one) == FileManager.default.contents(atPath: listed))
        #expect(byPath.stdout.replacingOccurrences(of: one, with: listed) == byDirectory.stdout)
        #expect(try pageData(one)["logs"] == nil, "a page of one log has no list of logs")
    }

    @Test func aDirectoryHoldingNoLogIsRefused() throws {
        try FileManager.default.createDirectory(atPath: scratch.path + "/empty/notes", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: scratch.path + "/empty/readme.txt", contents: Data("x".utf8))
        let run = try NavlogRun("screens", scratch.path + "/empty")
        #expect(run.status == 66)
        #expect(run.stderr.contains("nor a directory of logs"))
    }
}
