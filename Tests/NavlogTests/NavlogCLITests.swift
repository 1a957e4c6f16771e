import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// An executable of this package, from the products directory the tests were built into.
func builtProduct(_ name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/" + name)
}

/// Runs the built `navlog` binary and captures what it prints and its exit status.
struct NavlogRun {
    var status: Int32
    var stdout: String
    var stderr: String

    static let binary = builtProduct("navlog")

    init(_ arguments: String...) throws {
        try self.init(arguments, stdin: nil)
    }

    init(_ arguments: [String], stdin: String?) throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        ignoreBrokenPipes
        try process.run()
        // Standard input is written and standard error read on threads of their own, so that a
        // child that fills one pipe while the test waits on another, or exits before reading all
        // its input, cannot stall the test.
        let group = DispatchGroup()
        if let stdin {
            let writer = input.fileHandleForWriting
            DispatchQueue.global().async(group: group) {
                writeAll(Array(stdin.utf8), to: writer.fileDescriptor)
                try? writer.close()
            }
        }
        nonisolated(unsafe) var errData = Data()
        let errReader = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { errData = readAll(errReader.fileDescriptor) }
        let outData = readAll(out.fileHandleForReading.fileDescriptor)
        group.wait()
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = String(decoding: outData, as: UTF8.self)
        stderr = String(decoding: errData, as: UTF8.self)
    }
}

/// A write to a pipe whose reader has exited fails with EPIPE instead of ending the test process.
let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Everything read from `fd` until its end. Retries reads a signal interrupted, which
/// `FileHandle.readDataToEndOfFile` turns into a crash.
func readAll(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 { data.append(contentsOf: buffer[..<n]); continue }
        if n < 0 && errno == EINTR { continue }
        return data
    }
}

/// Writes `bytes` to `fd`, retrying interrupted and short writes, until done or the reader is gone.
func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
    }
}

