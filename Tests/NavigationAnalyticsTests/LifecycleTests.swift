import Foundation
import Testing
@testable import NavigationAnalytics
@testable import NavigationHistory

/// How sessions ended — clean, background, unclean, open — as the exits and the export see it.
@Suite struct LifecycleTests {
    /// Four sessions, one of each ending: `a` clean on recipe, `b` terminated in the background on
    /// category, `c` crashed on reviews after coming back from the background, `d` still open on
    /// recipe in the background.
    static let fourEndings = """
        {"v":1,"seq":1,"ts":"2026-11-29T08:00:00.000Z","session":"a","type":"session.start","app":"1.0","launch":"cold"}
        {"v":1,"seq":2,"ts":"2026-11-29T08:00:00.010Z","session":"a","type":"scene.open","scene":"main"}
        {"v":1,"seq":3,"ts":"2026-11-29T08:00:01.000Z","session":"a","type":"push","scene":"main","stack":"main","route":{"screen":"recipe","id":"1"}}
        {"v":1,"seq":4,"ts":"2026-11-29T08:00:05.000Z","session":"a","type":"session.end"}
        {"v":1,"seq":5,"ts":"2026-11-29T09:00:00.000Z","session":"b","type":"session.start","app":"1.0","launch":"cold"}
        {"v":1,"seq":6,"ts":"2026-11-29T09:00:00.010Z","session":"b","type":"scene.open","scene":"main"}
        {"v":1,"seq":7,"ts":"2026-11-29T09:00:01.000Z","session":"b","type":"push","scene":"main","stack":"main","route":{"screen":"category","id":"d"}}
        {"v":1,"seq":8,"ts":"2026-11-29T09:00:03.000Z","session":"b","type":"scene.phase","scene":"main","phase":"inactive"}
        {"v":1,"seq":9,"ts":"2026-11-29T09:00:04.000Z","session":"b","type":"scene.phase","scene":"main","phase":"background"}
        {"v":1,"seq":10,"ts":"2026-11-29T11:14:04.000Z","session":"c","type":"session.start","app":"1.0","launch":"cold"}
        {"v":1,"seq":11,"ts":"2026-11-29T11:14:04.010Z","session":"c","type":"scene.open","scene":"main"}
        {"v":1,"seq":12,"ts":"2026-11-29T11:14:05.000Z","session":"c","type":"push","scene":"main","stack":"main","route":{"screen":"reviews","id":"1"}}
        {"v":1,"seq":13,"ts":"2026-11-29T11:14:06.000Z","session":"c","type":"scene.phase","scene":"main","phase":"background"}
        {"v":1,"seq":14,"ts":"2026-11-29T11:20:06.000Z","session":"c","type":"scene.phase","scene":"main","phase":"active"}
        {"v":1,"seq":15,"ts":"2026-11-29T11:20:08.000Z","session":"c","type":"push","scene":"main","stack":"main","route":{"screen":"reviews","id":"2"}}
        {"v":1,"seq":16,"ts":"2026-11-29T12:00:00.000Z","session":"d","type":"session.start","app":"1.0","launch":"warm"}
        {"v":1,"seq":17,"ts":"2026-11-29T12:00:00.010Z","session":"d","type":"scene.open","scene":"main"}
        {"v":1,"seq":18,"ts":"2026-11-29T12:00:01.000Z","session":"d","type":"push","scene":"main","stack":"main","route":{"screen":"recipe","id":"2"}}
        {"v":1,"seq":19,"ts":"2026-11-29T12:00:09.000Z","session":"d","type":"scene.phase","scene":"main","phase":"background"}

        """

