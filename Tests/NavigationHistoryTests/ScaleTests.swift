import Foundation
import Testing
@testable import NavigationHistory

/// The best time of `runs` runs of `body`.
func bestTime(runs: Int = 2, _ body: () throws -> Void) rethrows -> Duration {
    var best = Duration.seconds(Int64.max)
    for _ in 0..<runs { best = min(best, try ContinuousClock().measure(body)) }
    return best
}

/// Work that grows with a log's events takes time in proportion to them: twice the events take at
/// most about twice the time (three times, and a little, for the noise of a shared machine). The
/// sizes are those where work that grows with the square of the events took minutes.
@Suite(.serialized) struct ScaleTests {
    @Test(.timeLimit(.minutes(1)))
    func screenViewsOfThousandsOfOpenScenesTakeTimeInProportionToTheEvents() {
        func views(_ scenes: Int) -> Duration {
            let events = StressLog.manyScenes(scenes).events
            return bestTime {
                var tracker = ScreenViewTracker()
                var count = 0
                for event in events { count += tracker.consume(event).ended.count }
                count += tracker.finish().views.count
                #expect(count == scenes * 7)   // each scene: its root, its tab's, recipe, and twice reviews then recipe again
            }
        }
        let single = views(1000), double = views(2000)
        #expect(double < single * 3 + .milliseconds(100), "1,000 scenes: \(single), 2,000: \(double)")
    }
}
