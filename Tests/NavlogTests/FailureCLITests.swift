import Foundation
import Testing

/// A failure deep inside a subcommand reaches the one place that prints it and exits, with the
/// exit status and message the README documents.
@Suite struct FailureCLITests {
    /// navlog run with standard output going to `output`.
    static func run(_ arguments: [String], output: FileHandle) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = NavlogRun.binary
        process.arguments = arguments
        process.standardOutput = output
        let err = Pipe()
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = readAll(err.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// The write fails while the output streams out (a replay writes as it goes), not only at the
    /// end: the error is kept, no more is written, and navlog ends with 74 and one line.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")),
          arguments: [["dump"], ["replay", "--from", "1", "--format", "json", "--no-index"], ["screens"], ["verify", "--format", "json"]])
    func anOutputThatCannotBeWrittenExits74SayingWhy(arguments: [String]) throws {
        let directory = NSTemporaryDirectory() + "navlog-failure-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/log.jsonl"
        #expect(try NavlogRun("generate", "--events", "2000", "-o", log).status == 0)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let run = try Self.run([arguments[0], log] + arguments.dropFirst(), output: full)
        #expect(run.status == 74)
        #expect(run.stderr == "navlog \(arguments[0]): error: stdout: cannot write the output: No space left on device\n")
    }

    /// An anomaly found halfway through a `--strict` replay ends it with 65, naming the log and the anomaly.
    @Test func aStrictReplayStopsAtTheFirstAnomalyWithExit65() throws {
        let directory = NSTemporaryDirectory() + "navlog-failure-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/log.jsonl"
        let lines = [
            #"{"v":1,"seq":1,"ts":"2026-11-29T10:00:00.000Z","session":"s","type":"scene.open","scene":"main"}"#,
            #"{"v":1,"seq":2,"ts":"2026-11-29T10:00:01.000Z","session":"s","type":"push","scene":"main","stack":"home","route":{"screen":"a"}}"#,
            #"{"v":1,"seq":3,"ts":"2026-11-29T10:00:02.000Z","session":"s","type":"pop","scene":"main","stack":"home","count":2}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let run = try NavlogRun("replay", log, "--session", "s", "--strict", "--no-index")
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("navlog replay: error: \(log): --strict: ") && run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
    }
}
