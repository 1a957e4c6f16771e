import Foundation
import TestSupport
import Testing

/// Every reading command says what its reading dropped — a torn tail, the lines salvage skipped,
/// where pointInTime stopped — on standard error, one line each, and in its JSON as
/// `dropped_lines`, right after `format`.
@Suite(.serialized) final class DroppedLinesCLITests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    /// What a crash left of the log's 26th line.
    static let torn = #"{"v":1,"seq":26,"ts":"2028-"#

    /// A copy of the example log tabs-and-stacks (25 lines) at `name`, then `tail`.
    func log(_ name: String, tail: String = "") throws -> String {
        let path = scratch.path + "/" + name
        let lines = try String(contentsOf: NavlogCLITests.examples.appendingPathComponent("tabs-and-stacks.jsonl"), encoding: .utf8)
        try Data((lines + tail).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The warning of the torn tail of `log`.
    static func tornWarning(_ log: String, by command: String) -> String {
        "navlog \(command): warning: \(log):26: tornLine: torn tail dropped: no newline at end of file (\(torn.utf8.count) bytes)\n"
    }

    /// Each reading command with JSON output: its name, then its arguments after PATH.
    static let jsonCommands: [[String]] = [
        ["screens"], ["transitions"], ["transitions", "--steps", "2"], ["paths", "--length", "2"], ["funnel", "--steps", "home,recipe"],
        ["exits", "--crash-paths", "2"], ["bounces"], ["deeplinks"], ["tabs"], ["depth"], ["sessions", "--no-index"], ["state", "--no-index"],
        ["replay", "--from", "1", "--no-index"], ["diff", "1", "2", "--no-index"], ["restore", "--now", "2028-03-01T12:00:00.000Z"],
    ]

    /// Each reading command without JSON, or with a format other than JSON.
    static let otherCommands: [[String]] = jsonCommands.map { $0 + ["--format", "text"] } + [
        ["screens", "--format", "csv"], ["dump"], ["export", "--table", "screen_views"], ["export", "--table", "transitions", "--format", "csv"],
        ["export", "--table", "deeplinks"], ["export", "--table", "sessions"],
    ]

    @Test(arguments: jsonCommands)
    func theJSONOfEveryReadingCommandCarriesTheTornTailItDroppedRightAfterFormat(_ command: [String]) throws {
        let log = try log("torn.jsonl", tail: Self.torn)
        let run = try NavlogRun([command[0], log] + command.dropFirst() + ["--format", "json"], stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let dropped = #"{"format":2,"dropped_lines":{"mode":"tolerateTornTail","count":1,"first":[{"file":"\#(log)","line":26,"offset":"#
        #expect(run.stdout.hasPrefix(dropped), "\(run.stdout.prefix(300))")
        #expect(run.stdout.contains(#""kind":"tornLine","detail":"torn tail dropped: no newline at end of file (\#(Self.torn.utf8.count) bytes)"}]},"#))
        #expect(run.stderr == Self.tornWarning(log, by: command[0]))
    }

    @Test(arguments: jsonCommands)
    func theJSONOfEveryReadingCommandOfACleanLogHasAnEmptyDroppedLinesMemberAndStandardErrorSaysNothing(_ command: [String]) throws {
        let log = try log("clean.jsonl")
        let run = try NavlogRun([command[0], log] + command.dropFirst() + ["--format", "json"], stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix(#"{"format":2,"dropped_lines":{"mode":"tolerateTornTail","count":0,"first":[]},"#), "\(run.stdout.prefix(200))")
        #expect(run.stderr == "")
    }

    @Test(arguments: otherCommands)
    func everyReadingCommandSaysOnStandardErrorTheTornTailItDroppedAndNothingOfACleanLog(_ command: [String]) throws {
        let torn = try log("torn.jsonl", tail: Self.torn), clean = try log("clean.jsonl")
        let run = try NavlogRun([command[0], torn] + command.dropFirst(), stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == Self.tornWarning(torn, by: command[0]))
        let quiet = try NavlogRun([command[0], clean] + command.dropFirst(), stdin: nil)
        #expect(quiet.status == 0 && quiet.stderr == "", "\(quiet.stderr)")
        #expect(quiet.stdout == run.stdout.replacingOccurrences(of: torn, with: clean), "the same answer: the torn tail is no event")
    }

    /// A log read from standard input is named `stdin`, in the JSON as on standard error.
    @Test func aLogFromStandardInputIsNamedStdinInTheDroppedLines() throws {
        let input = try String(contentsOfFile: try log("torn.jsonl", tail: Self.torn), encoding: .utf8)
        let run = try NavlogRun(["exits", "-", "--format", "json"], stdin: input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix(#"{"format":2,"dropped_lines":{"mode":"tolerateTornTail","count":1,"first":[{"file":"stdin","line":26,"#))
        #expect(run.stderr == Self.tornWarning("stdin", by: "exits"))
    }

    /// The report's page data carries what the reading dropped, and standard error says it.
    @Test func theReportsDataCarriesTheTornTailItDroppedAndStandardErrorSaysIt() throws {
        for (name, tail) in [("torn.jsonl", Self.torn), ("clean.jsonl", "")] {
            let log = try log(name, tail: tail), page = scratch.path + "/" + name + ".html"
            let run = try NavlogRun("report", log, "-o", page)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr == (tail.isEmpty ? "" : Self.tornWarning(log, by: "report")))
            let html = try String(contentsOfFile: page, encoding: .utf8)
            let start = try #require(html.range(of: #"<script id="report-data" type="application/json">"#))
            let data = html[start.upperBound...]
            #expect(data.hasPrefix(tail.isEmpty ? #"{"format":2,"dropped_lines":{"mode":"tolerateTornTail","count":0,"first":[]},"#
                                               : #"{"format":2,"dropped_lines":{"mode":"tolerateTornTail","count":1,"first":[{"file":"\#(log)","line":26,"#),
                    "\(data.prefix(200))")
            #expect(html.contains(#"<p class="note" id="dropped-lines">"#), "the overview has its place for them")
        }
    }

    /// Over several logs, each dropped line names its log's file, and only the logs that dropped
    /// one are said.
    @Test(arguments: [["screens"], ["sessions", "--no-index"], ["deeplinks"]])
    func overSeveralLogsEachDroppedLineNamesItsFile(_ command: [String]) throws {
        let clean = try log("clean.jsonl"), torn = try log("torn.jsonl", tail: Self.torn)
        let run = try NavlogRun([command[0], clean, torn] + command.dropFirst() + ["--format", "json"], stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: Self.tornWarning(torn, by: command[0])).count == 2, "said once: \(run.stderr)")
        #expect(!run.stderr.contains(clean + ":"), "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let dropped = try #require(object["dropped_lines"] as? [String: Any])
        #expect(dropped["count"] as? Int == 1)
        let first = try #require(dropped["first"] as? [[String: Any]])
        #expect(first.map { $0["file"] as? String } == [torn] && first.map { $0["line"] as? Int } == [26])
    }

    /// A log of which salvage skips 12 lines: the 3rd to the 14th, their crc made invalid.
    func damaged() throws -> String {
        let path = try log("damaged.jsonl")
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for k in 2..<14 { lines[k] = lines[k].replacingOccurrences(of: #""crc":""#, with: #""crc":"0"#) }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// In salvage, standard error names the first 10 lines skipped and says how many were in all;
    /// the JSON counts them all and lists the first 10. A second reading says them again, also
    /// where the first left an index of the log (`state`).
    @Test(arguments: [["screens"], ["export", "--table", "sessions"], ["state", "--interval", "2"], ["sessions", "--interval", "2"]])
    func inSalvageModeTheFirstTenLinesSkippedAreNamedAndAllCounted(_ command: [String]) throws {
        let log = try damaged()
        for _ in 1...2 {
            let run = try NavlogRun([command[0], log] + command.dropFirst() + ["--mode", "salvage"], stdin: nil)
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 11, "\(run.stderr)")
            #expect(lines.prefix(10) == (3...12).map { "navlog \(command[0]): warning: \(log):\($0): crcMismatch: 'crc' must be 8 lowercase hex digits in a string" }[...])
            #expect(lines.last == "navlog \(command[0]): warning: \(log): 12 lines skipped (--mode salvage), the first 10 above;"
                    + " `navlog verify \(log) --mode salvage` lists them")
        }
        guard command[0] != "export" else { return }
        let json = try NavlogRun([command[0], log] + command.dropFirst() + ["--mode", "salvage", "--format", "json"], stdin: nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let dropped = try #require(object["dropped_lines"] as? [String: Any])
        #expect(dropped["mode"] as? String == "salvage" && dropped["count"] as? Int == 12)
        #expect((dropped["first"] as? [[String: Any]])?.map { $0["line"] as? Int } == (3...12).map { $0 })
    }

    /// In salvage, a few lines skipped are each named, where they are, and counted: on standard
    /// error and in the JSON of every reading command.
    @Test(arguments: [["screens"], ["deeplinks"], ["sessions", "--no-index"], ["state", "--no-index"], ["replay", "--from", "1", "--no-index"]])
    func inSalvageModeAFewLinesSkippedAreEachNamedAndCounted(_ command: [String]) throws {
        let path = try log("two-bad.jsonl")
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[5] = "garbage"
        lines[13] = "{}"
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        let run = try NavlogRun([command[0], path] + command.dropFirst() + ["--mode", "salvage"], stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let said = run.stderr.split(separator: "\n").map(String.init)
        #expect(said.count == 3, "\(run.stderr)")
        let prefix = "navlog \(command[0]): warning: \(path)"
        #expect(said.first?.hasPrefix("\(prefix):6: invalidJSON: ") == true)
        #expect(said.dropFirst().first?.hasPrefix("\(prefix):14: missingMember: ") == true, "\(run.stderr)")
        #expect(said.last == "\(prefix): 2 lines skipped (--mode salvage)")
        let json = try NavlogRun([command[0], path] + command.dropFirst() + ["--mode", "salvage", "--format", "json"], stdin: nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let dropped = try #require(object["dropped_lines"] as? [String: Any])
        #expect(dropped["mode"] as? String == "salvage" && dropped["count"] as? Int == 2)
        #expect((dropped["first"] as? [[String: Any]])?.map { $0["line"] as? Int } == [6, 14])
    }

    /// In pointInTime, standard error and the JSON name the line reading stopped at and how many
    /// bytes followed it unread.
    @Test(arguments: [["screens"], ["diff", "1", "2", "--no-index"], ["sessions", "--no-index"]])
    func inPointInTimeModeWhereReadingStoppedAndWhatFollowedAreSaid(_ command: [String]) throws {
        let log = try damaged()
        let run = try NavlogRun([command[0], log] + command.dropFirst() + ["--mode", "pointInTime", "--format", "json"], stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let unread = text.utf8.count - lines[0].utf8.count - lines[1].utf8.count - 2
        #expect(run.stderr == "navlog \(command[0]): warning: \(log):3: crcMismatch: 'crc' must be 8 lowercase hex digits in a string\n"
                + "navlog \(command[0]): warning: \(log):3: unreadTail: reading stopped here: \(unread) bytes of this file from this line on were not read\n")
        #expect(run.stdout.hasPrefix(#"{"format":2,"dropped_lines":{"mode":"pointInTime","count":2,"first":[{"file":"\#(log)","line":3,"#))
    }
}
