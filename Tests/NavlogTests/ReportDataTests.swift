import Foundation
import Testing
import NavigationAnalytics
@testable import NavigationHistory
@testable import navlog

/// The report's data gathered over chunks of a log at once is the data gathered in order.
@Suite struct ReportDataTests {
    @Test(arguments: [2, 5])
    func theReportGatheredInChunksIsTheReportGatheredInOrder(threads: Int) throws {
        let directory = NSTemporaryDirectory() + "navlog-report-data-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/log.jsonl"
        var generator = LogGenerator(seed: 9, crashRate: 0.3)
        try generator.writeLog(to: path, events: 5000)
        var options = ReportData.Options()
        options.recent = 4
        options.funnels = [["home", "recipe", "reviews"]]
        // Two sessions named, to be kept whatever chunk they are in.
        var ids: [String] = []
        try LogReader(path: path).read { event in if ids.last != event.session { ids.append(event.session) } }
        options.sessions = [ids[10], ids[ids.count / 2]]
        func gathered(threads: Int) throws -> (json: [UInt8], sessions: Int, chunks: Int) {
            var data = ReportData(options: options)
            try data.gather(path, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(), idle: .seconds(120),
                            threads: threads, chunkedFrom: 0)
            return (data.json(path: path, filter: AnalyticsFilter()), data.sessions.count, data.chunks)
        }
        let inOrder = try gathered(threads: 1)
        let chunked = try gathered(threads: threads)
        #expect(inOrder.sessions > 50)
        #expect(chunked.chunks == threads)
        let same = chunked.json == inOrder.json
        #expect(same, "the report's data is the same bytes")
    }
}

