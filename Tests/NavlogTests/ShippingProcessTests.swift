import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// kill -9 at every step of seal, ship and acknowledge (issue 43): `NavlogStoreChild ship` records,
/// seals and ships into an outbox laid out as `navlog ship` lays it out (OUT/DEVICE/NNNNNNNN.jsonl)
/// and is killed at a named step or at random moments; then `navlog ship` ships the log again.
/// Nothing the child was told is durable may be lost, nothing acknowledged may ship again, and the
/// outbox never holds under a segment's name anything but that segment's bytes.
@Suite(.serialized) final class ShippingProcessTests {
    /// Random-moment kills per test: a few by default, a tenth of `Tools/crash-test --rounds N`.
    static let rounds = ProcessInfo.processInfo.environment["NAVLOG_CRASH_ROUNDS"].flatMap { Int($0) }.map { max(8, $0 / 10) } ?? 8
    static let device = "phone"

    let scratch: ScratchDirectory
    var log: String { scratch.path + "/log" }
    var outbox: String { scratch.path + "/outbox" }
    var copies: String { outbox + "/" + Self.device }

    init() throws { scratch = try ScratchDirectory() }

    /// A `ship` child's run to its end, and whether SIGKILL ended it.
    func run(_ arguments: [String]) throws -> (lines: [String], killed: Bool) {
        let child = try StoreChild(["ship", log, "--to", outbox, "--device", Self.device] + arguments)
        let lines = child.output()
        return (lines, child.process.terminationReason == .uncaughtSignal && child.process.terminationStatus == SIGKILL)
    }

    /// The names after `prefix` in a child's lines, in order.
    static func named(_ prefix: String, _ lines: [String]) -> [String] {
        lines.compactMap { $0.hasPrefix(prefix + " ") ? String($0.dropFirst(prefix.count + 1)) : nil }
    }

    /// Those of the segments `names` that the log's `SHIPPED` says were acknowledged.
    func acknowledged(_ names: some Sequence<String>) throws -> Set<String> {
        let cursor = try ShippingCursor.read(directory: log)
        return Set(names.filter { LogFiles.segmentNumber($0).map(cursor.isShipped) ?? false })
    }

    /// The log's sealed segments' names, as a writer opening it sees them: all but the last.
    func sealed() throws -> [String] { try segmentNumbers().dropLast().map(Opening.segmentName) }

    /// The numbers of the log's segments; none before the first child made the log.
    func segmentNumbers() throws -> [Int] {
        FileManager.default.fileExists(atPath: log) ? try Opening.segmentNumbers(log) : []
    }

    /// The names of every segment sealed so far, also those retention deleted.
    func everSealed() throws -> Set<String> {
        Set((1..<max(1, try segmentNumbers().last ?? 1)).map(Opening.segmentName))
    }