/// A class, so that each test's directory is removed when the test ends.
@Suite(.serialized) final class NavlogCLITests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    func generate(_ name: String, events: Int = 3000, extra: [String] = []) throws -> String {
        let path = dir + "/" + name
        let process = Process()
        process.executableURL = NavlogRun.binary
        process.arguments = ["generate", "--events", String(events), "--seed", "9", "-o", path] + extra
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return path
    }

    /// A scene's phase shows in the state's text unless it is active, and a replay says how long
    /// a scene stayed in the background where it comes back.
    @Test func stateAndReplayShowPhasesAndTimeInTheBackground() throws {
        let input = try String(contentsOf: Self.examples.appendingPathComponent("lifecycle-endings.jsonl"), encoding: .utf8)
        let state = try NavlogRun(["state", "-", "--at", "9", "--no-index"], stdin: input)
        #expect(state.status == 0, "\(state.stderr)")
        #expect(state.stdout.contains("scene main (active) [background]\n"))
        let active = try NavlogRun(["state", "-", "--at", "7", "--no-index"], stdin: input)
        #expect(active.stdout.contains("scene main (active)\n"))
        let replay = try NavlogRun(["replay", "-", "--session", "c", "--no-index"], stdin: input)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("main: phase background → active\n      main: 6 min in the background\n"))
    }

    @Test func verifyOfACleanLogExitsZeroAndSummarizes() throws {
        let log = try generate("log", extra: ["--segment-size", "100000"])
        let run = try NavlogRun("verify", log)
        #expect(run.status == 0)
        #expect(run.stdout.contains("ok: 3,000 events, seq 1...3000"))
        let json = try NavlogRun("verify", log, "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? Int == 2)
        #expect(object["events"] as? Int == 3000)
        #expect(object["last_seq"] as? Int == 3000)
        #expect((object["segments"] as? Int ?? 0) > 3)
        #expect((object["defects"] as? [Any])?.isEmpty == true)
        #expect(object["torn_tail"] is NSNull)
    }

    /// Logs over 16 MiB are verified in chunks at once on several cores: what is printed is what a
    /// reading in order on one core prints, snapshots, anomalies and defects included.
    @Test func verifyOnTwoCoresPrintsWhatOneCorePrints() throws {
        let file = try generate("big.jsonl", events: 110_000)
        let segmented = try generate("big-log", events: 110_000, extra: ["--segment-size", "3000000"])
        var damaged = try Data(contentsOf: URL(fileURLWithPath: file))
        let lineStarts = [0] + damaged.indices.filter { damaged[$0] == 0x0A }.map { $0 + 1 }
        damaged[lineStarts[90_000] + 30] ^= 0x01
        let damagedPath = dir + "/damaged.jsonl"
        try damaged.write(to: URL(fileURLWithPath: damagedPath))
        #expect(damaged.count > 16 << 20)
        for (log, mode) in [(file, "tolerateTornTail"), (segmented, "tolerateTornTail"), (damagedPath, "tolerateTornTail"),
                            (damagedPath, "salvage")] {
            for format in ["text", "json"] {
                let one = try NavlogRun("verify", log, "--mode", mode, "--format", format, "--threads", "1")
                let two = try NavlogRun("verify", log, "--mode", mode, "--format", format, "--threads", "2")
                #expect(one.status == (log == damagedPath ? 1 : 0), "\(log) \(mode) \(format): \(one.stderr)")
                #expect(two.status == one.status && two.stdout == one.stdout, "\(log) \(mode) \(format)")
            }
        }
    }

    @Test func verifyReportsEachDefectAsPathLineKindAndExitsOne() throws {
        let log = try generate("log.jsonl")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        bytes[lineStarts[99] + 30] ^= 0x01   // damage line 100
        try bytes.write(to: URL(fileURLWithPath: log))
        let run = try NavlogRun("verify", log)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\(log):100: crcMismatch: "))
        let salvage = try NavlogRun("verify", log, "--mode", "salvage", "--format", "json")
        #expect(salvage.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(salvage.stdout.utf8)) as? [String: Any])
        let defects = try #require(object["defects"] as? [[String: Any]])
        #expect(defects.count == 1)
        #expect(defects.first?["line"] as? Int == 100)
        #expect(defects.first?["offset"] as? Int == lineStarts[99])
        #expect(defects.first?["kind"] as? String == "crcMismatch")
        #expect(defects.first?["file"] as? String == log)
        #expect(object["events"] as? Int == 2999)
    }

    @Test func aTornTailIsAWarningByDefaultAndADefectInAbsoluteMode() throws {
        let log = try generate("torn.jsonl")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"v":1,"seq":3001,"ts":"2026-"#.utf8))
        try handle.close()
        let tolerant = try NavlogRun("verify", log, "--format", "json")
        #expect(tolerant.status == 0)
        #expect(tolerant.stdout.contains(#""torn_tail":{"file""#))
        let absolute = try NavlogRun("verify", log, "--mode", "absolute")
        #expect(absolute.status == 1)
        #expect(absolute.stdout.contains("\(log):3001: tornLine: no newline at end of file (29 bytes)"))
    }

    @Test func dumpPrintsNormalizedLinesFilteredBySeqTypeAndSession() throws {
        let log = try generate("d.jsonl")
        let range = try NavlogRun("dump", log, "--from", "10", "--to", "14")
        #expect(range.status == 0)
        let lines = range.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.first?.hasPrefix(#"{"v":1,"seq":10,"#) == true)
        let pushes = try NavlogRun("dump", log, "--type", "push")
        #expect(pushes.stdout.split(separator: "\n").allSatisfy { $0.contains(#""type":"push""#) })
        #expect(!pushes.stdout.isEmpty)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let id = try #require(first["session"] as? String)
        let session = try NavlogRun("dump", log, "--session", id)
        #expect(!session.stdout.isEmpty)
        #expect(session.stdout.split(separator: "\n").allSatisfy { $0.contains(#""session":"\#(id)""#) })

        // A line written by others comes out in the store's order with a crc.
        let other = dir + "/other.jsonl"
        try Data(#"{ "type": "session.end", "session": "s", "ts": "2026-11-29T12:00:00.123Z", "seq": 1.0, "v": 1 }"#.utf8 + [0x0A]).write(to: URL(fileURLWithPath: other))
        let normalized = try NavlogRun("dump", other)
        #expect(normalized.stdout.hasPrefix(#"{"v":1,"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end","crc":""#))
    }

    @Test func dumpOfACorruptLogExits65NamingFileAndLine() throws {
        let bad = dir + "/bad.jsonl"
        try Data("{\"v\":1,\"seq\":1,\"ts\":\"2026-11-29T12:00:00.123Z\",\"session\":\"s\",\"type\":\"session.end\"}\nnot json\n{}\n".utf8)
            .write(to: URL(fileURLWithPath: bad))
        let run = try NavlogRun("dump", bad)
        #expect(run.status == 65)
        #expect(run.stderr.contains("error: \(bad):2: invalidJSON:"))
    }

    @Test func usageErrorsExit64AndMissingPathsExit66() throws {
        #expect(try NavlogRun().status == 64)
        #expect(try NavlogRun("frobnicate").status == 64)
        #expect(try NavlogRun("verify").status == 64)
        #expect(try NavlogRun("verify", dir, "--mode", "sometimes").status == 64)
        #expect(try NavlogRun("generate", "--events", "0", "-o", dir + "/x.jsonl").status == 64)
        let missing = try NavlogRun("verify", dir + "/missing")
        #expect(missing.status == 66)
        #expect(missing.stderr == "navlog verify: error: \(dir)/missing: no such file or directory\n", "\(missing.stderr)")
    }

    @Test(arguments: ["verify", "dump", "state", "replay", "diff", "sessions", "restore", "screens", "transitions", "paths", "funnel",
                      "exits", "bounces", "tabs", "depth", "deeplinks", "export", "report", "repair", "append", "watch", "generate", "demo", "completion", "version", "help"])
    func everySubcommandHasHelp(subcommand: String) throws {
        let flag = try NavlogRun(subcommand, "--help")
        #expect(flag.status == 0)
        #expect(flag.stdout.contains("Usage: navlog \(subcommand)"))
        let help = try NavlogRun("help", subcommand)
        #expect(help.stdout == flag.stdout)
    }

    @Test func generateIsDeterministicPerSeed() throws {
        let a = try generate("a.jsonl", events: 2000)
        let b = try generate("b.jsonl", events: 2000)
        #expect(FileManager.default.contentsEqual(atPath: a, andPath: b))
    }

    @Test func demoRunsTheMainJobEndToEnd() throws {
        let run = try NavlogRun("demo", "--events", "20000", "--dir", dir + "/demo")
        #expect(run.status == 0)
        #expect(run.stdout.contains("Read and verified 20,000 events"))
        #expect(run.stdout.contains("no defects"))
        #expect(run.stdout.contains("scene.phase"), "the generated log has phases")
    }

    @Test func demoShowsAKillInTheBackgroundRestoredWithoutACrashCounted() throws {
        let run = try NavlogRun("demo", "--events", "1000", "--dir", dir + "/demo-small")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("the last session ended background"))
        #expect(run.stdout.contains("crash-loop guard not fired, the same navigation: true"))
        #expect(run.stdout.contains("home: category(soups) › recipe(pumpkin-soup) › recipe(carrot-cake)"))
        #expect(run.stdout.contains("visible: recipe(carrot-cake), phase active"))
    }

    @Test func repairCutsATornTailKeepsTheBytesAndLeavesALogThatVerifiesAbsolutely() throws {
        let log = try generate("torn", events: 500, extra: ["--segment-size", "20000"])
        let last = try #require(try FileManager.default.contentsOfDirectory(atPath: log).filter { $0.hasSuffix(".jsonl") }.max())
        let handle = try #require(FileHandle(forWritingAtPath: log + "/" + last))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"v":1,"seq":501,"ts":"2026-"#.utf8))
        try handle.close()
        #expect(try NavlogRun("verify", log, "--mode", "absolute").status == 1)
        let repair = try NavlogRun("repair", log)
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout.contains("cut \(log)/\(last) at byte"))
        #expect(repair.stdout.contains("removed 28 bytes"))
        #expect(FileManager.default.contents(atPath: log + "/" + last + ".torn") == Data(#"{"v":1,"seq":501,"ts":"2026-"#.utf8))
        #expect(try NavlogRun("verify", log, "--mode", "absolute").status == 0)
        let again = try NavlogRun("repair", log)
        #expect(again.status == 0 && again.stdout.contains("nothing to repair"))
    }

    @Test func repairRefusesDamageThatIsNotAtTheTail() throws {
        let path = try generate("mid.jsonl", events: 300)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[bytes.count / 2] = 0x00
        try bytes.write(to: URL(fileURLWithPath: path))
        let run = try NavlogRun("repair", path)
        #expect(run.status == 65)
        #expect(run.stderr.contains("the damage is not at the tail"))
        #expect(run.stderr.contains("verify --mode salvage"))
        #expect(FileManager.default.contents(atPath: path) == bytes, "nothing was changed")
    }

    @Test func appendWritesThroughTheStoreAndRefusesInvalidEventsWithoutWritingAny() throws {
        let log = dir + "/appended"
        let first = try NavlogRun(["append", log, "--session", "s1", "--event", #"{"type":"session.start","launch":"cold"}"#,
                                   "--event", #"{"type":"scene.open","scene":"main"}"#], stdin: nil)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("appended 2 events, the last one seq 3"))
        let bad = try NavlogRun(["append", log, "--stdin", "--session", "s1"],
                                stdin: #"{"type":"tab.select","scene":"main","tab":"home"}"# + "\n" + #"{"type":"push","scene":"main","stack":"home"}"# + "\n")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("stdin:2: missingMember: 'push' event has no 'route'; nothing was appended"))
        let good = try NavlogRun(["append", log, "--stdin"],
                                 stdin: #"{"type":"tab.select","scene":"main","tab":"home","session":"s1","ts":"2026-11-29T10:00:00.000Z"}"# + "\n\n")
        #expect(good.status == 0)
        let dump = try NavlogRun("dump", log, "--type", "tab.select")
        #expect(dump.stdout.hasPrefix(#"{"v":1,"seq":4,"ts":"2026-11-29T10:00:00.000Z","session":"s1","type":"tab.select","scene":"main","tab":"home","crc":""#))
        #expect(try NavlogRun("verify", log, "--mode", "absolute").status == 0)
        #expect(try NavlogRun("append", log + ".jsonl", "--event", "{}").status == 64)
        #expect(try NavlogRun("append", log, "--event", #"{"type":"later.kind","session":"s"}"#).status == 65)
        let partial = try NavlogRun("append", log, "--session", "s", "--event", #"{"type":"scene.open","scene":"x"}"#,
                                    "--event", #"{"type":"scene.open","scene":""}"#)
        #expect(partial.status == 65 && partial.stderr.contains("--event 2:"))
        #expect(try NavlogRun("verify", log).stdout.contains("ok: 4 events"), "nothing of the refused call was appended")
        #expect(try NavlogRun("append", log, "--event", #"{"v":2,"type":"scene.open","scene":"x","session":"s"}"#).status == 65)
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas/examples/valid")
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// The state at the end of each valid example log equals the checked-in JSON. Run with
    /// NAVLOG_UPDATE_GOLDEN=1 to write the files after a deliberate change, and review the diff.
    @Test(arguments: ["by-others", "deep-links", "sessions-and-scenes", "sheets", "snapshot-and-restore", "split-view", "tabs-and-stacks"])
    func theStateAtTheEndOfEachExampleLogMatchesItsGoldenFile(name: String) throws {
        let run = try NavlogRun("state", Self.examples.appendingPathComponent(name + ".jsonl").path, "--format", "json", "--no-index")
        #expect(run.status == 0, "\(run.stderr)")
        let file = Self.golden.appendingPathComponent(name + ".state.json")
        if ProcessInfo.processInfo.environment["NAVLOG_UPDATE_GOLDEN"] == "1" {
            try Data(run.stdout.utf8).write(to: file)
        }
        #expect(run.stdout == (try String(contentsOf: file, encoding: .utf8)))
        #expect(!FileManager.default.fileExists(atPath: Self.examples.appendingPathComponent(name + ".jsonl.navidx").path))
    }

    @Test func stateDrawsTheTreeMarksTheSelectedTabAndTheVisibleRouteAndBuildsTheIndexOnce() throws {
        let log = dir + "/timeline.jsonl"
        let lines = [
            #"{"v":1,"seq":1,"ts":"2026-11-29T10:00:00.000Z","session":"s","type":"scene.open","scene":"main"}"#,
            #"{"v":1,"seq":2,"ts":"2026-11-29T10:00:01.000Z","session":"s","type":"tab.select","scene":"main","tab":"home"}"#,
            #"{"v":1,"seq":3,"ts":"2026-11-29T10:00:02.000Z","session":"s","type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"7"}}"#,
            #"{"v":1,"seq":4,"ts":"2026-11-29T10:00:03.000Z","session":"s","type":"tab.select","scene":"main","tab":"search"}"#,
            #"{"v":1,"seq":5,"ts":"2026-11-29T10:00:04.000Z","session":"s","type":"pop","scene":"main","stack":"search","count":1}"#,
        ]
        #expect(FileManager.default.createFile(atPath: log, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        let at3 = try NavlogRun("state", log, "--at", "3")
        #expect(at3.status == 0)
        #expect(at3.stdout == """
            \(log): state after seq 3 at 2026-11-29T10:00:02.000Z, session s
            scene main (active)
              * home
                  recipe(7)  <- visible

            """)
        #expect(FileManager.default.fileExists(atPath: log + ".navidx"))
        let byTime = try NavlogRun("state", log, "--at-time", "2026-11-29T10:00:03.500Z", "--format", "json")
        #expect(byTime.stdout.hasPrefix(#"{"format":2,"dropped_lines":{"mode":"tolerateTornTail","count":0,"first":[]},"seq":4,"ts":"2026-11-29T10:00:03.000Z","session":"s","active":"main","#))
        let strict = try NavlogRun("state", log, "--strict")
        #expect(strict.status == 65 && strict.stderr.contains("popBeyondRoot"))
        #expect(try NavlogRun("state", log, "--at", "4", "--strict").status == 0)
        #expect(try NavlogRun("state", log, "--at", "9").status == 66)
        let diff = try NavlogRun("diff", log, "2", "4")
        #expect(diff.stdout.contains("main: tab home → search") && diff.stdout.contains("main/home: +[recipe(7)]"))
        let json = try NavlogRun("diff", log, "2", "4", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["changes"] as? [[String: Any]])?.map { $0["change"] as? String } == ["tab", "stack"])
    }

    @Test func replayPrintsEachEventTheScreenAfterItAndWhatChanged() throws {
        let log = try generate("replay", events: 2000, extra: ["--segment-size", "50000"])
        let sessions = try NavlogRun("sessions", log, "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sessions.stdout.utf8)) as? [String: Any])
        let list = try #require(object["sessions"] as? [[String: Any]])
        #expect(object["format"] as? Int == 2)
        #expect(list.count > 10)
        let session = try #require(list.first { ($0["events"] as? Int ?? 0) > 5 })
        let id = try #require(session["id"] as? String)
        let first = try #require(session["first_seq"] as? Int), last = try #require(session["last_seq"] as? Int)
        let text = try NavlogRun("replay", log, "--session", id)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("session.start"))
        let steps = try NavlogRun("replay", log, "--session", id, "--format", "json")
        let replay = try #require(try JSONSerialization.jsonObject(with: Data(steps.stdout.utf8)) as? [String: Any])
        let seqs = (replay["steps"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int } ?? []
        #expect(seqs.first == first && seqs.last == last)
        #expect(seqs.count == session["events"] as? Int, "one step per event of the session")
        let table = try NavlogRun("sessions", log)
        #expect(table.stdout.contains(id) && table.stdout.contains("clean"))
        #expect(try NavlogRun("replay", log, "--session", "nope").status == 66)
        #expect(try NavlogRun("replay", log).status == 64)
    }

    @Test func aReplayOfASessionIdUsedAgainReplaysEveryRunOfItMarked() throws {
        let log = dir + "/reused.jsonl"
        let lines = [("a", "session.start\",\"launch\":\"cold"), ("a", "scene.open\",\"scene\":\"main"),
                     ("b", "session.start\",\"launch\":\"cold"), ("b", "scene.open\",\"scene\":\"main"),
                     ("a", "session.start\",\"launch\":\"cold"), ("a", "scene.open\",\"scene\":\"w2"), ("a", "session.end")]
            .enumerated().map { k, line in
                #"{"v":1,"seq":\#(k + 1),"ts":"2026-11-29T10:00:0\#(k).000Z","session":"\#(line.0)","type":"\#(line.1)"}"#
            }
        #expect(FileManager.default.createFile(atPath: log, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        let text = try NavlogRun("replay", log, "--session", "a", "--no-index")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("seq 1...7, 2 runs of the id"), "\(text.stdout)")
        #expect(text.stdout.contains("run 1 of 2: seq 1...2") && text.stdout.contains("run 2 of 2: seq 5...7"), "\(text.stdout)")
        #expect(text.stdout.contains("scene.open w2") && text.stdout.hasSuffix("5 events\n"), "\(text.stdout)")
        let json = try NavlogRun("replay", log, "--session", "a", "--no-index", "--format", "json")
        let replay = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let runs = try #require(replay["runs"] as? [[String: Int]])
        #expect(runs == [["run": 1, "from": 1, "to": 2], ["run": 2, "from": 5, "to": 7]])
        let steps = try #require(replay["steps"] as? [[String: Any]])
        #expect(steps.map { $0["seq"] as? Int } == [1, 2, 5, 6, 7])
        #expect(steps.map { $0["run"] as? Int } == [1, 1, 2, 2, 2])
        let narrowed = try NavlogRun("replay", log, "--session", "a", "--no-index", "--from", "2", "--to", "5", "--format", "json")
        let narrow = try #require(try JSONSerialization.jsonObject(with: Data(narrowed.stdout.utf8)) as? [String: Any])
        #expect((narrow["steps"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [2, 5])
    }

    @Test func viewsThatEndedBeforeTheyBeganAreCountedWithADwellOfZeroAndReported() throws {
        let log = dir + "/clock.jsonl"
        let times = ["10:00:00.000", "10:00:00.000", "10:00:10.000", "10:00:04.000", "10:00:09.000"]
        let types = [#""type":"session.start","launch":"cold""#, #""type":"scene.open","scene":"main""#,
                     #""type":"push","scene":"main","stack":"main","route":{"screen":"recipe"}"#,
                     #""type":"push","scene":"main","stack":"main","route":{"screen":"reviews"}"#, #""type":"session.end""#]
        let lines = zip(times, types).enumerated().map { k, pair in
            #"{"v":1,"seq":\#(k + 1),"ts":"2026-11-29T\#(pair.0)Z","session":"s",\#(pair.1)}"#
        }
        #expect(FileManager.default.createFile(atPath: log, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        let screens = try NavlogRun("screens", log, "--format", "json")
        #expect(screens.status == 0)
        #expect(screens.stderr.contains("warning: \(log): 1 screen view ended before it began (the clock went back"), "\(screens.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(screens.stdout.utf8)) as? [String: Any])
        #expect(object["clock_went_back"] as? Int == 1)
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.first { $0["screen"] as? String == "recipe" }?["views"] as? Int == 1, "counted")
        #expect(rows.first { $0["screen"] as? String == "recipe" }?["dwell_total_ms"] as? Int == 0)
        let export = try NavlogRun("export", log, "--table", "screen_views")
        #expect(export.stdout.contains(#""screen":"recipe""#) && export.stdout.contains(#""dwell_ms":0,"#), "\(export.stdout)")
        #expect(export.stderr.contains("1 screen view ended before it began"))
        let clean = try NavlogRun("transitions", try generate("clean-clock.jsonl", events: 500), "--format", "json")
        #expect(clean.stdout.contains(#""clock_went_back":0"#) && clean.stderr.isEmpty, "\(clean.stderr)")
    }

    @Test func analyticsCommandsPrintTablesJSONAndCSVAndExportTheTables() throws {
        let log = try generate("analytics.jsonl", events: 3000)
        let screens = try NavlogRun("screens", log)
        #expect(screens.status == 0)
        #expect(screens.stdout.hasPrefix("\(log): screens, 3,000 events (seq 1...3000), no filters\nscreen "))
        let json = try NavlogRun("screens", log, "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? Int == 2 && object["query"] as? String == "screens")
        let csv = try NavlogRun("transitions", log, "--format", "csv")
        #expect(csv.stdout.hasPrefix("from,to,count\n"))
        let paths = try NavlogRun("paths", log, "--length", "2", "--top", "3", "--format", "json")
        let rows = try #require((try JSONSerialization.jsonObject(with: Data(paths.stdout.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(rows.count == 3 && (rows[0]["path"] as? [String])?.count == 2)
        let funnel = try NavlogRun("funnel", log, "--steps", "home,recipe", "--window", "30m", "--entry", "any")
        #expect(funnel.status == 0 && funnel.stdout.contains("recipe"))
        #expect(try NavlogRun("funnel", log).status == 64)
        #expect(try NavlogRun("funnel", log, "--steps", "a", "--window", "soon").status == 64)
        let export = dir + "/views.csv"
        #expect(try NavlogRun("export", log, "--table", "screen_views", "--format", "csv", "-o", export).status == 0)
        let lines = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "session,scene,tab,stack,screen,id,depth,entered_by,start_seq,start_ts,end_ts,dwell_ms,background_ms,crashed,in_sheet")
        let views = (object["rows"] as? [[String: Any]])?.reduce(0) { $0 + ($1["views"] as? Int ?? 0) }
        #expect(lines.count - 1 == views, "one row per screen view")
        #expect(try NavlogRun("export", log, "--table", "nope").status == 64)
    }

    @Test func reportWritesOneSelfContainedPageWithTheDataAndTheChosenSessions() throws {
        let log = try generate("report.jsonl", events: 3000)
        let page = dir + "/report.html"
        let run = try NavlogRun("report", log, "-o", page, "--funnel", "home,recipe", "--recent", "2")
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"), "nothing external")
        let start = try #require(html.range(of: #"<script id="report-data" type="application/json">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = String(html[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "<\\/", with: "</")
        let data = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(data["events"] as? Int == 3000)
        #expect((data["replays"] as? [Any])?.count == 2)
        #expect((data["funnels"] as? [[Any]])?.first?.count == 2)
        #expect(try NavlogRun("report", log).status == 64, "-o is required")
    }

    @Test func reportHonoursTheRecoveryModeAndAMistakenExportLeavesTheOutputFileAlone() throws {
        let log = try generate("torn-report.jsonl", events: 500)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"v":1,"seq":501,"ts":"2026-"#.utf8))
        try handle.close()
        let page = dir + "/torn-report.html"
        #expect(try NavlogRun("report", log, "-o", page).status == 0)
        try FileManager.default.removeItem(atPath: page)
        let absolute = try NavlogRun("report", log, "-o", page, "--mode", "absolute")
        #expect(absolute.status == 65, "\(absolute.stderr)")
        #expect(absolute.stderr.contains("tornLine"), "\(absolute.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page))

        let kept = dir + "/kept.csv"
        for options in [["--table", "deeplinks", "--idle", "30m"], ["--table", "screen_views", "--since", "yesterday"]] {
            #expect(FileManager.default.createFile(atPath: kept, contents: Data("keep me\n".utf8)))
            let run = try NavlogRun(["export", log, "-o", kept] + options, stdin: nil)
            #expect(run.status == 64, "\(options): \(run.stderr)")
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == "keep me\n", "\(options)")
        }
        #expect(try NavlogRun("export", log, "--table", "screen_views", "-o", kept).status == 0)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).hasPrefix("{\"session\""))
    }

    @Test func hostileInputsGetUsageErrorsAndCannotBreakTheReport() throws {
        let log = dir + "/hostile.jsonl"
        let lines = [
            #"{"v":1,"seq":1,"ts":"2026-11-29T10:00:00.000Z","session":"s","type":"scene.open","scene":"main"}"#,
            #"{"v":1,"seq":2,"ts":"2026-11-29T10:00:01.000Z","session":"s","type":"push","scene":"main","stack":"main","route":{"screen":"<!--<script>","id":"</script><b>&"}}"#,
            #"{"v":1,"seq":3,"ts":"2026-11-29T10:00:02.000Z","session":"s","type":"push","scene":"main","stack":"main","route":{"screen":"next"}}"#,
        ]
        #expect(FileManager.default.createFile(atPath: log, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        for arguments in [["funnel", log, "--steps", "a,b", "--window", "99999999999999d"], ["funnel", log, "--steps", "a", "--window", "9223372036854775807"],
                          ["bounces", log, "--within", "9223372036854775807ms"], ["screens", log, "--idle", "0"],
                          ["deeplinks", log, "--idle", "30m"], ["transitions", log, "--top", "3"]] {
            #expect(try NavlogRun(arguments, stdin: nil).status == 64, "\(arguments)")
        }
        let page = dir + "/hostile.html"
        #expect(try NavlogRun("report", log, "-o", page).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let start = try #require(html.range(of: #"<script id="report-data" type="application/json">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = String(html[start.upperBound..<end.lowerBound])
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"), "markup in names is escaped in the data")
        #expect(json.contains(#"\u003c!--\u003cscript\u003e"#))
    }
}
