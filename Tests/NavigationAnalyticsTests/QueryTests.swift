import Foundation
import Testing
@testable import NavigationAnalytics
import NavigationHistory
import NavigationSimulation
import TestSupport

/// Where the tests' logs are written: one directory for the test process, removed when it exits.
let logDirectory = ScratchDirectory.processWide.path

/// Tiny hand-written logs whose answers are worked out by hand.
@Suite struct QueryTests {
    static let base = Timestamp("2026-11-29T10:00:00.000Z")!.millisecondsSince1970

    /// A log of `(seconds, session, action)` steps, written to a temporary file.
    static func log(_ steps: [(Int64, String, NavigationAction)]) throws -> String {
        let path = logDirectory + "/" + UUID().uuidString + ".jsonl"
        let bytes = steps.enumerated().flatMap { k, step in
            LineEncoder.encode(NavigationEvent(seq: k + 1, timestamp: Timestamp(millisecondsSince1970: base + step.0 * 1000),
                                               session: step.1, action: step.2))
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    static func route(_ screen: String, _ id: String? = nil) -> Route { Route(screen: screen, id: id) }

    /// Session a: home 0–10 s, recipe(1) 10–40, reviews 40–45, back to recipe(1) 45–60 (clean end).
    /// Session b: home 100–101, recipe(2) 101–110, then the app dies (crashed view).
    static let sample: [(Int64, String, NavigationAction)] = [
        (0, "a", .sessionStart(app: "1.0", launch: .cold, meta: nil)),
        (0, "a", .sceneOpen(scene: "main", kind: nil)),
        (0, "a", .tabSelect(scene: "main", tab: "home")),
        (10, "a", .push(scene: "main", stack: "home", route: route("recipe", "1"))),
        (40, "a", .push(scene: "main", stack: "home", route: route("reviews", "1"))),
        (45, "a", .pop(scene: "main", stack: "home", count: 1)),
        (60, "a", .sessionEnd(reason: nil)),
        (100, "b", .sessionStart(app: "1.1", launch: .cold, meta: nil)),
        (100, "b", .sceneOpen(scene: "main", kind: nil)),
        (100, "b", .tabSelect(scene: "main", tab: "home")),
        (101, "b", .push(scene: "main", stack: "home", route: route("recipe", "2"))),
        (110, "b", .push(scene: "main", stack: "home", route: route("recipe", "3"))),
        (115, "c", .sessionStart(app: "1.1", launch: .cold, meta: nil)),
    ]

    static func views(_ path: String, _ filter: AnalyticsFilter = AnalyticsFilter()) throws -> [AnalyticsView] {
        var views: [AnalyticsView] = []
        try ViewStream.read(path, filter: filter) { views.append($0) }
        return views
    }

    @Test func sessionStartsComeWithTheStateBeforeTheirFirstEvent() throws {
        // Session b begins without a session.start, so it begins where a left off; c starts afresh.
        let path = try Self.log([
            (0, "a", .sessionStart(app: "1.0", launch: .cold, meta: nil)),
            (0, "a", .sceneOpen(scene: "main", kind: nil)),
            (1, "a", .push(scene: "main", stack: "main", route: Self.route("recipe", "1"))),
            (2, "b", .push(scene: "main", stack: "main", route: Self.route("reviews", "1"))),
            (3, "b", .pop(scene: "main", stack: "main", count: 1)),
            (4, "c", .sessionStart(app: "1.0", launch: .cold, meta: nil)),
            (5, "c", .sceneOpen(scene: "main", kind: nil)),
        ])
        /// The session starts and the state after every event, as a query that sees events has them.
        struct Starts: ViewQuery {
            static var seesEvents: Bool { true }
            var starts: [(seq: Int, before: NavigationState)] = []
            var folded = NavigationState()
            var after: [Int: NavigationState] = [:]

            mutating func add(_ view: AnalyticsView) {}
            mutating func beginSession(_ event: NavigationEvent, stateBefore: NavigationState) { starts.append((event.seq, stateBefore)) }
            mutating func see(_ event: NavigationEvent) {
                Projection.fold(&folded, event)
                after[event.seq] = folded
            }
            mutating func merge(_ later: consuming Starts) {
                starts += later.starts.dropFirst()   // the start that begins a chunk was the one before's last
                after.merge(later.after) { $1 }
            }
            mutating func merge(nextLog later: consuming Starts) {
                starts += later.starts   // the next log's first session is one of its own
                after.merge(later.after) { $1 }
            }
            consuming func finalize() -> Starts { self }
        }
        // In chunks, as in order.
        let generated = logDirectory + "/" + UUID().uuidString + ".jsonl"
        var generator = LogGenerator(seed: 8)
        try generator.writeLog(to: generated, events: 3000)
        let inOrder = try ViewStream.run(Starts(), over: generated, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(),
                                         idle: nil, threads: 1, chunkedFrom: 0)
        let chunked = try ViewStream.run(Starts(), over: generated, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(),
                                         idle: nil, threads: 3, chunkedFrom: 0)
        #expect(chunked.chunks == 3)
        #expect(chunked.result.starts.map(\.seq) == inOrder.result.starts.map(\.seq))
        #expect(chunked.result.starts.map(\.before) == inOrder.result.starts.map(\.before))
        #expect(chunked.result.after == inOrder.result.after)
        // Over several logs, each log's starts, none lost where one log gives way to the next.
        let second = logDirectory + "/" + UUID().uuidString + ".jsonl"
        var secondGenerator = LogGenerator(seed: 9)
        try secondGenerator.writeLog(to: second, events: 2000)
        let alone = try ViewStream.run(Starts(), over: second).result.starts.count
        let many = try ViewStream.run(Starts(), over: [generated, second, generated])
        #expect(many.result.starts.count == 2 * inOrder.result.starts.count + alone)

        let (query, _) = try ViewStream.run(Starts(), over: path)
        let (starts, after) = (query.starts, query.after)
        #expect(starts.map(\.seq) == [1, 4, 6])
        #expect(starts[0].before == NavigationState())
        #expect(starts[1].before == after[3])
        #expect(starts[1].before.scenes["main"]?.stacks["main"] == [Self.route("recipe", "1")])
        #expect(starts[2].before == after[5])
    }

    @Test func screenViewsFollowTheVisibleRouteAndMarkTheCrash() throws {
        let views = try Self.views(try Self.log(Self.sample))
        #expect(views.map(\.screen) == ["home", "recipe", "reviews", "recipe", "home", "recipe", "recipe"])
        #expect(views.map(\.dwellMilliseconds) == [10_000, 30_000, 5_000, 15_000, 1_000, 9_000, 0])
        #expect(views.map(\.crashed) == [false, false, false, false, false, false, true])
        #expect(views.map(\.enteredBy) == ["tab.select", "push", "push", "pop", "tab.select", "push", "push"])
        #expect(views.map(\.app) == ["1.0", "1.0", "1.0", "1.0", "1.1", "1.1", "1.1"])
    }

    @Test func screensCountViewsSessionsAndDwellByNearestRank() throws {
        var query = ScreensQuery()
        for view in try Self.views(try Self.log(Self.sample)) { query.add(view) }
        // recipe: views 30 s, 15 s, 9 s and a crashed one: median of [9, 15, 30] s is 15 s, p90 is 30 s.
        #expect(query.finalize() == [
            .init(screen: "recipe", views: 4, sessions: 2, dwellMedian: 15_000, dwellP90: 30_000, dwellTotal: 54_000),
            .init(screen: "home", views: 2, sessions: 2, dwellMedian: 1_000, dwellP90: 10_000, dwellTotal: 11_000),
            .init(screen: "reviews", views: 1, sessions: 1, dwellMedian: 5_000, dwellP90: 5_000, dwellTotal: 5_000),
        ])
    }

