import Foundation
import TestSupport
import Testing

/// Every `--format json` output of every subcommand holds navlog's JSON conventions: its first
/// member is `"format":2`, and every member name, at any depth, is snake_case with no uppercase
/// letter, and no rate is in basis points (`_bp`): rates are `_pct` percentages.
@Suite struct JSONConventionCLITests {
    /// Each test's own directory: the cases run at once.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory() }

    /// A generated log of `events` events at `name` in the scratch directory, with a torn last
    /// line when `torn` (so that `verify` fills `torn_tail` and every reading fills `dropped_lines`).
    func log(_ name: String, seed: Int, events: Int = 600, torn: Bool = false) throws -> String {
        let path = scratch.path + "/" + name
        let run = try NavlogRun("generate", "--events", String(events), "--seed", String(seed), "-o", path)
        #expect(run.status == 0, "\(run.stderr)")
        if torn {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"v":1,"seq":"#.utf8))
            try handle.close()
        }
        return path
    }

    /// Members whose names are the log's own (scene, stack, param and meta names): their values
    /// are checked, not their names.
    static let namedByTheLog: Set<String> = ["scenes", "stacks", "params", "meta"]

    /// The member names of `value` at any depth that break the conventions, with their paths;
    /// `record` (watch's event as the log holds it, in the log's event format) is not navlog's output.
    static func offending(_ value: Any, at path: String = "", namesAreData: Bool = false) -> [String] {
        if let array = value as? [Any] {
            return array.enumerated().flatMap { offending($1, at: "\(path)[\($0)]") }
        }
        guard let object = value as? [String: Any] else { return [] }
        return object.keys.sorted().flatMap { key -> [String] in
            let here = path + "." + key
            let name = namesAreData || key.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") } && !key.hasSuffix("_bp")
            guard key != "record" || namesAreData else { return name ? [] : [here] }
            return (name ? [] : [here]) + offending(object[key]!, at: here, namesAreData: !namesAreData && namedByTheLog.contains(key))
        }
    }

    /// Each subcommand with JSON output, and its arguments: PATH stands for the torn log, PATH2
    /// for a second log, SESSION for a session of the torn log.
    static let commands: [[String]] = [
        ["verify", "PATH"], ["verify", "PATH", "--mode", "absolute"], ["state", "PATH", "--no-index"],
        ["state", "PATH", "--at", "40", "--no-index"], ["replay", "PATH", "--session", "SESSION", "--no-index"],
        ["replay", "PATH", "--from", "1", "--to", "80", "--no-index"], ["diff", "PATH", "1", "200", "--no-index"],
        ["sessions", "PATH", "--no-index"], ["sessions", "PATH", "PATH2", "--no-index"],
        ["restore", "PATH", "--now", "2026-11-02T00:00:00.000Z"], ["restore", "PATH"],
        ["screens", "PATH"], ["transitions", "PATH"], ["transitions", "PATH", "--steps", "3"], ["paths", "PATH", "--length", "2"],
        ["funnel", "PATH", "--steps", "home,recipe,reviews"], ["exits", "PATH", "--crash-paths", "2"], ["bounces", "PATH"],
        ["deeplinks", "PATH"], ["tabs", "PATH"], ["depth", "PATH"], ["screens", "PATH", "PATH2"], ["funnel", "PATH", "PATH2", "--steps", "home,recipe"],
        ["tabs", "PATH", "PATH2"], ["bounces", "PATH", "PATH2"],
    ]

    @Test(arguments: commands)
    func everyJSONOutputBeginsWithFormat2AndNamesEveryMemberInSnakeCaseWithRatesInPercent(_ command: [String]) throws {
        let path = try log("torn.jsonl", seed: 4, torn: true), second = try log("second.jsonl", seed: 4)
        let sessions = try NavlogRun("sessions", second, "--format", "json", "--no-index")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(sessions.stdout.utf8)) as? [String: Any])
        let session = try #require((listed["sessions"] as? [[String: Any]])?.dropFirst(3).first?["id"] as? String)
        let arguments = command.map { ["PATH": path, "PATH2": second, "SESSION": session][$0] ?? $0 } + ["--format", "json"]
        let run = try NavlogRun(arguments, stdin: nil)
        #expect([0, 1].contains(run.status), "\(run.stderr)")
        try Self.check(run.stdout, command.joined(separator: " "))
    }

    @Test func watchsJSONLinesBeginWithFormat2AndNameTheirMembersInSnakeCase() throws {
        let path = try log("watched.jsonl", seed: 5, events: 120)
        let watch = try WatchProcess([path, "--format", "json"])
        let lines = watch.lines { $0.count == 120 }
        #expect(watch.interrupt().status == 0)
        #expect(lines.count == 120)
        for line in lines { try Self.check(line, "watch") }
    }

    /// `export` writes no envelope (no `format`), but its NDJSON members and its CSV columns, and
    /// the analytics' CSV columns, are named as the JSON's are: snake_case, rates `_pct`.
    @Test(arguments: [["export", "PATH", "--table", "screen_views"], ["export", "PATH", "--table", "transitions"],
                      ["export", "PATH", "--table", "deeplinks"], ["export", "PATH", "--table", "sessions"],
                      ["export", "PATH", "--table", "sessions", "--format", "csv"], ["funnel", "PATH", "--steps", "home,recipe", "--format", "csv"],
                      ["tabs", "PATH", "--format", "csv"], ["bounces", "PATH", "--format", "csv"]])
    func exportsRowsAndEveryCSVHeaderNameTheirColumnsAsTheJSONDoes(_ command: [String]) throws {
        let path = try log("exported.jsonl", seed: 6)
        let run = try NavlogRun(command.map { $0 == "PATH" ? path : $0 }, stdin: nil)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 1, "\(command.joined(separator: " ")) printed too little to check")
        guard command.last == "csv" else {
            for line in lines {
                #expect(Self.offending(try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)))) == [], "\(line.prefix(120))")
            }
            return
        }
        #expect(Self.offending(Dictionary(uniqueKeysWithValues: lines[0].split(separator: ",").map { (String($0), 0) })) == [], "\(lines[0])")
    }

    /// Only the paths of ``offending(_:at:namesAreData:)`` fail: the checker itself catches an old name.
    @Test func theCheckFindsACamelCaseOrBasisPointNameAtAnyDepthButNotANameOfTheLog() {
        let value: [String: Any] = ["format": 2, "rows": [["rate_bp": 1, "share_pct": 1.5]], "logs": [["lastSeq": 3]],
                                    "state": ["scenes": ["mainWindow": ["stacks": ["homeTab": [["screen": "a", "params": ["userId": "7"]]]],
                                                                        "splitView": 1]]],
                                    "record": ["v": 1, "someMember": 2]]
        #expect(Self.offending(value) == [".logs[0].lastSeq", ".rows[0].rate_bp", ".state.scenes.mainWindow.splitView"])
    }

    /// `text`, one output line, holds the conventions: `"format":2` first, every name snake_case.
    static func check(_ text: String, _ what: String) throws {
        #expect(text.hasPrefix(#"{"format":2,"#), "\(what): \(text.prefix(120))")
        let value = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)), "\(what)")
        #expect(offending(value) == [], "\(what)")
    }
}
