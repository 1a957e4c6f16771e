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

    @Test func aDirectoryHoldingNoLogIsRefused() throws {
        try FileManager.default.createDirectory(atPath: scratch.path + "/empty/notes", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: scratch.path + "/empty/readme.txt", contents: Data("x".utf8))
        let run = try NavlogRun("screens", scratch.path + "/empty")
        #expect(run.status == 66)
        #expect(run.stderr.contains("nor a directory of logs"))
    }
}