    @Test func quantilesTakeTheValueAtRankCeilingOfPTimesN() {
        var q = QuantileCounter()
        for v: Int64 in [4, 1, 3, 2] { q.add(v) }
        #expect(q.quantile(percent: 50) == 2 && q.quantile(percent: 90) == 4)
        for v: Int64 in [5, 6, 7, 8, 9, 10] { q.add(v) }
        #expect(q.quantile(percent: 50) == 5 && q.quantile(percent: 90) == 9)
        #expect(QuantileCounter().quantile(percent: 50) == nil)
    }

    @Test func transitionsAndPathsFollowEachSessionAndSceneInOrder() throws {
        let path = try Self.log(Self.sample)
        var transitions = TransitionsQuery()
        var paths = PathsQuery(length: 3)
        var toReviews = PathsQuery(length: 2, to: "reviews")
        var fromRecipe = PathsQuery(length: 2, from: "recipe")
        for view in try Self.views(path) {
            transitions.add(view)
            paths.add(view)
            toReviews.add(view)
            fromRecipe.add(view)
        }
        #expect(transitions.finalize() == [
            .init(from: "home", to: "recipe", count: 2), .init(from: "recipe", to: "recipe", count: 1),
            .init(from: "recipe", to: "reviews", count: 1), .init(from: "reviews", to: "recipe", count: 1),
        ])
        #expect(paths.finalize() == [
            .init(screens: ["home", "recipe", "recipe"], occurrences: 1, sessions: 1),
            .init(screens: ["home", "recipe", "reviews"], occurrences: 1, sessions: 1),
            .init(screens: ["recipe", "reviews", "recipe"], occurrences: 1, sessions: 1),
        ])
        #expect(toReviews.finalize() == [.init(screens: ["home", "recipe"], occurrences: 1, sessions: 1),
                                   .init(screens: ["recipe", "reviews"], occurrences: 1, sessions: 1)])
        let fromRecipeRows = fromRecipe.finalize()
        #expect(fromRecipeRows.first == .init(screens: ["recipe", "recipe"], occurrences: 1, sessions: 1))
        #expect(fromRecipeRows.count == 3)
    }

    @Test func exitsBouncesAndTabsOnTheSampleLog() throws {
        let views = try Self.views(try Self.log(Self.sample))
        var exits = ExitsQuery(crashPaths: 2)
        var bounces = BouncesQuery(within: .seconds(5))
        var tabs = TabsQuery()
        for view in views {
            exits.add(view)
            bounces.add(view)
            tabs.add(view)
        }
        // a ends cleanly on recipe; b's last view, recipe(3), crashed.
        let exitsResult = exits.finalize()
        #expect(exitsResult.rows == [.init(screen: "recipe", exits: 2, clean: 1, background: 0, unclean: 1, open: 0)], "fed by hand: unclean when the last view crashed")
        #expect(exitsResult.crashPaths == [.init(screens: ["recipe", "recipe"], sessions: 1)])
        // reviews was pushed at 40 s and popped back to recipe at 45 s: a bounce within 5 s.
        #expect(bounces.finalize() == [.init(screen: "reviews", pushes: 1, bounces: 1, rateBasisPoints: 10_000),
                                 .init(screen: "recipe", pushes: 3, bounces: 0, rateBasisPoints: 0)])
        var strict = BouncesQuery(within: .milliseconds(4_999))
        for view in views { strict.add(view) }
        #expect(strict.finalize().first?.bounces == 0, "5 s is not within 4.999 s")
        let tabsResult = tabs.finalize()
        #expect(tabsResult.rows == [.init(tab: "home", views: 7, dwellMilliseconds: 70_000, shareBasisPoints: 10_000)])
        var depth = DepthQuery()
        for view in views { depth.add(view) }
        #expect(depth.finalize() == [.init(depth: 0, stackViews: 2, sheetViews: 0), .init(depth: 1, stackViews: 3, sheetViews: 0),
                               .init(depth: 2, stackViews: 2, sheetViews: 0)])
        #expect(tabsResult.switches.isEmpty)
    }

    @Test func flowKeysTransitionsByPositionAndFoldsRareScreensIntoOther() throws {
        var flow = FlowQuery(steps: 3, top: 1)
        for view in try Self.views(try Self.log(Self.sample)) { flow.add(view) }
        // Paths: a = home, recipe, reviews, (recipe); b = home, recipe, recipe. At position 3
        // recipe and reviews tie at one path each; by name, recipe is kept.
        #expect(flow.finalize() == [
            .init(step: 1, from: "1_home", to: "2_recipe", count: 2),
            .init(step: 2, from: "2_recipe", to: "3_other", count: 1),
            .init(step: 2, from: "2_recipe", to: "3_recipe", count: 1),
        ])
    }

    @Test func deepLinksCountPerOutcomeAndPatternAndWhetherTheUserBackedOutPastThem() throws {
        let cat = QueryTests.route("category", "soups"), recipe = QueryTests.route("recipe", "r13")
        let path = try Self.log([
            (0, "a", .sceneOpen(scene: "main", kind: nil)),
            (0, "a", .tabSelect(scene: "main", tab: "home")),
            (1, "a", .deeplink(scene: "main", url: "recipes://category/soups/recipe/r13?utm=mail", outcome: .resolved, tab: "home",
                               stack: "home", path: [cat, recipe])),
            (5, "a", .pop(scene: "main", stack: "home", count: 1)),          // below the linked recipe: backed out
            (6, "a", .deeplink(scene: "main", url: "recipes://category/soups/recipe/r99", outcome: .partial, tab: "home",
                               stack: "home", path: [cat])),
            (7, "a", .push(scene: "main", stack: "home", route: recipe)),    // deeper: not backed out
            (8, "a", .deeplink(scene: "main", url: "recipes://promo/winter", outcome: .unmatched, tab: nil, stack: nil, path: nil)),
            (9, "b", .sessionStart(app: nil, launch: .cold, meta: nil)),
        ])
        var query = DeepLinksQuery()
        try ViewStream.read(path, events: { event, app, state in query.consume(event, app: app, stateAfter: state) }) { _ in }
        #expect(query.finalize().rows == [
            .init(outcome: "partial", pattern: "recipes://category/soups/recipe/:id", links: 1, backedOut: 0),
            .init(outcome: "resolved", pattern: "recipes://category/soups/recipe/:id", links: 1, backedOut: 1),
            .init(outcome: "unmatched", pattern: "recipes://promo/winter", links: 1, backedOut: 0),
        ])
        var recorded = DeepLinksQuery(keepsRecords: true)
        try ViewStream.read(path, events: { event, app, state in recorded.consume(event, app: app, stateAfter: state) }) { _ in }
        let records = recorded.finalize().records
        #expect(records.map(\.backedOut) == [true, false, false])
        #expect(records.map(\.depth) == [2, 1, 0])
        let export = Export(table: .deeplinks, format: .csv, redactions: [.urls], salt: "pepper")
        let line = export.line(records[0])
        let (category, soups, word, r13) = (export.redacted("category")!, export.redacted("soups")!, export.redacted("recipe")!,
                                            export.redacted("r13")!)
        #expect(line == "a,main,3,2026-11-29T10:00:01.000Z,recipes://\(category)/\(soups)/\(word)/\(r13)?\(export.redacted("?utm=mail")!),"
                + "recipes://\(category)/\(soups)/\(word)/:id,resolved,2,true", "\(line)")
        #expect(DeepLinksQuery.pattern("app://u/42/posts/7#top") == "app://u/:id/posts/:id")
        #expect(DeepLinksQuery.pattern("not a url") == "not a url")
    }

    @Test("a URL is cut at its delimiter bytes, a slash before a combining mark too, in patterns and redaction alike")
    func urlsAreCutAtTheirDelimiterBytes() {
        // "/\u{301}" is one grapheme cluster: cutting at Characters would not see the slash.
        let url = "app://item/\u{301}42?x=1"
        #expect(DeepLinksQuery.pattern(url) == "app://item/:id")
        let parts = URLParts(url)
        #expect(parts.origin == "app://" && parts.segments == ["item", "\u{301}42"] && parts.rest == "?x=1")
        let https = URLParts("HTTPS://u:p@example.com/a/\u{301}/b#f")
        #expect(https.origin == "HTTPS://example.com/" && https.segments == ["a", "\u{301}", "b"] && https.rest == "#f")
        #expect(URLParts("1ab://x/y").origin == nil, "a scheme begins with a letter")
        let redactor = Redactor(salt: "pepper")
        #expect(redactor.urlKeepingPattern(url).split(separator: "/").count == 3)
    }

    @Test func filtersKeepOnlyTheViewsAsked() throws {
        let path = try Self.log(Self.sample)
        #expect(try Self.views(path, AnalyticsFilter(apps: ["1.1"])).map(\.session).allSatisfy { $0 == "b" })
        #expect(try Self.views(path, AnalyticsFilter(sessions: ["a"])).count == 4)
        let since = Timestamp(millisecondsSince1970: Self.base + 40_000), until = Timestamp(millisecondsSince1970: Self.base + 101_000)
        #expect(try Self.views(path, AnalyticsFilter(since: since, until: until)).map(\.screen) == ["reviews", "recipe", "home"])
        #expect(try Self.views(path, AnalyticsFilter(scenes: ["other"])).isEmpty)
        let all = try Self.views(path)
        #expect(try Self.views(path, AnalyticsFilter(until: until)).count == all.filter { $0.start < until }.count)
        #expect(AnalyticsFilter().admitsEverything)
        let each = [AnalyticsFilter(since: since), AnalyticsFilter(until: until), AnalyticsFilter(apps: ["1.1"]),
                    AnalyticsFilter(sessions: ["a"]), AnalyticsFilter(scenes: ["other"])]
        #expect(each.allSatisfy { !$0.admitsEverything })
    }

    /// A view that ended before it began (the clock went back) counts as a view with a dwell of 0
    /// in every query and in the export, and the stream counts such views.
    @Test func aViewThatEndedBeforeItBeganCountsWithADwellOfZeroAndIsCounted() throws {
        let path = try Self.log([
            (0, "a", .sessionStart(app: "1.0", launch: .cold, meta: nil)),
            (0, "a", .sceneOpen(scene: "main", kind: nil)),
            (0, "a", .tabSelect(scene: "main", tab: "home")),
            (10, "a", .push(scene: "main", stack: "home", route: Self.route("recipe", "1"))),
            (4, "a", .push(scene: "main", stack: "home", route: Self.route("reviews", "1"))),   // the clock went back 6 s
            (9, "a", .pop(scene: "main", stack: "home", count: 1)),
            (12, "a", .sessionEnd(reason: nil)),
        ])
        let views = try Self.views(path)
        #expect(views.map(\.screen) == ["home", "recipe", "reviews", "recipe"])
        #expect(views.map(\.dwellMilliseconds) == [10_000, 0, 5000, 3000])
        #expect(views.map(\.clockWentBack) == [false, true, false, false])
        for threads in [1, 2] {
            let run = try ViewStream.run(ScreensQuery(), over: path, mode: .tolerateTornTail, filter: AnalyticsFilter(), cleaning: PathCleaning(),
                                         idle: nil, threads: threads, chunkedFrom: 0)
            #expect(run.clockWentBack == 1)
            let recipe = run.result.first { $0.screen == "recipe" }
            #expect(recipe?.views == 2 && recipe?.dwellTotal == 3000 && recipe?.dwellMedian == 0, "\(String(describing: recipe))")
        }
        let tabs = try ViewStream.run(TabsQuery(), over: path).result.rows
        #expect(tabs.map(\.dwellMilliseconds) == [18_000])
        var export = Export(table: .screenViews, format: .csv)
        let lines = views.compactMap { export.line(for: $0) }
        #expect(lines[1].split(separator: ",")[11] == "0", "dwell_ms 0: \(lines[1])")
    }

    @Test func exportWritesTheDocumentedColumnsAndRedactsIdsWithAStableSaltedHash() throws {
        let views = try Self.views(try Self.log(Self.sample))
        var export = Export(table: .screenViews, format: .csv, redactions: [.ids], salt: "pepper")
        #expect(export.header == "session,scene,tab,stack,screen,id,depth,entered_by,start_seq,start_ts,end_ts,dwell_ms,background_ms,crashed,in_sheet")
        _ = export.line(for: views[0])
        let line = export.line(for: views[1]) ?? ""
        let hash = "h:" + String(SHA256.digest(Array("pepper\u{0}1".utf8)).hex.prefix(16))
        #expect(line == "a,main,home,home,recipe,\(hash),1,push,4,2026-11-29T10:00:10.000Z,2026-11-29T10:00:40.000Z,30000,0,false,false")
        #expect(export.line(for: views[3])?.contains(hash) == true, "the same id hashes the same")
        var dropped = Export(table: .screenViews, format: .ndjson, redactions: [.ids])
        #expect(dropped.line(for: views[1])?.contains(#""id":null"#) == true, "without a salt ids are dropped")
        var transitions = Export(table: .transitions, format: .csv)
        let lines = views.compactMap { transitions.line(for: $0) }
        #expect(lines.first == "a,main,2,home,recipe,3,4")
        #expect(lines.count == 5, "one per pair of consecutive views in a path")
    }
}

