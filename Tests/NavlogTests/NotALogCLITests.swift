import Foundation
import TestSupport
import Testing

/// A file of which no line is an event is not a navigation log: every reading command refuses it
/// (exit 65) rather than answer it with nothing. A real log's torn last line stays a warning.
@Suite(.serialized) final class NotALogCLITests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    /// A file at `name` holding `text`.
    func file(_ name: String, _ text: String) throws -> String {
        let path = scratch.path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every reading command, with its arguments after PATH.
    static let commands: [[String]] = [["verify"], ["verify", "--format", "json"]] + DroppedLinesCLITests.jsonCommands
        + DroppedLinesCLITests.jsonCommands.map { $0 + ["--format", "json"] } + DroppedLinesCLITests.otherCommands
        + [["replay", "--session", "s1", "--no-index"], ["report", "-o", "-"]]

    @Test(arguments: commands)
    func everyReadingCommandRefusesAFileOfWhichNoLineIsAnEvent(_ command: [String]) throws {
        let path = try file("hello.jsonl", "hello\n")
        let run = try NavlogRun([command[0], path] + command.dropFirst(), stdin: nil)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stdout == "", "no answer at all: \(run.stdout.prefix(200))")
        #expect(run.stderr.hasSuffix("navlog \(command[0]): error: \(path): not a navigation log: its one line is not an event (line 1: invalidJSON:"
                                     + " unexpected 'h', expecting '{': each line must be one JSON object)\n"), "\(run.stderr)")
    }

    @Test func inSalvageNoLineAnEventIsRefusedToo() throws {
        let path = try file("words.jsonl", "hello\nworld\n{\"not\": \"an event\"}\n")
        for command in [["verify"], ["screens"], ["state", "--no-index"], ["export", "--table", "sessions"]] {
            let run = try NavlogRun([command[0], path] + command.dropFirst() + ["--mode", "salvage"], stdin: nil)
            #expect(run.status == 65, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("navlog \(command[0]): error: \(path): not a navigation log: none of its 3 lines read is an event (line 1: invalidJSON:"), "\(run.stderr)")
        }
    }

    @Test func fromStandardInputTheFileIsNamedStdin() throws {
        let run = try NavlogRun(["screens", "-"], stdin: "hello\n")
        #expect(run.status == 65)
        #expect(run.stderr.contains("navlog screens: error: stdin: not a navigation log"), "\(run.stderr)")
    }

    @Test func nothingIsWrittenForAFileThatIsNotALog() throws {
        let path = try file("hello.jsonl", "hello\n")
        for command in [["export", path, "--table", "sessions", "-o", scratch.path + "/out.csv"], ["report", path, "-o", scratch.path + "/r.html"]] {
            #expect(try NavlogRun(command, stdin: nil).status == 65)
            #expect(!FileManager.default.fileExists(atPath: command.last!), "\(command)")
        }
    }

    /// An empty file is a log with no events yet; a file whose one line is torn is a log whose
    /// writer stopped in its first event; a real log's torn last line is a warning.
    @Test func anEmptyLogOrATornLastLineIsNotRefused() throws {
        let empty = try file("empty.jsonl", "")
        let torn = try file("torn.jsonl", DroppedLinesCLITests.torn)
        for path in [empty, torn] {
            for command in [["verify"], ["screens"], ["sessions", "--no-index"], ["restore"]] {
                let run = try NavlogRun([command[0], path] + command.dropFirst(), stdin: nil)
                #expect(run.status == 0, "\(command) \(path): \(run.stderr)")
                #expect(!run.stderr.contains("not a navigation log"))
            }
        }
        let lines = try String(contentsOf: NavlogCLITests.examples.appendingPathComponent("tabs-and-stacks.jsonl"), encoding: .utf8)
        let real = try file("real.jsonl", lines + "hello\n")
        let run = try NavlogRun("screens", real)
        #expect(run.status == 0)
        #expect(run.stderr == "navlog screens: warning: \(real):26: invalidJSON: torn tail dropped: unexpected 'h', expecting '{': each line must be one JSON object\n")
    }

    @Test func aLogWhoseFirstLineIsDamagedIsADefectNotANonLog() throws {
        // The reading stops at the damage, so it does not know that no line after it is an event.
        let lines = try String(contentsOf: NavlogCLITests.examples.appendingPathComponent("tabs-and-stacks.jsonl"), encoding: .utf8)
        let damaged = try file("damaged.jsonl", "hello\n" + lines)
        let run = try NavlogRun("verify", damaged)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("\(damaged):1: invalidJSON:") && !run.stderr.contains("not a navigation log"), "\(run.stderr)")
        let salvage = try NavlogRun("verify", damaged, "--mode", "salvage")
        #expect(!salvage.stderr.contains("not a navigation log"), "salvage reads the events after it: \(salvage.stderr)")
    }
}
