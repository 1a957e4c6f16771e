import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// The best time of `runs` runs of `body`.
func bestTime(runs: Int = 2, _ body: () throws -> Void) rethrows -> Duration {
    var best = Duration.seconds(Int64.max)
    for _ in 0..<runs { best = min(best, try ContinuousClock().measure(body)) }
    return best
}

/// Work that grows with a log's events takes time in proportion to them: twice the events take at
/// most about twice the time (three times, and a little, for the noise of a shared machine). The
/// sizes are those where work that grew with the square of the events would take minutes.
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

    @Test(.timeLimit(.minutes(1)))
    func aReplayOfADeepStackTakesTimeInProportionToItsEvents() throws {
        let dir = try ScratchDirectory()
        func replay(_ pushes: Int) throws -> Duration {
            let path = dir.path + "/deep\(pushes).jsonl"
            try StressLog.deepStack(pushes).write(to: path)
            let timeline = try Timeline(path: path, indexFile: false)
            return try bestTime {
                var added = 0
                try timeline.replay(from: 1, through: pushes + 2) { step in
                    for case .stack(_, _, _, let routes) in step.changes { added += routes.count }
                }
                #expect(added == pushes)
            }
        }
        let single = try replay(20_000), double = try replay(40_000)
        #expect(double < single * 3 + .milliseconds(100), "20,000 pushes: \(single), 40,000: \(double)")
    }

    /// The index keeps a state every so many events, as many as the entry holds routes and scene
    /// names when it holds more than an interval's worth: its size and the time to build it grow
    /// with the events, not with the events times the stack's depth (a state every 4,096 events of
    /// a stack 200,000 deep would make a 135 MB index) or times the scenes a session named; and a seek
    /// still lands on the state of any seq.
    @Test(.timeLimit(.minutes(1)), arguments: ["stack", "scenes"])
    func theSnapshotIndexOfADeepStackOrOfManyScenesGrowsWithItsEvents(shape: String) throws {
        let dir = try ScratchDirectory()
        func index(_ events: Int) throws -> (time: Duration, bytes: Int) {
            let path = dir.path + "/index\(events).jsonl"
            try (shape == "stack" ? StressLog.deepStack(events) : .sceneChurn(events)).write(to: path)
            let source = try LogSource(path: path)
            var bytes = 0
            let time = try bestTime { bytes = try SnapshotIndex.updated(source, interval: 1000, save: false).index.encoded()?.count ?? 0 }
            return (time, bytes)
        }
        let single = try index(20_000), double = try index(40_000)
        #expect(double.bytes < single.bytes * 22 / 10, "20,000 events: \(single.bytes) bytes, 40,000: \(double.bytes)")
        #expect(double.time < single.time * 3 + .milliseconds(100), "20,000 events: \(single.time), 40,000: \(double.time)")
        guard shape == "stack" else { return }
        let path = dir.path + "/index40000.jsonl"
        let timeline = try Timeline(path: path, interval: 1000, indexFile: false)
        for seq in [1, 999, 1000, 1001, 2999, 7000, 16_385, 39_999, 40_002] {
            try timeline.seek(to: seq)
            #expect(timeline.state.scenes["main"]?.stacks["main"]?.count ?? 0 == max(0, seq - 2), "seq \(seq)")
        }
        for _ in 0..<3 { try timeline.stepBackward() }
        #expect(timeline.seq == 39_999 && timeline.state.scenes["main"]?.stacks["main"]?.count == 39_997)
    }

    /// The fold's own work grows with the sheets presented (it checks that a sheet's id is not
    /// presented already): a replay adds to it no more than a few folds' worth.
    @Test(.timeLimit(.minutes(1)))
    func aReplayOfStackedSheetsAddsToTheFoldTimeInProportionToItsEvents() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/sheets.jsonl"
        let log = StressLog.stackedSheets(4000)
        try log.write(to: path)
        let events = log.events
        let fold = bestTime {
            var state = NavigationState()
            for event in events { Projection.fold(&state, event) }
        }
        let timeline = try Timeline(path: path, indexFile: false)
        let replay = try bestTime {
            var dismissed = 0
            try timeline.replay(from: 1, through: events.count) { step in
                if case .sheetDismissed? = step.changes.first { dismissed += 1 }
            }
            #expect(dismissed == 2000)
        }
        #expect(replay < fold * 4 + .milliseconds(200), "fold \(fold), replay \(replay)")
    }
}