@Suite struct FunnelTests {
    /// One session's views of the given screens at the given minutes.
    static func views(_ session: String, _ steps: [(String, Int64)]) -> [AnalyticsView] {
        var tracker = ScreenViewTracker()
        var seq = 0
        var result: [AnalyticsView] = []
        func event(_ minute: Int64, _ action: NavigationAction) {
            seq += 1
            let ts = Timestamp(millisecondsSince1970: QueryTests.base + minute * 60_000)
            result += tracker.consume(NavigationEvent(seq: seq, timestamp: ts, session: session, action: action)).ended.map { AnalyticsView($0, app: nil) }
        }
        event(0, .sceneOpen(scene: "main", kind: nil))
        for (screen, minute) in steps {
            // Each step its own instance, so that a screen repeated is a new view.
            event(minute, .setPath(scene: "main", stack: "main", path: [Route(screen: screen, id: "\(minute)")], cause: .programmatic))
        }
        event(steps.last!.1 + 1, .sessionEnd(reason: nil))
        return result.filter { $0.screen != "root" }
    }

    static func run(_ query: FunnelQuery, _ sessions: [[AnalyticsView]]) -> [FunnelQuery.Row] {
        var query = query
        for views in sessions { for view in views { query.add(view) } }
        return query.finalize()
    }

