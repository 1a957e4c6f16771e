import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// Under a file-size limit (`ulimit -f`, counted in 512-byte blocks) a write fails with EFBIG and
/// navlog says so (exit 74), instead of SIGXFSZ ending it mid-write; what it was writing is left
/// out whole, and a read-only command goes on without the derived file it could not save.
@Suite(.serialized) struct FileSizeLimitCLITests {
    @Test(arguments: ["export", "report", "generate"])
    func aWriteOverTheLimitFailsWithExit74AndLeavesNoFile(command: String) throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log()
        let output = scratch.path + "/out.jsonl"
        let arguments = switch command {
        case "export": ["export", log, "--table", "screen_views", "-o", output]
        case "report": ["report", log, "-o", output]
        default: ["generate", "--events", "5000", "-o", output]
        }
        let run = try NavlogRun(shell: "ulimit -f 40", arguments)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr == "navlog \(command): error: \(output): cannot write the output: File too large\n")
        #expect(try scratch.names() == ["log.jsonl"], "neither a cut-off output nor a temporary file")
    }

    @Test func generatingALogDirectoryOverTheLimitLeavesNoSegment() throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path + "/log"
        let run = try NavlogRun(shell: "ulimit -f 40", ["generate", "--events", "5000", "-o", directory])
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("error: \(directory)/00000001.jsonl: write failed: File too large"), "\(run.stderr)")
        #expect(try LogFiles.resolve(directory).files.isEmpty, "a log cut short would pass for a whole one")
    }

    @Test func anAppendOverTheLimitFailsWithExit74AndKeepsEveryEventAppendedBefore() throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path + "/log"
        #expect(try NavlogRun("generate", "--events", "100", "-o", directory).status == 0)
        let size = try LogFiles.size(directory)
        let limit = size / 512 + 4   // room for a few events more
        let event = #"{"type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"\#(String(repeating: "x", count: 200))"}}"#
        var appended = 0
        var failure: NavlogRun?
        for _ in 0..<20 {
            let run = try NavlogRun(shell: "ulimit -f \(limit)", ["append", directory, "--session", "s", "--event", event])
            guard run.status == 0 else { failure = run; break }
            appended += 1
        }
        let failed = try #require(failure, "the limit was reached")
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(failed.stderr.contains("00000001.jsonl: write failed: File too large"), "\(failed.stderr)")
        #expect(appended > 0)
        let verify = try NavlogRun("verify", directory, "--mode", "absolute")
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("ok: \(counted(100 + appended, "event"))"), "every event appended before is there, whole")
    }

    @Test func stateOverTheLimitWarnsThatTheIndexWasNotSavedAndPrintsTheState() throws {
        let scratch = try ScratchDirectory()
        let log = try scratch.log(events: 20_000)
        let run = try NavlogRun(shell: "ulimit -f 20", ["state", log])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(log): state after seq 20000"))
        #expect(run.stderr.contains("warning: \(log): the snapshot index could not be saved"), "\(run.stderr)")
        #expect(run.stderr.contains("File too large"))
        #expect(try scratch.names() == ["log.jsonl"], "no index and no temporary file")
    }

    private func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
