import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// kill -9 at every step of an ingest that changes the fleet: `NavlogStoreChild ingest` runs the
/// ingest and kills itself right after its Kth step, for every K; then `navlog ingest` runs again
/// over the same inbox, and the fleet must be byte for byte the fleet of a run never killed.
@Suite(.serialized) final class IngestProcessTests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    func generated(seed: Int) throws -> String {
        let path = dir + "/log-\(seed)"
        let run = try NavlogRun("generate", "--events", "2500", "--seed", String(seed), "--segment-size", "40000", "-o", path)
        try #require(run.status == 0, "\(run.stderr)")
        return path
    }

    func upload(_ log: String, _ numbers: [Int], to inbox: String, device: String) throws {
        let target = dir + "/" + inbox + "/" + device
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in numbers.map(Opening.segmentName) { try FileManager.default.copyItem(atPath: log + "/" + name, toPath: target + "/" + name) }
    }

    /// Every file under `root` but the lock (which holds the pid of the run that took it), by
    /// path, with its bytes; a directory as an empty entry.
    static func tree(_ root: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let walker = FileManager.default.enumerator(atPath: root)!
        while let relative = walker.nextObject() as? String {
            guard relative != FleetLayout.lockName else { continue }
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
            files[relative] = isDirectory.boolValue ? [] : Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
        }
        return files
    }

    /// `cp -a`: the held copies' modification times are when they were first seen, which a gap needs.
    func copy(_ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        let cp = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: ["-a", from, to])
        cp.waitUntilExit()
        try #require(cp.terminationStatus == 0)
    }

    @Test func aKillAtAnyStepThenARunAgainGivesTheFleetOfARunNeverKilled() throws {
        let a = try generated(seed: 21), b = try generated(seed: 22)
        try #require(try Opening.segmentNumbers(a).count >= 5 && Opening.segmentNumbers(b).count >= 5)
        // The fleet before: a's 3 and b's 4 held, waiting for 2 and 3.
        try upload(a, [1, 3], to: "first", device: "a")
        try upload(b, [1, 2, 4], to: "first", device: "b")
        let base = dir + "/base"
        #expect(try NavlogRun("ingest", dir + "/first", "--into", base).status == 0)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: base + "/.held/b/00000004.jsonl")
        // The run killed: a's 2 closes its chain; b's hole is declared a gap; a duplicate, a
        // file rejected on sight, one rejected once checked.
        try upload(a, [1, 2, 4, 5], to: "second", device: "a")
        try upload(b, [5], to: "second", device: "b")
        var damaged = Array(try Data(contentsOf: URL(fileURLWithPath: a + "/00000001.jsonl")))
        damaged.removeLast(5)
        try FileManager.default.createDirectory(atPath: dir + "/second/c", withIntermediateDirectories: true)
        try Data(damaged).write(to: URL(fileURLWithPath: dir + "/second/c/00000001.jsonl"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/second/a/notes.txt"))

        let reference = dir + "/reference"
        try copy(base, reference)
        let clean = try NavlogRun("ingest", dir + "/second", "--into", reference, "--gap-after", "1h", "--format", "json")
        #expect(clean.status == 65, "\(clean.stderr)")
        #expect(clean.stdout.contains(#""totals":{"filed":6,"duplicates":1,"held":0,"gaps":1,"rejected":2,"conflicts":0}"#), "\(clean.stdout)")
        let expected = try Self.tree(reference)
        #expect(expected["b/GAPS"] != nil && expected[".held/a"] == [] && expected[".rejected/c/00000001.jsonl"] == damaged)

        var killedAt: [String] = []
        for k in 1...200 {
            let work = dir + "/work"
            try copy(base, work)
            let child = try StoreChild(["ingest", dir + "/second", "--into", work, "--gap-after-ms", "3600000", "--kill-at-step", String(k)])
            let lines = child.output()
            if lines.last == "done" { break }
            #expect(child.process.terminationReason == .uncaughtSignal && child.process.terminationStatus == SIGKILL, "step \(k): \(lines)")
            killedAt.append(lines.last ?? "?")
            let again = try NavlogRun("ingest", dir + "/second", "--into", work, "--gap-after", "1h")
            #expect(again.status == 65, "after a kill at step \(k), \(lines.last ?? "?"): \(again.stderr)")
            let found = try Self.tree(work)
            let differing = Set(found.keys).union(expected.keys).filter { found[$0] != expected[$0] }.sorted()
            #expect(differing.isEmpty, "after a kill at step \(k), \(lines.last ?? "?"): \(differing) differ")
        }
        #expect(Set(killedAt).isSuperset(of: IngestStep.allCases.map { "step \($0.rawValue)" }), "every kind of step was killed at: \(killedAt)")
    }
}