    @Test func theFirstEntryStopsAtBWhereAnyEntryConvertsWithinAnHour() {
        // A at 1:00, A at 1:30, B at 1:45, C at 2:15; a one-hour window.
        let session = Self.views("s", [("A", 60), ("A", 90), ("B", 105), ("C", 135)])
        let first = Self.run(FunnelQuery(steps: ["A", "B", "C"], entry: .first, window: .seconds(3600)), [session])
        #expect(first.map(\.sessions) == [1, 1, 0])
        #expect(first[1].medianMilliseconds == Int64(45 * 60_000), "B came 45 min after the first A")
        let any = Self.run(FunnelQuery(steps: ["A", "B", "C"], entry: .any, window: .seconds(3600)), [session])
        #expect(any.map(\.sessions) == [1, 1, 1])
        #expect(any.map(\.medianMilliseconds) == [Int64(0), Int64(15 * 60_000), Int64(45 * 60_000)], "timed from the A at 1:30")
    }

    @Test func theModesDifferInWhatMayComeBetweenAndInWhatOrder() {
        let between = Self.views("s1", [("A", 1), ("X", 2), ("B", 3), ("C", 4)])   // X between A and B
        let reversed = Self.views("s2", [("A", 1), ("C", 2), ("B", 3)])             // C before B
        let direct = Self.views("s3", [("A", 1), ("B", 2), ("C", 3)])
        let never = Self.views("s4", [("B", 1), ("C", 2)])                          // no A
        let sessions = [between, reversed, direct, never]
        let ordered = Self.run(FunnelQuery(steps: ["A", "B", "C"], mode: .ordered), sessions)
        #expect(ordered.map(\.sessions) == [3, 3, 2])
        #expect(ordered.map(\.dropOff) == [0, 0, 1])
        #expect(ordered[2].conversionFromFirst == 6_667, "2 of 3 in basis points, rounded half up")
        let strict = Self.run(FunnelQuery(steps: ["A", "B", "C"], mode: .strict), sessions)
        #expect(strict.map(\.sessions) == [3, 1, 1], "X breaks s1 before B; s2 has C right after A; only s3 goes on")
        let any = Self.run(FunnelQuery(steps: ["A", "B", "C"], mode: .any), sessions)
        #expect(any.map(\.sessions) == [3, 3, 3])
        #expect(any[2].p90Milliseconds == Int64(3 * 60_000), "s1 completes C at 4 min, 3 min after A at 1")
    }