    /// `navlog ship` of the log into the outbox: the files it shipped, and which were there already.
    func shipAgain() throws -> [(file: String, alreadyThere: Bool)] {
        let run = try NavlogRun("ship", log, "--to", outbox, "--device", Self.device, "--format", "json")
        try #require(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let shipped = try #require(object?["shipped"] as? [[String: Any]], "\(run.stdout)")
        return shipped.map { ($0["file"] as? String ?? "?", $0["already_there"] as? Bool ?? false) }
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Every file under a segment's name in the outbox holds that segment's bytes, when the log
    /// still has it; returns the names, and the others (a copy's temporary file a kill left).
    func checkOutbox() throws -> (segments: Set<String>, others: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: copies)) ?? []
        var segments: Set<String> = []
        for name in names where LogFiles.isSegmentName(name) {
            segments.insert(name)
            guard FileManager.default.fileExists(atPath: log + "/" + name) else { continue }
            #expect(try bytes(copies + "/" + name) == bytes(log + "/" + name), "\(name): the copy is the segment, byte for byte")
        }
        return (segments, names.filter { !LogFiles.isSegmentName($0) })
    }

    /// The seqs the log and the outbox's copies of segments it no longer has hold, each read
    /// strictly but for the torn last line a kill can leave in the log's current segment, which
    /// holds nothing told durable.
    func seqsKept() throws -> Set<Int> {
        var seqs: Set<Int> = []
        let report = try LogReader(path: log, mode: .tolerateTornTail).read { seqs.insert($0.seq) }
        #expect(report.isClean, "\(report.defects)")
        for name in try checkOutbox().segments where !FileManager.default.fileExists(atPath: log + "/" + name) {
            let copy = try LogReader(path: copies + "/" + name, mode: .absolute).read { seqs.insert($0.seq) }
            #expect(copy.isClean, "\(name): \(copy.defects)")
        }
        return seqs
    }

    /// What shipping again must ship of the segment the child was at when killed at a point: not
    /// shipped (it was not sealed, or its acknowledgement is durable), or shipped again, copied
    /// anew or found already there.
    enum Again { case nothing, copied, alreadyThere }

    static let points: [(point: String, untilShipped: Bool, again: Again)] = [
        ("beforeWrite", false, .nothing), ("beforeSync", false, .nothing),
        ("segmentTemporaryWritten", false, .nothing), ("segmentRenamed", false, .copied),
        ("segmentDirectorySynced", false, .copied), ("sealedManifestAppended", false, .copied),
        ("copyTemporaryWritten", false, .copied), ("copyRenamed", false, .alreadyThere),
        ("copyDirectorySynced", false, .alreadyThere), ("shippingCursorTemporaryWritten", false, .alreadyThere),
        ("shippingCursorRenamed", false, .nothing), ("shippingCursorDirectorySynced", false, .nothing),
        ("copyRenamed", true, .alreadyThere), ("shippingCursorDirectorySynced", true, .nothing),
        ("segmentDeleted", true, .nothing),
    ]

    @Test(arguments: points.indices)
    func aKill9AtEveryStepOfSealShipAndAcknowledgeLosesNothingAndShipsNothingAcknowledgedAgain(case index: Int) throws {
        let (point, untilShipped, again) = Self.points[index]
        // Rounds 0 and 1 seal and ship segments 1 and 2; round 2 is killed at the point, with
        // segment 3 to seal, ship and acknowledge.
        let child = try run(["--rounds", "4", "--kill-at", point, "--kill-in-round", "2"] + (untilShipped ? ["--until-shipped"] : []))
        try #require(child.killed && child.lines.last == "dying at \(point)", "\(point): \(child.lines.suffix(3))")
        let acked = Set(Self.named("acked", child.lines))
        #expect(acked == [Opening.segmentName(1), Opening.segmentName(2)])
        let durable = StoreChild.acknowledged(child.lines)

        #expect(try acknowledged(acked) == acked, "what the child saw acknowledged is durable")
        let sealed = try sealed()
        let cursor = try acknowledged(sealed)
        let shipped = try shipAgain()
        let names = shipped.map(\.file)
        #expect(Set(names).count == names.count, "each segment ships once")
        #expect(Set(names) == Set(sealed).subtracting(cursor), "\(point): what is sealed and not acknowledged ships, and only that")
        #expect(Set(names).isDisjoint(with: acked))
        let third = Opening.segmentName(3)
        switch again {
        case .nothing: #expect(names.isEmpty, "\(point): \(names)")
        case .copied: #expect(shipped.map(\.file) == [third] && shipped.allSatisfy { !$0.alreadyThere }, "\(point): \(shipped)")
        case .alreadyThere: #expect(shipped.map(\.file) == [third] && shipped.allSatisfy(\.alreadyThere), "\(point): \(shipped)")
        }
        #expect(try shipAgain().isEmpty, "shipped again, nothing ships")

        let outbox = try checkOutbox()
        #expect(outbox.others.isEmpty, "no half-written copy is left: \(outbox.others)")
        #expect(try outbox.segments == everSealed(), "every sealed segment is in the outbox")
        let seqs = try seqsKept()
        #expect(durable > 0 && Set(1...durable).isSubset(of: seqs), "\(point): every seq up to \(durable), told durable, is kept")
        let verify = try NavlogRun("verify", log)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let verifyCopies = try NavlogRun("verify", copies)
        #expect(verifyCopies.status == 0, "\(verifyCopies.stdout)\(verifyCopies.stderr)")
    }

    @Test func aShippingWriterKilledAtRandomMomentsLosesNothingAndShipsNothingAcknowledgedAgain() throws {
        var random = SeededRandom(seed: 43)
        var durable = 0, killsWhileShipping = 0
        for round in 0..<Self.rounds {
            let before = try acknowledged(try everSealed())
            // Even rounds through a Recorder, odd ones through an EventLog with retention that
            // deletes what is shipped.
            let child = try StoreChild(["ship", log, "--to", outbox, "--device", Self.device, "--events", "24"]
                                       + (round % 2 == 0 ? ["--recorder"] : ["--until-shipped"]))
            _ = child.waitFor("round 1")
            usleep(UInt32(random.next() % 20_000))
            child.kill()
            let lines = child.output()
            #expect(child.process.terminationReason == .uncaughtSignal, "round \(round): \(lines.suffix(2))")
            if let last = lines.last, last == "sealed" || last.hasPrefix("copied ") || last.hasPrefix("already ") { killsWhileShipping += 1 }
            durable = max(durable, StoreChild.acknowledged(lines))
            let shipped = Self.named("copied", lines) + Self.named("already", lines)
            #expect(Set(shipped).count == shipped.count, "round \(round): a segment ships once per run")
            #expect(Set(shipped).isDisjoint(with: before), "round \(round): nothing acknowledged before the run ships again")
            let acked = Set(Self.named("acked", lines))
            #expect(try acknowledged(acked) == acked, "round \(round): acknowledgements are durable")
            let seqs = try seqsKept()
            #expect(durable == 0 || Set(1...durable).isSubset(of: seqs), "round \(round): every seq told durable is kept")
        }
        let sealed = try sealed()
        let unacknowledged = Set(sealed).subtracting(try acknowledged(sealed))
        let shipped = try shipAgain().map(\.file)
        #expect(Set(shipped) == unacknowledged && Set(shipped).count == shipped.count, "\(shipped) beside \(unacknowledged)")
        #expect(try shipAgain().isEmpty)
        let outbox = try checkOutbox()
        #expect(try outbox.others.isEmpty && outbox.segments == everSealed(), "\(outbox)")
        #expect(try NavlogRun("verify", log).status == 0)
        #expect(killsWhileShipping > 0, "some kills came between a seal and an acknowledgement")
        print("\(Self.rounds) kills of a shipping writer, \(killsWhileShipping) between a seal and an acknowledgement, seq \(durable) durable")
    }

    /// `navlog ship` has no fault hook a test can name from outside its process: the steps
    /// between its copy and its acknowledgement are killed by name through the child above, which
    /// copies with the same FileSystem.replace; here the CLI process itself is killed at random
    /// moments of a run over many segments, the moment tuned until kills land mid-run.
    @Test func navlogShipKilledMidRunShipsWhatItDidNotAcknowledgeOnceAndNothingElse() throws {
        let template = scratch.path + "/template"
        let writer = try EventLog(directory: template, options: .init(durability: .none))
        var generator = LogGenerator(seed: 44)
        for _ in 0..<60 {
            try writer.append(contentsOf: (0..<20).map { _ in generator.next() })
            try writer.seal()
        }
        try writer.close()
        var random = SeededRandom(seed: 45)
        var delay = 50_000.0, landed = 0, attempts = 0
        while landed < 3 && attempts < 16 {
            attempts += 1
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: outbox)
            try FileManager.default.copyItem(atPath: template, toPath: log)
            let process = Process()
            process.executableURL = NavlogRun.binary
            process.arguments = ["ship", log, "--to", outbox, "--device", Self.device]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(delay * (0.5 + Double(random.next() % 1000) / 1000)))
            _ = kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let sealed = try sealed()
            let acked = try acknowledged(sealed)
            if process.terminationReason == .exit {
                #expect(process.terminationStatus == 0)
                delay /= 2   // it finished first
                continue
            }
            if acked.isEmpty { delay *= 1.6 } else if acked.count < sealed.count { landed += 1 }
            let left = try checkOutbox()
            #expect(left.others.count <= 1, "at most the copy in flight at the kill is half-written: \(left.others)")
            let shipped = try shipAgain()
            #expect(Set(shipped.map(\.file)) == Set(sealed).subtracting(acked) && Set(shipped.map(\.file)).count == shipped.count,
                    "attempt \(attempts): what was not acknowledged ships once, and nothing else")
            #expect(shipped.filter(\.alreadyThere).count <= 1, "at most the copy in flight at the kill was there unacknowledged")
            #expect(try shipAgain().isEmpty)
            let outbox = try checkOutbox()
            #expect(outbox.others.isEmpty && outbox.segments == Set(sealed), "\(outbox)")
        }
        #expect(landed >= 1, "\(attempts) attempts, none killed navlog ship mid-run")
        print("navlog ship killed mid-run \(landed) times in \(attempts) attempts")
    }
}
