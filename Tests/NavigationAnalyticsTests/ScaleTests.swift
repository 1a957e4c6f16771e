import Foundation
import Testing
@testable import NavigationAnalytics
import NavigationHistory
import NavigationSimulation

/// Every query and export over a log that opens thousands of scenes takes time in proportion to
/// its events: twice the scenes take at most about twice the time (three times, and a little, for
/// the noise of a shared machine). At these sizes, queries that looked a scene up among all the
/// open ones would take minutes.
@Suite struct ScaleTests {
    static func bestTime(runs: Int = 2, _ body: () throws -> Void) rethrows -> Duration {
        var best = Duration.seconds(Int64.max)
        for _ in 0..<runs { best = min(best, try ContinuousClock().measure(body)) }
        return best
    }

    /// The time every query and the exports take over a log of `scenes` open scenes.
    static func analytics(_ scenes: Int) throws -> Duration {
        let path = logDirectory + "/scenes\(scenes).jsonl"
        try StressLog.manyScenes(scenes).write(to: path)
        return try bestTime {
            #expect(try ViewStream.run(ScreensQuery(), over: path).result.first?.views == scenes * 3)
            _ = try ViewStream.run(TransitionsQuery(), over: path)
            _ = try ViewStream.run(FlowQuery(steps: 5), over: path)
            _ = try ViewStream.run(PathsQuery(length: 3), over: path)
            _ = try ViewStream.run(PathsQuery(length: 3, to: "recipe"), over: path)
            _ = try ViewStream.run(FunnelQuery(steps: ["home", "recipe", "reviews"]), over: path)
            _ = try ViewStream.run(ExitsQuery(crashPaths: 3), over: path)
            _ = try ViewStream.run(BouncesQuery(), over: path)
            _ = try ViewStream.run(TabsQuery(), over: path)
            _ = try ViewStream.run(DepthQuery(), over: path)
            var views = Export(table: .screenViews, format: .ndjson), transitions = Export(table: .transitions, format: .csv)
            var links = DeepLinksQuery(keepsRecords: true)
            var lines = 0
            try ViewStream.read(path, events: { event, app, state in links.consume(event, app: app, stateAfter: state) }) { view in
                if views.line(for: view) != nil { lines += 1 }
                if transitions.line(for: view) != nil { lines += 1 }
            }
            #expect(lines == scenes * 7 + scenes * 6)
            let found = links.finalize()
            #expect(found.rows.first?.links == scenes && found.records.count == scenes)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func everyQueryAndExportOverThousandsOfOpenScenesTakesTimeInProportionToTheEvents() throws {
        let single = try Self.analytics(1000), double = try Self.analytics(2000)
        #expect(double < single * 3 + .milliseconds(100), "1,000 scenes: \(single), 2,000: \(double)")
    }
}