    @Test func aStepOutsideTheWindowIsNotReached() {
        let late = Self.views("s", [("A", 0), ("B", 90)])
        #expect(Self.run(FunnelQuery(steps: ["A", "B"], window: .seconds(3600)), [late]).map(\.sessions) == [1, 0])
        #expect(Self.run(FunnelQuery(steps: ["A", "B"], window: .seconds(5400)), [late]).map(\.sessions) == [1, 1], "the window's end is included")
    }
}

@Suite struct CleaningAndIdleTests {
    @Test func aGapEqualToTheIdleTimeoutSplitsTheSessionAndTheViewsResume() throws {
        // Session a: home at 0 s, recipe at 10 s, nothing until 70 s (a 60 s gap), reviews at 70 s.
        let path = try QueryTests.log([
            (0, "a", .sceneOpen(scene: "main", kind: nil)),
            (0, "a", .tabSelect(scene: "main", tab: "home")),
            (10, "a", .push(scene: "main", stack: "home", route: QueryTests.route("recipe", "1"))),
            (70, "a", .push(scene: "main", stack: "home", route: QueryTests.route("reviews", "1"))),
            (80, "a", .sessionEnd(reason: nil)),
        ])
        var split: [AnalyticsView] = []
        try ViewStream.read(path, idle: .seconds(60)) { split.append($0) }
        #expect(split.map(\.session) == ["a", "a", "a#2"])
        #expect(split.map(\.screen) == ["home", "recipe", "reviews"])
        #expect(split[1].end == split[1].start, "the recipe view before the gap ends at the last event before it, and is kept")
        var kept: [AnalyticsView] = []
        try ViewStream.read(path, idle: .milliseconds(60_001)) { kept.append($0) }
        #expect(kept.map(\.session) == ["a", "a", "a"], "a gap shorter than the timeout does not split")
        #expect(kept[1].dwellMilliseconds == 60_000)
    }

