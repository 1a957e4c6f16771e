import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// `navlog ship` on the built binary: what a device on a cable uses to ship its segments.
@Suite final class ShipCLITests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    /// A generated log directory of several segments.
    func generated() throws -> String {
        let path = dir + "/log"
        let run = try NavlogRun("generate", "--events", "6000", "--seed", "5", "--segment-size", "200000", "-o", path)
        #expect(run.status == 0, "\(run.stderr)")
        return path
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func shipCopiesEverySealedSegmentOnceAndSealShipsTheRest() throws {
        let log = try generated()
        let segments = try Opening.segmentNumbers(log)
        #expect(segments.count >= 3)
        let first = try NavlogRun("ship", log, "--to", dir + "/outbox", "--device", "phone-1")
        #expect(first.status == 0, "\(first.stderr)")
        let sealed = segments.dropLast().map(Opening.segmentName)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/outbox/phone-1").sorted() == sealed)
        for name in sealed {
            let copy = try bytes(dir + "/outbox/phone-1/" + name)
            #expect(copy == (try bytes(log + "/" + name)), "\(name) is copied byte for byte")
            #expect(first.stdout.contains("sha256 \(SHA256.digest(copy).hex)"))
        }
        let again = try NavlogRun("ship", log, "--to", dir + "/outbox", "--device", "phone-1", "--format", "json")
        #expect(again.status == 0 && again.stdout.contains(#""shipped":[]"#), "\(again.stdout)")
        let sealing = try NavlogRun("ship", log, "--to", dir + "/outbox", "--device", "phone-1", "--seal")
        #expect(sealing.status == 0 && sealing.stdout.contains(Opening.segmentName(segments.last!)), "\(sealing.stdout)")
        // Everything the log held is now off it, and the log reads as before.
        let verify = try NavlogRun("verify", log)
        #expect(verify.status == 0, "\(verify.stdout)")
        let copies = try NavlogRun("verify", dir + "/outbox/phone-1")
        #expect(copies.status == 0, "the shipped segments are a log of their own: \(copies.stdout) \(copies.stderr)")
    }

    @Test func aCopyLeftBeforeItsAcknowledgementIsAcknowledgedAndOneWithOtherBytesIsRefused() throws {
        let log = try generated()
        let outbox = dir + "/outbox/phone-2"
        try FileManager.default.createDirectory(atPath: outbox, withIntermediateDirectories: true)
        let name = Opening.segmentName(1)
        try FileManager.default.copyItem(atPath: log + "/" + name, toPath: outbox + "/" + name)   // a run stopped before acknowledging
        let run = try NavlogRun("ship", log, "--to", dir + "/outbox", "--device", "phone-2")
        #expect(run.status == 0 && run.stdout.contains("\(name): seq 1–") && run.stdout.contains("(already there)"), "\(run.stdout)")

        // Its acknowledgement forgotten, the log ships segment 1 again: over a copy that is not its.
        let other = log
        try FileManager.default.removeItem(atPath: other + "/SHIPPED")
        var copy = try bytes(outbox + "/" + name)
        copy[copy.count / 2] ^= 1
        try Data(copy).write(to: URL(fileURLWithPath: outbox + "/" + name))
        let refused = try NavlogRun("ship", other, "--to", dir + "/outbox", "--device", "phone-2")
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(outbox)/\(name): it holds other bytes than"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other + "/SHIPPED"), "nothing was acknowledged")
    }

    @Test func aLogAnotherWriterHoldsABadDeviceAndAFileAreRefused() throws {
        let log = try generated()
        let held = try EventLog(directory: log)
        let locked = try NavlogRun("ship", log, "--to", dir + "/outbox", "--device", "phone-3")
        #expect(locked.status == 75, "\(locked.stderr)")
        try held.close()
        for device in ["../escape", ".", "a/b", "", String(repeating: "x", count: 65)] {
            let run = try NavlogRun("ship", log, "--to", dir + "/outbox", "--device", device)
            #expect(run.status == 64, "'\(device)': \(run.stderr)")
        }
        let file = try NavlogRun("ship", log + "/" + Opening.segmentName(1), "--to", dir + "/outbox", "--device", "phone-3")
        #expect(file.status == 66, "\(file.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/escape") && !FileManager.default.fileExists(atPath: dir + "/outbox/phone-3"))
    }

    @Test func verifySaysWhatRetentionDeletedBeforeItWasShipped() throws {
        let path = dir + "/capped"
        var generator = LogGenerator(seed: 9)
        let log = try EventLog(directory: path, options: .init(durability: .none, retention: .untilShipped(keepingUnshippedUpTo: 30_000)))
        for _ in 0..<8 {
            try log.append(contentsOf: (0..<150).map { _ in generator.next() })
            try log.seal()
        }
        let loss = try log.pendingShipments().droppedUnshipped
        try log.close()
        #expect(loss.segments > 0)
        let text = try NavlogRun("verify", path)
        #expect(text.status == 0, "a deletion the policy made is not a defect: \(text.stdout)")
        #expect(text.stdout.contains("\(path): warning: retention deleted \(loss.segments) segments ("), "\(text.stdout)")
        let json = try NavlogRun("verify", path, "--format", "json")
        let seqs = loss.seqs.map { "[\($0.lowerBound),\($0.upperBound)]" }.joined(separator: ",")
        #expect(json.stdout.contains(#""dropped_unshipped":{"segments":\#(loss.segments),"bytes":\#(loss.bytes),"seqs":[\#(seqs)]}"#),
                "\(json.stdout)")
    }
}