    static func log(_ text: String) throws -> String {
        let path = logDirectory + "/" + UUID().uuidString + ".jsonl"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func exits(_ path: String, threads: Int, idle: Duration? = nil) throws -> (result: ExitsQuery.Result, chunks: Int) {
        let run = try ViewStream.run(ExitsQuery(crashPaths: 2), over: path, mode: .tolerateTornTail, filter: AnalyticsFilter(),
                                     cleaning: PathCleaning(), idle: idle, threads: threads, chunkedFrom: 0, splitBytes: 1)
        return (run.result, run.chunks)
    }

    @Test func exitsSplitByHowEachSessionEnded() throws {
        let path = try Self.log(Self.fourEndings)
        let (result, _) = try Self.exits(path, threads: 1)
        #expect(result.rows == [
            .init(screen: "recipe", exits: 2, clean: 1, background: 0, unclean: 0, open: 1),
            .init(screen: "category", exits: 1, clean: 0, background: 1, unclean: 0, open: 0),
            .init(screen: "reviews", exits: 1, clean: 0, background: 0, unclean: 1, open: 0),
        ])
        #expect(result.crashPaths == [.init(screens: ["reviews", "reviews"], sessions: 1)], "unclean ends only")
    }

    @Test func exitsInChunksAnswerAsInOrder() throws {
        let path = try Self.log(Self.fourEndings)
        let inOrder = try Self.exits(path, threads: 1)
        let chunked = try Self.exits(path, threads: 4)
        #expect(chunked.chunks > 1)
        #expect(chunked.result == inOrder.result)
        let idleInOrder = try Self.exits(path, threads: 1, idle: .seconds(60))
        let idleChunked = try Self.exits(path, threads: 4, idle: .seconds(60))
        #expect(idleChunked.chunks > 1)
        #expect(idleChunked.result == idleInOrder.result)
    }

    @Test func aPartAnIdleGapEndsInTheBackgroundEndsBackgroundAndTheLastPartEndsAsItsSession() throws {
        // c's gap of 6 min in the background splits it: its first part ends in the background on
        // reviews (its scene was there at its last event), its second (c#2) crashes on reviews.
        let path = try Self.log(Self.fourEndings)
        let (result, _) = try Self.exits(path, threads: 1, idle: .seconds(60))
        #expect(result.rows.first { $0.screen == "reviews" } == .init(screen: "reviews", exits: 2, clean: 0, background: 1, unclean: 1, open: 0))
        #expect(result.crashPaths == [.init(screens: ["reviews", "reviews"], sessions: 1)], "c#2 resumed on reviews, then pushed reviews")
    }

    /// `b` restores `a`'s state restated in the background, as another writer wrote it, pushes
    /// reviews and stops without a phase: a crash on reviews, as if the restore had been active.
    static let restoredInTheBackground = """
        {"v":1,"seq":1,"ts":"2026-11-29T08:00:00.000Z","session":"a","type":"session.start","app":"1.0","launch":"cold"}
        {"v":1,"seq":2,"ts":"2026-11-29T08:00:00.010Z","session":"a","type":"scene.open","scene":"main"}
        {"v":1,"seq":3,"ts":"2026-11-29T08:00:01.000Z","session":"a","type":"push","scene":"main","stack":"main","route":{"screen":"recipe","id":"1"}}
        {"v":1,"seq":4,"ts":"2026-11-29T09:00:00.000Z","session":"b","type":"session.start","app":"1.0","launch":"cold"}
        {"v":1,"seq":5,"ts":"2026-11-29T09:00:00.000Z","session":"b","type":"restore","state":{"active":"main","scenes":{"main":{"stacks":{"main":[{"screen":"recipe","id":"1"}]},"phase":"background"}}},"from":3,"dropped":[]}
        {"v":1,"seq":6,"ts":"2026-11-29T09:00:02.000Z","session":"b","type":"push","scene":"main","stack":"main","route":{"screen":"reviews","id":"1"}}
        {"v":1,"seq":7,"ts":"2026-11-29T09:00:05.000Z","session":"b","type":"push","scene":"main","stack":"main","route":{"screen":"reviews","id":"2"}}
        {"v":1,"seq":8,"ts":"2026-11-29T10:00:00.000Z","session":"c","type":"session.start","app":"1.0","launch":"cold"}

        """

    @Test func viewsAfterARestoreRestatingTheBackgroundAreCountedAndItsCrashMarked() throws {
        let path = try Self.log(Self.restoredInTheBackground)
        var views: [AnalyticsView] = []
        try ViewStream.read(path) { views.append($0) }
        let b = views.filter { $0.session == "b" }
        #expect(b.map(\.screen) == ["recipe", "reviews", "reviews"])
        #expect(b.map(\.dwellMilliseconds) == [2_000, 3_000, 0])
        #expect(b.map(\.crashed) == [false, false, true])
        let (result, _) = try Self.exits(path, threads: 1)
        #expect(result.rows.first { $0.screen == "reviews" } == .init(screen: "reviews", exits: 1, clean: 0, background: 0, unclean: 1, open: 0))
    }
}