    @Test func aliasesRewriteScreenNamesInOrderBeforeAnythingElse() throws {
        let cleaning = try PathCleaning(rules: ["^recipe-[0-9]+$=recipe", "^(recipe|reviews)$=content"])
        let clean = cleaning.cleaner()
        #expect(clean("recipe-42") == "content")
        #expect(clean("reviews") == "content")
        #expect(clean("home") == "home")
        #expect(throws: NavigationHistoryError.self) { try PathCleaning(rules: ["no-equals-sign"]) }
        #expect(throws: NavigationHistoryError.self) { try PathCleaning(rules: ["([=x"]) }
    }

    @Test func aSessionIdUsedAgainLaterIsAnotherSessionAndIdleSplitsKeepTheirSessionFilter() throws {
        let path = try QueryTests.log([
            (0, "S", .sceneOpen(scene: "main", kind: nil)),
            (1, "S", .push(scene: "main", stack: "main", route: QueryTests.route("recipe", "1"))),
            (2, "T", .sessionStart(app: nil, launch: .cold, meta: nil)),
            (2, "T", .sceneOpen(scene: "main", kind: nil)),
            (3, "T", .push(scene: "main", stack: "main", route: QueryTests.route("home"))),
            (4, "S", .sessionStart(app: nil, launch: .cold, meta: nil)),
            (4, "S", .sceneOpen(scene: "main", kind: nil)),
            (5, "S", .push(scene: "main", stack: "main", route: QueryTests.route("recipe", "2"))),
            (100, "S", .push(scene: "main", stack: "main", route: QueryTests.route("reviews", "2"))),
            (101, "S", .sessionEnd(reason: nil)),
        ])
        var views: [AnalyticsView] = []
        try ViewStream.read(path) { views.append($0) }
        #expect(Set(views.map(\.session)) == ["S", "T", "S#2"])
        var screens = ScreensQuery()
        var transitions = TransitionsQuery()
        for view in views { screens.add(view); transitions.add(view) }
        #expect(screens.finalize().first { $0.screen == "recipe" }?.sessions == 2, "\(views.map { "\($0.session):\($0.screen)" })")
        #expect(!transitions.finalize().contains { $0.from == "home" && $0.to == "root" }, "no path across sessions")
        var split: [AnalyticsView] = []
        try ViewStream.read(path, filter: AnalyticsFilter(sessions: ["S"]), idle: .seconds(60)) { split.append($0) }
        #expect(Set(split.map(\.session)) == ["S", "S#2", "S#3"], "--session keeps every part of the session")
    }

