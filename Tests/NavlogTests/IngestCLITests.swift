import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// `navlog ingest` on the built binary: uploaded segments filed into per-device logs, exactly once.
@Suite final class IngestCLITests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }
    var fleet: String { dir + "/fleet" }

    init() throws { scratch = try ScratchDirectory() }

    /// A generated log directory of several segments, `log-SEED`.
    func generated(seed: Int, events: Int = 3000) throws -> String {
        let path = dir + "/log-\(seed)"
        let run = try NavlogRun("generate", "--events", String(events), "--seed", String(seed), "--segment-size", "60000", "-o", path)
        try #require(run.status == 0, "\(run.stderr)")
        return path
    }

    /// The names of the segments of `log`.
    func segments(_ log: String) throws -> [String] { try Opening.segmentNumbers(log).map(Opening.segmentName) }

    /// Copies the segments `names` of `log` to `inbox/device/`, as `navlog ship` lays them out.
    func upload(_ log: String, _ names: some Sequence<String>, to inbox: String, device: String) throws {
        let target = dir + "/" + inbox + "/" + device
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in names { try FileManager.default.copyItem(atPath: log + "/" + name, toPath: target + "/" + name) }
    }

    /// `navlog ingest` of the inboxes named (in the scratch directory) into the fleet, in JSON.
    func ingest(_ inboxes: String..., options: [String] = []) throws -> (run: NavlogRun, json: [String: Any]) {
        let run = try NavlogRun(["ingest"] + inboxes.map { dir + "/" + $0 } + ["--into", fleet, "--format", "json"] + options, stdin: nil)
        let json = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        return (run, json)
    }

    func totals(_ json: [String: Any]) -> [String: Int] { json["totals"] as? [String: Int] ?? [:] }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func names(_ path: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    @Test func devicesFiledFromTwoInboxesReadAsTheirOwnLogs() throws {
        let logs = try [1, 2, 3].map { try generated(seed: $0) }
        for (k, log) in logs.enumerated() {
            let all = try segments(log)
            try upload(log, all.prefix(all.count / 2), to: "in-a", device: "phone-\(k)")
            try upload(log, all.dropFirst(all.count / 2 - 1), to: "in-b", device: "phone-\(k)")   // one segment in both
        }
        let (run, json) = try ingest("in-a", "in-b")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(totals(json)["duplicates"] == 3 && totals(json)["rejected"] == 0 && totals(json)["held"] == 0, "\(run.stdout)")
        #expect(json["changed_devices"] as? [String] == ["phone-0", "phone-1", "phone-2"])
        #expect(names(fleet) == [".ingest", ".staging", "phone-0", "phone-1", "phone-2"], "FLEET/* is exactly the devices")
        for (k, log) in logs.enumerated() {
            for name in try segments(log) { #expect(try bytes(fleet + "/phone-\(k)/" + name) == bytes(log + "/" + name)) }
        }
        let fromFleet = try NavlogRun(["paths"] + (0..<3).map { "\(fleet)/phone-\($0)" }, stdin: nil)
        let fromLogs = try NavlogRun(["paths"] + logs, stdin: nil)
        #expect(fromFleet.status == 0 && fromFleet.stdout == fromLogs.stdout, "\(fromFleet.stdout)\n\(fromFleet.stderr)")
        #expect(fromFleet.stdout.contains("3 logs"))
        for (k, log) in logs.enumerated() { #expect(try bytes(dir + "/in-a/phone-\(k)/" + segments(log)[0]) == bytes(log + "/00000001.jsonl"), "inboxes are only read") }
    }

    @Test func theSameSegmentsAgainAreDuplicatesAndNothingIsWritten() throws {
        let log = try generated(seed: 4)
        try upload(log, try segments(log), to: "in", device: "tablet")
        #expect(try ingest("in").run.status == 0)
        let before = try names(fleet + "/tablet").map { try bytes(fleet + "/tablet/" + $0) }
        let (again, json) = try ingest("in")
        #expect(again.status == 0)
        let count = try segments(log).count
        #expect(totals(json)["filed"] == 0 && totals(json)["duplicates"] == count, "\(again.stdout)")
        #expect(json["changed_devices"] as? [String] == [])
        #expect(try names(fleet + "/tablet").map { try bytes(fleet + "/tablet/" + $0) } == before)
        let text = try NavlogRun("ingest", dir + "/in", "--into", fleet)
        #expect(text.stdout.contains("\(fleet)/tablet: \(count) duplicates"), "\(text.stdout)")
    }

    @Test func otherBytesUnderAFiledNameAreAConflictNamingBothFiles() throws {
        let log = try generated(seed: 5), other = try generated(seed: 6)
        try upload(log, try segments(log).prefix(2), to: "in-a", device: "tv")
        try upload(other, ["00000002.jsonl"], to: "in-b", device: "tv")
        let (run, json) = try ingest("in-a", "in-b")
        #expect(run.status == 65)
        #expect(totals(json)["conflicts"] == 1 && totals(json)["filed"] == 2, "\(run.stdout)")
        #expect(run.stderr.contains("\(dir)/in-b/tv/00000002.jsonl: conflict: it holds other bytes than \(fleet)/tv/00000002.jsonl"),
                "\(run.stderr)")
        #expect(try bytes(fleet + "/tv/00000002.jsonl") == bytes(log + "/00000002.jsonl"), "the filed segment stays")
    }

    @Test func aSegmentAheadOfItsPredecessorIsHeldAndFiledWhenItComesInALaterRun() throws {
        let log = try generated(seed: 7)
        let all = try segments(log)
        try #require(all.count >= 4)
        try upload(log, [all[0]] + all[2...], to: "early", device: "watch")
        let (first, json) = try ingest("early")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(totals(json)["filed"] == 1 && totals(json)["held"] == all.count - 2, "\(first.stdout)")
        #expect(names(fleet + "/watch") == [all[0]])
        #expect(names(fleet + "/.held/watch") == Array(all[2...]))
        #expect(try NavlogRun("verify", fleet + "/watch").status == 0, "what is filed is a log")

        try upload(log, [all[1]], to: "late", device: "watch")
        let (second, json2) = try ingest("late")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(totals(json2)["filed"] == all.count - 1 && totals(json2)["held"] == 0, "held then filed counts once, as filed: \(second.stdout)")
        #expect(names(fleet + "/watch") == all)
        #expect(names(fleet + "/.held/watch").isEmpty)
        let verify = try NavlogRun("verify", fleet + "/watch")
        let original = try NavlogRun("verify", log)
        #expect(verify.status == 0 && verify.stdout == original.stdout.replacingOccurrences(of: log, with: fleet + "/watch"), "\(verify.stdout)")
    }

    @Test func aHoleOlderThanGapAfterIsDeclaredAndReadersWarnOfIt() throws {
        let log = try generated(seed: 8)
        let all = try segments(log)
        try upload(log, all.enumerated().filter { $0.offset != 2 }.map(\.element), to: "in", device: "car")
        let missing = try SegmentBounds.read(log + "/" + all[2], size: FileSystem.status(log + "/" + all[2])!.size).seqs
        let (fresh, json) = try ingest("in", options: ["--gap-after", "1h"])
        #expect(fresh.status == 0 && totals(json)["gaps"] == 0 && totals(json)["held"] == all.count - 3, "not old enough: \(fresh.stdout)")
        // The held copies were first seen two hours ago.
        for name in names(fleet + "/.held/car") {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: fleet + "/.held/car/" + name)
        }
        // Nothing new came from the device: its hole is declared all the same.
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        let (old, json2) = try ingest("empty", options: ["--gap-after", "1h"])
        #expect(old.status == 0, "\(old.stderr)")
        #expect(totals(json2)["gaps"] == 1 && totals(json2)["filed"] == all.count - 3, "\(old.stdout)")
        #expect(json2["changed_devices"] as? [String] == ["car"])
        #expect(String(decoding: try bytes(fleet + "/car/GAPS"), as: UTF8.self) == "gap \(missing.lowerBound)-\(missing.upperBound)\n")
        #expect(old.stderr.contains("seqs \(missing.lowerBound)–\(missing.upperBound) never came"), "\(old.stderr)")

        let paths = try NavlogRun("paths", fleet + "/car")
        #expect(paths.status == 0, "\(paths.stderr)")
        #expect(paths.stderr.contains("warning: \(fleet)/car/\(all[3]):1: declaredGap: seqs \(missing.lowerBound)–\(missing.upperBound) are missing from \(fleet)/car"),
                "\(paths.stderr)")
        let verify = try NavlogRun("verify", fleet + "/car")
        #expect(verify.status == 0 && verify.stdout.contains("declaredGap"), "\(verify.stdout)")
        // A writer does not go on after a gap: the store's chain rule refuses the log.
        let append = try NavlogRun(["append", fleet + "/car", "--event", #"{"type":"scene.open","scene":"x"}"#], stdin: nil)
        #expect(append.status == 65 && append.stderr.contains("events are missing between them"), "\(append.stderr)")
    }

    @Test func aSecondIngestOfTheSameFleetIsRefused() throws {
        let log = try generated(seed: 9)
        try upload(log, try segments(log), to: "in", device: "phone")
        try FileManager.default.createDirectory(atPath: fleet, withIntermediateDirectories: true)
        let lock = try DirectoryLock(directory: fleet, fileName: FleetLayout.lockName)
        let (run, _) = try ingest("in")
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stderr.contains("a fleet is filed by one ingest at a time"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fleet + "/phone"))
        withExtendedLifetime(lock) {}
    }

    @Test func usageErrorsExit64() throws {
        #expect(try NavlogRun("ingest", dir).status == 64)
        #expect(try NavlogRun("ingest", "--into", fleet).status == 64)
        #expect(try NavlogRun("ingest", dir, "--into", fleet, "--gap-after", "10").status == 64)
        #expect(try NavlogRun("ingest", dir + "/none", "--into", fleet).status == 66)
    }
}
