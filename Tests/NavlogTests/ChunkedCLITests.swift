import Foundation
import Testing
import NavigationAnalytics
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// navlog's analytics on a log large enough to be read in chunks answer as a reading in order.
@Suite struct ChunkedCLITests {
    @Test func pathsAndFunnelOnALargeLogAnswerAsAReadingInOrder() throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path
        let path = directory + "/log.jsonl"
        var generator = LogGenerator(seed: 12)
        let written = try generator.writeLog(to: path, events: 110_000)
        #expect(written.bytes > LogReader.chunkedBytes, "large enough to be read in chunks")

        func rows(_ arguments: String...) throws -> [[String: Any]] {
            let run = try NavlogRun(arguments, stdin: nil)
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            return try #require(object["rows"] as? [[String: Any]])
        }
        func inOrder<Query: ViewQuery>(_ query: Query) throws -> Query.Result {
            try ViewStream.run(query, over: path, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(), idle: nil,
                               threads: 1, chunkedFrom: .max).result
        }

        let paths = try rows("paths", path, "--length", "3", "--top", "0", "--format", "json")
        let expectedPaths = try inOrder(PathsQuery(length: 3))
        #expect(paths.count == expectedPaths.count && paths.count > 100)
        #expect(paths.map { $0["path"] as? [String] ?? [] } == expectedPaths.map(\.screens))
        #expect(paths.map { $0["occurrences"] as? Int ?? -1 } == expectedPaths.map(\.occurrences))
        #expect(paths.map { $0["sessions"] as? Int ?? -1 } == expectedPaths.map(\.sessions))

        let funnel = try rows("funnel", path, "--steps", "home,category,recipe", "--format", "json")
        let expectedFunnel = try inOrder(FunnelQuery(steps: ["home", "category", "recipe"]))
        #expect(funnel.map { $0["sessions"] as? Int ?? -1 } == expectedFunnel.map(\.sessions))
        #expect(funnel.map { $0["median_ms"] as? Int ?? -1 } == expectedFunnel.map { Int($0.medianMilliseconds ?? -1) })
        #expect(funnel.map { $0["p90_ms"] as? Int ?? -1 } == expectedFunnel.map { Int($0.p90Milliseconds ?? -1) })
    }
}
