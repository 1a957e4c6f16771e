import Foundation
import Testing
@testable import NavigationHistory

/// A log whose segments do not follow one another is refused before anything is written.
@Suite struct LogEndTests {
    /// A log of `count` generated events in segments of `segmentSize` bytes.
    func segmentedLog(_ path: String, events count: Int = 2500, segmentSize: Int = 16 << 10, seed: UInt64 = 5) throws {
        var generator = LogGenerator(seed: seed, crashRate: 0.2)
        let log = try EventLog(directory: path, options: .init(segmentSize: segmentSize, durability: .none, snapshotInterval: 64))
        try log.append(contentsOf: (0..<count).map { _ in generator.next() })
        try log.close()
    }

    /// The bytes of every file of a directory, by name.
    func contents(_ directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "LOCK" {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return result
    }

    func copyItem(_ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    // MARK: Segments that do not follow one another

    @Test(arguments: ["copied", "duplicated last", "gap"])
    func segmentsThatDoNotFollowOneAnotherAreRefusedBeforeAnythingIsWritten(damage: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/log"
        try segmentedLog(path)
        let numbers = try Opening.segmentNumbers(path)
        #expect(numbers.count >= 8)
        let last = numbers.last!
        let segment = { (number: Int) in path + "/" + Opening.segmentName(number) }
        let later: String, earlier: String
        switch damage {
        case "copied":   // an older segment copied after the last one
            try copyItem(segment(5), segment(last + 1))
            (later, earlier) = (segment(last + 1), segment(last))
        case "duplicated last":
            try copyItem(segment(last), segment(last + 1))
            (later, earlier) = (segment(last + 1), segment(last))
        default:   // a segment in the middle deleted
            try FileManager.default.removeItem(atPath: segment(4))
            (later, earlier) = (segment(5), segment(3))
        }
        let before = try contents(path)
        func refusesNamingBoth(_ error: any Error) -> Bool {
            guard let error = error as? NavigationHistoryError, error.code == .corruptLog else { return false }
            let text = error.description
            return text.contains(Opening.segmentName(Int(later.suffix(14).prefix(8))!))
                && text.contains(Opening.segmentName(Int(earlier.suffix(14).prefix(8))!))
        }
        #expect(performing: { _ = try EventLog(directory: path) }, throws: refusesNamingBoth)
        #expect(performing: { _ = try EventLog.repair(path) }, throws: refusesNamingBoth)
        #expect(performing: { _ = try Restorer().restore(from: path) }, throws: refusesNamingBoth)
        #expect(try contents(path) == before, "nothing was written")
        // The reader reports the same link, naming both files.
        let report = try LogReader(path: path, mode: .salvage).scan { _ in }
        let defect = try #require(report.defects.first)
        #expect(defect.file == later && defect.line == 1)
        #expect(defect.kind == (damage == "gap" ? .seqGap : .seqNotIncreasing))
        #expect(defect.detail.contains(earlier), "\(defect.detail)")
    }
}
