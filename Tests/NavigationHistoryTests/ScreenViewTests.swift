import Testing
@testable import NavigationHistory

@Suite struct ScreenViewTests {
    static func event(_ seq: Int, _ ms: Int64, _ action: NavigationAction, session: String = "s1") -> NavigationEvent {
        NavigationEvent(seq: seq, timestamp: Timestamp(millisecondsSince1970: 1_800_000_000_000 + ms), session: session, action: action)
    }

    @Test func theVisibleScreenFollowsTheFormatsOrderOfPrecedence() {
        var scene = SceneState()
        #expect(scene.visibleScreen.route == Route(screen: "root"))
        #expect(scene.visibleScreen.source == .root)
        scene.tab = "home"
        #expect(scene.visibleScreen.route == Route(screen: "home"), "a root is named by the selected tab")
        scene.split = SplitState(sidebar: Route(screen: "folders"))
        #expect(scene.visibleScreen.route == Route(screen: "folders"))
        scene.split?.content = Route(screen: "recipe", id: "1")
        #expect(scene.visibleScreen == VisibleScreen(route: Route(screen: "recipe", id: "1"), source: .splitContent, stack: nil, depth: 0, sheets: 0),
                "the content column over the sidebar")
        scene.stacks["home"] = [Route(screen: "category", id: "d"), Route(screen: "recipe", id: "2")]
        #expect(scene.visibleScreen == VisibleScreen(route: Route(screen: "recipe", id: "2"), source: .stack, stack: "home", depth: 2, sheets: 0))
        scene.stacks["main"] = [Route(screen: "ignored")]
        #expect(scene.visibleScreen.stack == "home", "the selected tab's stack, not main")
        scene.sheets = [Sheet(id: "share", root: Route(screen: "share")), Sheet(id: "help", root: Route(screen: "help"))]
        #expect(scene.visibleScreen == VisibleScreen(route: Route(screen: "help"), source: .sheet, stack: "help", depth: 0, sheets: 2))
        scene.sheets[1].stack = [Route(screen: "topic", id: "t")]
        #expect(scene.visibleScreen.route == Route(screen: "topic", id: "t"))
        #expect(scene.visibleScreen.depth == 1)
        var single = SceneState()
        single.stacks["main"] = [Route(screen: "detail")]
        #expect(single.visibleScreen.stack == "main", "main when no tab is selected")
    }

    @Test func viewsBeginWhenTheVisibleRouteChangesAndTransientOnesAreNotCounted() {
        var tracker = ScreenViewTracker()
        var views: [ScreenView] = []
        let events = [
            Self.event(1, 0, .sessionStart(app: "1", launch: .cold, meta: nil)),
            Self.event(2, 0, .sceneOpen(scene: "main", kind: nil)),             // root, superseded in the same ms
            Self.event(3, 0, .tabSelect(scene: "main", tab: "home")),
            Self.event(4, 1000, .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "1"))),
            Self.event(5, 1500, .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "1", params: ["a": "b"]))),
            Self.event(6, 3000, .tabSelect(scene: "main", tab: "search")),
            Self.event(7, 4000, .tabSelect(scene: "main", tab: "home")),
            Self.event(8, 9000, .sessionEnd(reason: nil)),
        ]
        for event in events { views += tracker.consume(event).ended }
        #expect(views.map(\.screen.route.screen) == ["home", "recipe", "search", "recipe"])
        #expect(views.map(\.enteredBy) == ["tab.select", "push", "tab.select", "tab.select"])
        #expect(views.map(\.dwellMilliseconds) == [1000, 2000, 1000, 5000], "params do not begin a new view")
        #expect(views.map(\.startSeq) == [3, 4, 6, 7])
        #expect(views.allSatisfy { !$0.crashed })
        #expect(views[1].screen.depth == 1 && views[3].screen.depth == 2)
        #expect(tracker.finish().views.isEmpty)
    }

    @Test func aViewThatEndsBeforeItBeganCountsWithADwellOfZero() {
        var tracker = ScreenViewTracker()
        var views: [ScreenView] = []
        for event in [
            Self.event(1, 0, .sessionStart(app: nil, launch: .cold, meta: nil)),
            Self.event(2, 0, .sceneOpen(scene: "main", kind: nil)),
            Self.event(3, 1000, .push(scene: "main", stack: "main", route: Route(screen: "recipe"))),
            Self.event(4, 400, .push(scene: "main", stack: "main", route: Route(screen: "reviews"))),   // the clock went back
            Self.event(5, 400, .push(scene: "main", stack: "main", route: Route(screen: "photo"))),     // transient
            Self.event(6, 900, .sessionEnd(reason: nil)),
        ] { views += tracker.consume(event).ended }
        #expect(views.map(\.screen.route.screen) == ["root", "recipe", "photo"], "the transient reviews is not counted; recipe is")
        #expect(views.map(\.dwellMilliseconds) == [1000, 0, 500])
        #expect(views.map(\.clockWentBack) == [false, true, false])
        #expect(views[1].start.millisecondsSince1970 - views[1].end.millisecondsSince1970 == 600, "its times are the events'")
    }

    @Test func aSessionWithoutAnEndEndsItsViewsAtItsLastEventAsCrashed() {
        var tracker = ScreenViewTracker()
        var views: [ScreenView] = []
        for event in [
            Self.event(1, 0, .sceneOpen(scene: "main", kind: nil)),
            Self.event(2, 500, .push(scene: "main", stack: "main", route: Route(screen: "recipe"))),
            Self.event(3, 700, .sceneOpen(scene: "w2", kind: "window")),
            Self.event(4, 800, .sceneClose(scene: "w2", kind: nil)),
            Self.event(5, 2000, .push(scene: "main", stack: "main", route: Route(screen: "reviews"))),
            Self.event(6, 2000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
            Self.event(7, 9000, .sceneOpen(scene: "main", kind: nil), session: "s2"),
            Self.event(8, 9500, .sceneActivate(scene: "main"), session: "s2"),
        ] { views += tracker.consume(event).ended }
        #expect(views.map { "\($0.scene):\($0.screen.route.screen)" } == ["main:root", "w2:root", "main:recipe", "main:reviews"])
        #expect(views.map(\.crashed) == [false, false, false, true], "a crashed view counts even at 0 ms")
        #expect(views[1].endSeq == 4, "a scene's close ends its view")
        let (open, lastSession) = tracker.finish()
        #expect(open.map(\.scene) == ["main"])
        #expect(open.first?.crashed == false)
        #expect(open.first?.dwellMilliseconds == 500, "ended at the log's last event")
        #expect(lastSession == .open)
    }

    @Test func aSnapshotStampedWithTheNextSessionDoesNotBeginItNorCrashTheViewsBefore() {
        var tracker = ScreenViewTracker()
        var views: [ScreenView] = []
        var state = NavigationState()
        let events: [NavigationEvent] = [
            Self.event(1, 0, .sceneOpen(scene: "main", kind: nil), session: "a"),
            Self.event(2, 1000, .push(scene: "main", stack: "main", route: Route(screen: "recipe", id: "1")), session: "a"),
            Self.event(3, 5000, .sessionEnd(reason: nil), session: "a"),
        ]
        for event in events {
            views += tracker.consume(event).ended
            Projection.fold(&state, event)
        }
        // The store's periodic snapshot carries the session of the event after it: b's start.
        views += tracker.consume(Self.event(4, 9000, .snapshot(state: state), session: "b")).ended
        views += tracker.consume(Self.event(5, 9000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "b")).ended
        views += tracker.consume(Self.event(6, 9000, .sceneOpen(scene: "main", kind: nil), session: "b")).ended
        #expect(views.allSatisfy { !$0.crashed }, "\(views.map { "\($0.session):\($0.screen.route.screen):\($0.crashed)" })")
        #expect(views.map(\.session) == ["a", "a"])
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func viewsWithoutDetailsAreTheDetailedViewsWithTheirDetailsLeftOut(seed: UInt64) {
        var detailed = ScreenViewTracker(), bare = ScreenViewTracker(detailed: false)
        var expected: [ScreenView] = [], views: [ScreenView] = []
        func leftOut(_ view: ScreenView) -> ScreenView {
            var view = view
            view.tab = nil
            view.enteredBy = ""
            view.screen.stack = nil
            view.screen.route.params = nil
            return view
        }
        for (k, event) in generatedEvents(20_000, seed: seed).enumerated() {
            if k % 997 == 0 {   // an idle gap's resume now and then, as analytics do
                expected += detailed.resume(before: event).map(leftOut)
                views += bare.resume(before: event)
            }
            expected += detailed.consume(event).ended.map(leftOut)
            views += bare.consume(event).ended
        }
        expected += detailed.finish().views.map(leftOut)
        views += bare.finish().views
        #expect(views.count == expected.count)
        let first = views.indices.first { $0 < expected.count && views[$0] != expected[$0] }
        #expect(first == nil, "view \(first ?? 0): \(first.map { "\(views[$0])" } ?? "") for \(first.map { "\(expected[$0])" } ?? "")")
        #expect(expected.contains { $0.screen.sheets > 0 } && expected.contains { $0.screen.source == .splitContent }, "every kind of screen")
    }
}
