import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// `navlog append --stdin` cut short — by a signal or a failed write — says how far the input is
/// in the log, and appending the input after that point gives the log a whole run would have.
@Suite(.serialized) struct AppendResumeCLITests {
    /// 30,000 generated events as `navlog dump` writes them, held in memory by `append` (under 8 MiB).
    static func input(in scratch: ScratchDirectory) throws -> (path: String, lines: [Substring]) {
        let log = scratch.path + "/source.jsonl"
        var generator = LogGenerator(seed: 8)
        try generator.writeLog(to: log, events: 30_000)
        let dump = try NavlogRun("dump", log)
        #expect(dump.status == 0, "\(dump.stderr)")
        let path = scratch.path + "/input.jsonl"
        try dump.stdout.write(toFile: path, atomically: false, encoding: .utf8)
        return (path, dump.stdout.split(separator: "\n"))
    }

    /// What a failure or signal said: the input's line the log holds the events through, and the
    /// seq of the last of them.
    static func standing(_ stderr: String) throws -> (line: Int, seq: Int) {
        let through = try #require(stderr.firstRange(of: "through stdin line ")?.upperBound, "\(stderr)")
        let seqAt = try #require(stderr.firstRange(of: "the last one seq ")?.upperBound, "\(stderr)")
        let line = try #require(Int(stderr[through...].prefix { $0.isNumber }))
        let seq = try #require(Int(stderr[seqAt...].prefix { $0.isNumber }))
        #expect(stderr.contains("resume after stdin line \(line)"), "\(stderr)")
        return (line, seq)
    }

    /// The events of a log, their seqs and snapshots left out: what an append copies.
    static func copied(_ path: String) throws -> [NavigationEvent] {
        var events: [NavigationEvent] = []
        try LogReader(path: path).read { event in if !event.isSnapshot { events.append(event) } }
        return events.map { NavigationEvent(seq: 0, timestamp: $0.timestamp, session: $0.session, action: $0.action) }
    }

    /// Appends the input's lines after `line` to `log`, as a resuming import does.
    static func resume(_ log: String, after line: Int, of input: [Substring]) throws {
        let rest = input.dropFirst(line).joined(separator: "\n") + "\n"
        let run = try NavlogRun(["append", log, "--stdin"], stdin: rest)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func anAppendStoppedBySIGTERMSaysHowFarTheInputIsAndResumingCompletesItExactly() throws {
        let scratch = try ScratchDirectory()
        let (input, lines) = try Self.input(in: scratch)
        let log = scratch.path + "/log"
        let process = Process()
        process.executableURL = NavlogRun.binary
        process.arguments = ["append", log, "--stdin"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The first segment is made by the first batch written: every event was checked by then.
        while FileSystem.status(log + "/00000001.jsonl") == nil && process.isRunning { usleep(2_000) }
        kill(process.processIdentifier, SIGTERM)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 128 + SIGTERM, "the append ended before the signal came: \(stderr)")
        #expect(stderr.hasPrefix("navlog append: error: \(log): interrupted by SIGTERM: the input's events through stdin line "), "\(stderr)")
        let (line, seq) = try Self.standing(stderr)
        #expect(line < lines.count)
        let verify = try NavlogRun("verify", log, "--mode", "absolute")
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("seq 1...\(seq),"), "the log ends at the seq the message names: \(verify.stdout)")
        try Self.resume(log, after: line, of: lines)
        #expect(try Self.copied(log) == Self.copied(input))
    }

    @Test func anAppendCutShortByAFileSizeLimitSaysHowFarTheInputIsAndResumingCompletesIt() throws {
        let scratch = try ScratchDirectory()
        let (input, lines) = try Self.input(in: scratch)
        let log = scratch.path + "/log"
        let run = try NavlogRun(shell: "ulimit -f 2000; exec < '\(input)'", ["append", log, "--stdin"])   // about 1 MB
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("00000001.jsonl: write failed: File too large; the input's events through stdin line "),
                "\(run.stderr)")
        let (line, seq) = try Self.standing(run.stderr)
        let verify = try NavlogRun("verify", log, "--mode", "absolute")
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("seq 1...\(seq),"), "\(verify.stdout)")
        try Self.resume(log, after: line, of: lines)
        #expect(try Self.copied(log) == Self.copied(input))
    }

    /// A `session.start` whose line, at `seq` in session `s`, is `length` bytes long without its
    /// newline: its `meta` is long, and the state, which must fit a snapshot's line, does not grow.
    static func start(length: Int, seq: Int) -> String {
        func line(_ padding: Int) -> NavigationEvent {
            NavigationEvent(seq: seq, timestamp: Timestamp("2026-11-29T12:00:00.000Z")!, session: "s",
                            action: .sessionStart(app: nil, launch: .cold, meta: ["note": String(repeating: "x", count: padding)]))
        }
        let padding = length - (LineEncoder.encode(line(0)).count - 1)
        #expect(LineEncoder.encode(line(padding)).count - 1 == length)
        return #"{"ts":"2026-11-29T12:00:00.000Z","session":"s","type":"session.start","launch":"cold","#
            + #""meta":{"note":"\#(String(repeating: "x", count: padding))"}}"#
    }

    @Test func aLineAtTheReadersLimitIsAppendedAndOneOverItIsRefusedSayingByHowMuch() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/log"
        // The log's first segment opens with a snapshot (seq 1): the event gets seq 2.
        let fits = try NavlogRun("append", log, "--event", Self.start(length: LineDecoder.maximumLineLength, seq: 2))
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(try NavlogRun("verify", log, "--mode", "absolute").status == 0)
        let over = try NavlogRun("append", log, "--event", Self.start(length: LineDecoder.maximumLineLength + 3, seq: 3))
        #expect(over.status == 65)
        #expect(over.stderr.contains("longer than the 64 KiB limit by 3 bytes, counted with seq 4, the largest it may get"), "\(over.stderr)")
    }
}
