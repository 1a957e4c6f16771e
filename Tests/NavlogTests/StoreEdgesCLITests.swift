import Foundation
import Testing
@testable import navlog
@testable import NavigationHistory
import TestSupport

/// The store's edges as `navlog` users meet them: what is acknowledged is what every reader shows.
@Suite final class StoreEdgesCLITests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    func generate(_ name: String, events: Int, seed: Int, segmentSize: Int = 100_000) throws -> String {
        let path = dir + "/" + name
        let run = try NavlogRun("generate", "--events", String(events), "--seed", String(seed), "--segment-size", String(segmentSize), "-o", path)
        #expect(run.status == 0, "\(run.stderr)")
        return path
    }

    @Test func aSegmentCopiedAfterTheLastIsRefusedByAppendRepairAndRestoreAndNamedByVerify() throws {
        let log = try generate("copied", events: 12_000, seed: 3)
        let segments = try Opening.segmentNumbers(log)
        #expect(segments.count >= 6)
        let copy = Opening.segmentName(segments.last! + 1)
        try FileManager.default.copyItem(atPath: log + "/" + Opening.segmentName(5), toPath: log + "/" + copy)
        let last = Opening.segmentName(segments.last!)
        for arguments in [["append", log, "--session", "s", "--event", #"{"type":"session.end"}"#], ["repair", log], ["restore", log]] {
            let run = try NavlogRun(arguments, stdin: nil)
            #expect(run.status == 65, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains(copy) && run.stderr.contains(last), "\(arguments[0]): \(run.stderr)")
        }
        let verify = try NavlogRun("verify", log)
        #expect(verify.status == 1)
        #expect(verify.stdout.contains(copy + ":1: seqNotIncreasing") && verify.stdout.contains(last), "\(verify.stdout)")
    }

    @Test func aDumpAppendedToAnotherLogLeavesOutItsSnapshotsAndVerifiesClean() throws {
        let source = try generate("a", events: 3000, seed: 4, segmentSize: 40_000)
        let target = try generate("b", events: 2000, seed: 5, segmentSize: 40_000)
        let dump = try NavlogRun("dump", source)
        #expect(dump.status == 0)
        let snapshots = dump.stdout.split(separator: "\n").filter { $0.contains(#""type":"snapshot""#) }.count
        #expect(snapshots > 1)
        let append = try NavlogRun(["append", target, "--stdin"], stdin: dump.stdout)
        #expect(append.status == 0, "\(append.stderr)")
        #expect(append.stdout.contains("appended \(TextFormat.count(3000 - snapshots)) events"), "\(append.stdout)")
        #expect(append.stdout.contains("skipped \(snapshots) snapshot events"), "\(append.stdout)")
        let verify = try NavlogRun("verify", target, "--format", "json")
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(!verify.stdout.contains("snapshotMismatch"))
    }

    @Test(.timeLimit(.minutes(1)))
    func knownIDsAreReadFromAFileOrAPipeAndADeviceIsRefused() throws {
        let log = try generate("ids", events: 3000, seed: 6)
        let all = try NavlogRun("restore", log, "--max-age", "2147483647", "--crash-loop", "1000", "--format", "json")
        #expect(all.status == 0 && all.stdout.contains(#""dropped":[]"#), "\(all.stdout)")
        let none = try NavlogRun(["restore", log, "--max-age", "2147483647", "--crash-loop", "1000", "--format", "json",
                                  "--known-ids", "-"], stdin: "no-such-id\n")
        #expect(none.status == 0 && !none.stdout.contains(#""dropped":[]"#), "every id unknown drops routes: \(none.stdout)")
        let device = try NavlogRun("restore", log, "--known-ids", "/dev/zero")
        #expect(device.status == 66 && device.stderr.contains("/dev/zero"), "\(device.stderr)")
    }

    @Test func anAppendWithAnEventWhoseStateWouldNotFitAppendsNothing() throws {
        let log = dir + "/whole"
        let id = String(repeating: "x", count: 30_000)
        let events = [#"{"type":"scene.open","scene":"main"}"#] + (0..<3).map {
            #"{"type":"push","scene":"main","stack":"main","route":{"screen":"r","id":"\#($0)\#(id)"}}"#
        }
        let run = try NavlogRun(["append", log, "--session", "s"] + events.flatMap { ["--event", $0] }, stdin: nil)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("--event 4:") && run.stderr.contains("snapshot") && run.stderr.contains("nothing was appended"), "\(run.stderr)")
        let piped = try NavlogRun(["append", log, "--session", "s", "--stdin"], stdin: events.joined(separator: "\n"))
        #expect(piped.status == 65 && piped.stderr.contains("stdin:4:"), "\(piped.stderr)")
        let verify = try NavlogRun("verify", log, "--format", "json")
        #expect(verify.stdout.contains(#""events":0"#), "nothing was appended: \(verify.stdout)")
    }

    @Test func aRestoreHoldsTheStateNotTheEventsSinceTheNearestSnapshot() throws {
        // One long session without a snapshot: the restore folds from its start to its end.
        func session(_ name: String, pushes: Int) throws -> String {
            let path = dir + "/" + name + ".jsonl"
            var bytes = LineEncoder.encode(NavigationEvent(seq: 1, timestamp: Timestamp(millisecondsSince1970: 0), session: "s",
                                                           action: .sessionStart(app: nil, launch: .cold, meta: nil)))
            bytes += LineEncoder.encode(NavigationEvent(seq: 2, timestamp: Timestamp(millisecondsSince1970: 0), session: "s",
                                                        action: .sceneOpen(scene: "main", kind: nil)))
            let note = String(repeating: "n", count: 100)
            for k in 0..<pushes {
                let time = Timestamp(millisecondsSince1970: Int64(k))
                bytes += LineEncoder.encode(NavigationEvent(seq: 3 + 2 * k, timestamp: time, session: "s", action: .push(
                    scene: "main", stack: "main", route: Route(screen: "recipe", id: "r\(k)", params: ["note": note]))))
                bytes += LineEncoder.encode(NavigationEvent(seq: 4 + 2 * k, timestamp: time, session: "s", action: .pop(scene: "main", stack: "main", count: 1)))
            }
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            return path
        }
        let few = try residentPeak(["restore", try session("few", pushes: 10), "--max-age", "2147483647"], input: "/dev/null")
        let many = try residentPeak(["restore", try session("many", pushes: 150_000), "--max-age", "2147483647"], input: "/dev/null")
        #expect(few.status == 0 && many.status == 0)
        #expect(many.peakBytes - few.peakBytes < 20 << 20, "\(many.peakBytes >> 20) MiB against \(few.peakBytes >> 20) MiB")
    }

    @Test func readingAnEmptyLogDirectoryWritesNothingAndLeavesItAnEmptyLog() throws {
        let empty = dir + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        for arguments in [["state", empty], ["sessions", empty], ["replay", empty, "--session", "s"], ["diff", empty, "1", "2"],
                          ["state", empty, "--format", "json"]] {
            _ = try NavlogRun(arguments, stdin: nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty, "\(arguments[0]) wrote into the empty log")
        }
        let state = try NavlogRun("state", empty)
        #expect(state.status == 0)
        #expect(state.stdout.hasPrefix("\(empty): state before the first event (the log has no events yet)\n"), "\(state.stdout)")
        for arguments in [["verify", empty], ["dump", empty], ["state", empty], ["restore", empty]] {
            let run = try NavlogRun(arguments, stdin: nil)
            #expect(run.status == 0, "\(arguments[0]): \(run.stderr)")
        }
    }

    @Test func aDirectoryHoldingOnlyAnIndexIsAnEmptyLogNotSomethingElse() throws {
        let log = try generate("indexed", events: 500, seed: 6)
        #expect(try NavlogRun("state", log).status == 0)   // builds the index
        let only = dir + "/only-index"
        try FileManager.default.createDirectory(atPath: only, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: log + "/index.navidx", toPath: only + "/index.navidx")
        for arguments in [["verify", only], ["dump", only], ["state", only], ["restore", only], ["sessions", only], ["screens", only]] {
            let run = try NavlogRun(arguments, stdin: nil)
            #expect(run.status == 0, "\(arguments[0]): \(run.stderr)")
        }
        #expect(try NavlogRun("state", only).stdout.contains("no open scene"), "the stale index of another log is not read as this one's")
        // Any other file still makes a directory something other than a log.
        FileManager.default.createFile(atPath: only + "/notes.txt", contents: Data("x".utf8))
        #expect(try NavlogRun("verify", only).status == 66)
    }
}
