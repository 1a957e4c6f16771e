import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// What `navlog ingest` rejects: each kind lands in FLEET/.rejected with its reason, and nothing
/// of it in a device's log.
@Suite final class IngestRejectionCLITests {
    let scratch: ScratchDirectory
    var dir: String { scratch.path }
    var fleet: String { dir + "/fleet" }
    var inbox: String { dir + "/in" }
    let log: String

    init() throws {
        scratch = try ScratchDirectory()
        log = scratch.path + "/log"
        let run = try NavlogRun("generate", "--events", "2000", "--seed", "3", "--segment-size", "60000", "-o", log)
        try #require(run.status == 0, "\(run.stderr)")
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Writes `bytes` to `inbox/relative`, creating its directory.
    func put(_ relative: String, _ bytes: [UInt8]) throws {
        let path = inbox + "/" + relative
        try FileManager.default.createDirectory(atPath: FileSystem.parent(of: path), withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func segment(_ number: Int) throws -> [UInt8] { try bytes(log + "/" + Opening.segmentName(number)) }

    /// `segment` with its line `line` (from 1) replaced by `text`.
    func replacing(line: Int, of segment: [UInt8], with text: String) -> [UInt8] {
        var lines = segment.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        lines[line - 1] = Array(text.utf8)
        return Array(lines.joined(separator: [0x0A]))
    }

    func reason(_ device: String, _ name: String) -> String? {
        (try? bytes(fleet + "/.rejected/" + device + "/" + name + ".reason")).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func eachKindOfBadUploadIsRejectedWithItsReasonAndNothingOfItFiled() throws {
        let first = try segment(1)
        // Damaged lines: a changed byte under a crc, a line that is not JSON, a torn last line.
        var flipped = first
        let third = flipped.indices.filter { flipped[$0] == 0x0A }[2] + 40
        flipped[third] = flipped[third] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        try put("crc/00000001.jsonl", flipped)
        try put("json/00000001.jsonl", replacing(line: 3, of: first, with: "hello, world"))
        try put("torn/00000001.jsonl", Array(first.dropLast(12)))
        // Seq going back: segment 2's events again, under the next name.
        try put("back/00000001.jsonl", first)
        try put("back/00000002.jsonl", try segment(2))
        try put("back/00000003.jsonl", try segment(2))
        // Not regular files, and paths that would leave the inbox.
        try put("link/.keep-dir", [])
        try FileManager.default.removeItem(atPath: inbox + "/link/.keep-dir")
        try FileManager.default.createSymbolicLink(atPath: inbox + "/link/00000001.jsonl", withDestinationPath: log + "/00000001.jsonl")
        try FileManager.default.createDirectory(atPath: inbox + "/fifo", withIntermediateDirectories: true)
        #expect(mkfifo(inbox + "/fifo/00000001.jsonl", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: inbox + "/node", withIntermediateDirectories: true)
        let madeNode = mknod(inbox + "/node/00000001.jsonl", S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0
        try FileManager.default.createSymbolicLink(atPath: inbox + "/escape", withDestinationPath: log)
        // Names that are not a device's or a segment's, a file over the cap, a file at the top.
        try put("bad id/00000001.jsonl", first)
        try put(".hidden/00000001.jsonl", first)
        try put("names/notes.txt", Array("notes".utf8))
        try put("big/00000001.jsonl", [])
        #expect(truncate(inbox + "/big/00000001.jsonl", off_t(FleetLayout.maximumSegmentBytes + 1)) == 0)
        try put("stray.jsonl", first)

        let run = try NavlogRun("ingest", inbox, "--into", fleet, "--format", "json")
        #expect(run.status == 65, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let totals = json?["totals"] as? [String: Int]
        #expect(totals?["rejected"] == (madeNode ? 13 : 12) && totals?["filed"] == 2, "\(run.stdout)")
        #expect(json?["changed_devices"] as? [String] == ["back"])

        #expect(reason("crc", "00000001.jsonl")?.contains("crc/00000001.jsonl: line 4: crcMismatch") == true, "\(reason("crc", "00000001.jsonl") ?? "none")")
        #expect(try bytes(fleet + "/.rejected/crc/00000001.jsonl") == flipped, "the rejected file is kept as it came")
        #expect(reason("json", "00000001.jsonl")?.contains("line 3: invalidJSON") == true)
        #expect(reason("torn", "00000001.jsonl")?.contains("tornLine") == true, "\(reason("torn", "00000001.jsonl") ?? "none")")
        #expect(reason("back", "00000003.jsonl")?.contains("seq going back") == true, "\(reason("back", "00000003.jsonl") ?? "none")")
        #expect(reason("link", "00000001.jsonl")?.contains("symbolic link") == true)
        #expect(reason("fifo", "00000001.jsonl")?.contains("FIFO") == true)
        if madeNode { #expect(reason("node", "00000001.jsonl")?.contains("character device") == true) }
        #expect(reason(".unnamed", "escape")?.contains("symbolic link, which would lead out of the inbox") == true)
        #expect(reason(".unnamed", "bad%20id")?.contains("not a device id") == true)
        #expect(reason(".unnamed", "%2Ehidden")?.contains("not a device id") == true)
        #expect(reason("names", "notes%2Etxt")?.contains("not a segment's name") == true)
        #expect(reason("big", "00000001.jsonl")?.contains("cap") == true)
        #expect(reason(".unnamed", "stray%2Ejsonl")?.contains("outside any device directory") == true)
        #expect(run.stderr.contains("\(inbox)/crc/00000001.jsonl: rejected: line 4: crcMismatch"), "\(run.stderr)")

        // Nothing of theirs reached a log: only `back`'s two good segments are filed.
        let devices = try FileManager.default.contentsOfDirectory(atPath: fleet).filter { !$0.hasPrefix(".") }
        #expect(devices == ["back"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fleet + "/back").sorted() == ["00000001.jsonl", "00000002.jsonl"])
        #expect(try bytes(log + "/00000001.jsonl") == first, "the inbox's link led nowhere it could write")
    }
}