    @Test func viewsEndedByTheNextRunOfTheirSessionIdKeepTheirOwnRunsAppVersion() throws {
        let path = try QueryTests.log([
            (0, "S", .sessionStart(app: "1.0", launch: .cold, meta: nil)),
            (0, "S", .sceneOpen(scene: "main", kind: nil)),
            (1, "S", .push(scene: "main", stack: "main", route: QueryTests.route("recipe", "1"))),
            (5, "S", .sessionStart(app: "2.0", launch: .cold, meta: nil)),   // the 1.0 run crashed
            (5, "S", .sceneOpen(scene: "main", kind: nil)),
            (6, "S", .push(scene: "main", stack: "main", route: QueryTests.route("home"))),
            (9, "S", .sessionEnd(reason: nil)),
        ])
        var old: [AnalyticsView] = [], new: [AnalyticsView] = []
        try ViewStream.read(path, filter: AnalyticsFilter(apps: ["1.0"])) { old.append($0) }
        try ViewStream.read(path, filter: AnalyticsFilter(apps: ["2.0"])) { new.append($0) }
        #expect(old.map(\.screen) == ["root", "recipe"] && old.allSatisfy { $0.session == "S" && $0.app == "1.0" },
                "\(old.map { "\($0.session):\($0.screen):\($0.app ?? "-")" })")
        #expect(old.last?.crashed == true)
        #expect(new.map(\.screen) == ["root", "home"] && new.allSatisfy { $0.session == "S#2" && $0.app == "2.0" },
                "\(new.map { "\($0.session):\($0.screen):\($0.app ?? "-")" })")
    }
}
