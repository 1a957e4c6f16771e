import Foundation
import Testing
import NavigationHistory
import NavigationRouting
import RecipeApp
import TestSupport

typealias Screen = RecipeApp.Screen

/// A log directory for one test, removed at its end.
final class TemporaryLog {
    private let scratch: ScratchDirectory
    var path: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    /// The log's events, snapshots left out.
    func events() throws -> [NavigationEvent] {
        var events: [NavigationEvent] = []
        let report = try LogReader(path: path, mode: .absolute).read { event in
            if case .snapshot = event.action { return }
            events.append(event)
        }
        #expect(report.isClean)
        return events
    }
}

@MainActor @Suite(.serialized) struct RouterTests {
    @Test func everyMutationRecordsExactlyOneEventOfTheRightKind() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none), session: "s1")
        let router = Router<Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
        router.start(app: "1.0")
        router.open(scene: "main")
        router.select(tab: "home")
        router.push(.category("desserts"))
        router.push(.recipe("apple-pie"))
        router.replace(with: .recipe("carrot-cake"))
        router.pop()
        router.present(sheet: "settings", .settings, style: .popover)
        router.push(.notifications)
        router.dismiss(sheet: "settings")
        router.select(.recipe("lemonade"), column: .content)
        router.setSplitVisibility(.detailOnly)
        router.popToRoot()
        router.open(url: "recipes://category/soups")
        router.activate(scene: "main")
        router.setPhase(.inactive)
        router.end(reason: "terminate")
        try await recorder.close()
        let recorded = try log.events().map(\.action)
        #expect(recorded == [
            .sessionStart(app: "1.0", launch: .cold, meta: nil),
            .sceneOpen(scene: "main", kind: nil),
            .tabSelect(scene: "main", tab: "home"),
            .push(scene: "main", stack: "home", route: Route(screen: "category", id: "desserts")),
            .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "apple-pie")),
            .replace(scene: "main", stack: "home", route: Route(screen: "recipe", id: "carrot-cake")),
            .pop(scene: "main", stack: "home", count: 1),
            .sheetPresent(scene: "main", sheet: "settings", route: Route(screen: "settings"), style: .popover),
            .push(scene: "main", stack: "settings", route: Route(screen: "notifications")),
            .sheetDismiss(scene: "main", sheet: "settings"),
            .splitSelect(scene: "main", column: .content, route: Route(screen: "recipe", id: "lemonade")),
            .splitVisibility(scene: "main", visibility: .detailOnly),
            .popToRoot(scene: "main", stack: "home"),
            .deeplink(scene: "main", url: "recipes://category/soups", outcome: .resolved, tab: "home", stack: "home",
                      path: [Route(screen: "category", id: "soups")]),
            .sceneActivate(scene: "main"),
            .scenePhase(scene: "main", phase: .inactive),
            .sessionEnd(reason: "terminate"),
        ])
        #expect(router.anomalies.isEmpty)
        var replayed = NavigationState()
        for event in try log.events() { Projection.fold(&replayed, event) }
        #expect(replayed == router.state, "the router's state is what replaying its log gives")
    }

    @Test func aWholePathWriteBecomesTheEventItMeans() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none))
        let router = Router<Screen>(recorder: recorder)
        router.open(scene: "main")
        router.select(tab: "home")
        let full: [Screen] = [.category("desserts"), .recipe("apple-pie"), .reviews(recipe: "apple-pie", sort: "top")]
        router.setPath(full, for: "home")                                   // from empty: a setPath
        router.setPath(Array(full.prefix(1)), for: "home")                  // a swipe back over two: one pop of 2
        router.setPath([.category("desserts"), .recipe("lemonade")], for: "home")   // one more: a push
        router.setPath([.category("desserts"), .recipe("carrot-cake")], for: "home")   // the top changed: a replace
        router.setPath([.category("desserts"), .recipe("carrot-cake")], for: "home")   // unchanged: nothing
        router.setPath([.category("soups")], for: "home")                   // anything else: a setPath
        try await recorder.close()
        let types = try log.events().map(\.type)
        #expect(types == ["scene.open", "tab.select", "setPath", "pop", "push", "replace", "setPath"])
        #expect(try log.events()[3].action == .pop(scene: "main", stack: "home", count: 2))
        #expect(router.path(for: "home") == [.category("soups")])
    }

    @Test func aRelaunchRestoresEverySceneTabAndSheetAndRecordsTheRestore() async throws {
        let log = try TemporaryLog()
        var before = NavigationState()
        do {
            let recorder = try await Recorder(directory: log.path, session: "first")
            let router = Router<Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
            router.start(app: "1.0")
            RecipeApp.scriptedSession(router)
            router.open(scene: "window-2", kind: "window")
            router.select(tab: "search", in: "window-2")
            router.push(.recipe("lemonade"), in: "window-2")
            router.present(sheet: "settings", .settings, in: "window-2")
            before = router.state
            try await recorder.close()   // no session.end: the app was killed
        }
        let recorder = try await Recorder(directory: log.path, session: "second")
        let restorer = Restorer(options: .init(resolve: { Screen($0) != nil }, knowsScreen: Screen.knows(screen:), currentSession: "second"))
        let result = try restorer.restore(from: log.path)
        #expect(result.guardFired == nil)
        #expect(result.sessionEnding == .unclean && result.session == "first")
        let router = Router<Screen>(recorder: recorder)
        router.start(app: "1.0", restoring: result)
        #expect(router.state == before)
        #expect(router.path(for: "home") == [.category("soups"), .recipe("pumpkin-soup"), .recipe("carrot-cake")])
        #expect(router.path(for: "home", in: "window-2").isEmpty)
        #expect(router.path(for: "search", in: "window-2") == [.recipe("lemonade")])
        #expect(router.sheets(in: "window-2").map(\.id) == ["settings"])
        try await recorder.close()
        let second = try log.events().filter { $0.session == "second" }.map(\.action)
        #expect(second.count == 2)
        #expect(second.first == .sessionStart(app: "1.0", launch: .cold, meta: nil))
        guard case .restore(let state, let from, let dropped)? = second.last else { Issue.record("no restore event"); return }
        #expect(state == before && dropped.isEmpty)
        #expect(from == (try log.events().last { $0.session == "first" }?.seq))
    }

    @Test func aPhaseIsRecordedOnlyWhenItChanges() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none))
        let router = Router<Screen>(recorder: recorder)
        router.open(scene: "main")
        router.setPhase(.active)                 // a scene opens active: nothing
        router.setPhase(.inactive)
        router.setPhase(.inactive)               // the same again: nothing
        router.setPhase(.background)
        router.setPhase(.inactive)
        router.setPhase(.active)
        #expect(router.state.scenes["main"]?.phase == .active)
        try await recorder.close()
        let phases = try log.events().compactMap { event -> ScenePhase? in
            if case .scenePhase("main", let phase) = event.action { return phase }
            return nil
        }
        #expect(phases == [.inactive, .background, .inactive, .active])
        #expect(router.anomalies.isEmpty)
    }

    @Test func aTabIsRecordedOnlyWhenItChangesAndOneOfASceneNotOpenIsAnAnomaly() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none))
        let router = Router<Screen>(recorder: recorder)
        router.open(scene: "main")
        router.select(tab: "home")
        router.select(tab: "home")               // the same again: nothing
        router.select(tab: "search")
        router.select(tab: "home")
        router.select(tab: "home", in: "gone")   // no scene: an anomaly, recorded as any
        try await recorder.close()
        let tabs = try log.events().compactMap { event -> String? in
            if case .tabSelect(let scene, let tab) = event.action { return "\(scene)/\(tab)" }
            return nil
        }
        #expect(tabs == ["main/home", "main/search", "main/home", "gone/home"])
        #expect(router.anomalies.count == 1)
    }

    @Test func aPhaseOfAnotherSceneChangesOnlyThatSceneAndOneNotOpenIsAnAnomaly() async throws {
        let router = Router<Screen>(recorder: nil)
        router.open(scene: "main")
        router.open(scene: "window-2")
        router.setPhase(.background, in: "window-2")
        #expect(router.state.scenes["window-2"]?.phase == .background)
        #expect(router.state.scenes["main"]?.phase == .active)
        router.setPhase(.inactive, in: "gone")
        #expect(router.anomalies.count == 1, "as any action on a scene that is not open")
        #expect(router.state.scenes["gone"] == nil)
    }

    @Test func anAppKilledInTheBackgroundEndedItsSessionInTheBackgroundAndIsRestoredActive() async throws {
        let log = try TemporaryLog()
        var before = NavigationState()
        do {
            let recorder = try await Recorder(directory: log.path, session: "first")
            let router = Router<Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
            router.start(app: "1.0")
            RecipeApp.scriptedSession(router)
            RecipeApp.goToBackground(router)
            #expect(router.state.scenes["main"]?.phase == .background)
            before = router.state
            try await recorder.close()   // killed in the background: no session.end
        }
        var state = NavigationState()
        var ending = SessionEnding()
        let events = try log.events()
        #expect(!events.contains { if case .sessionEnd = $0.action { true } else { false } }, "backgrounding records no session.end")
        for event in events {
            Projection.fold(&state, event)
            ending.see(event, stateAfter: state)
        }
        #expect(ending.end(over: true) == .background)
        let recorder = try await Recorder(directory: log.path, session: "second")
        let restorer = Restorer(options: .init(resolve: { Screen($0) != nil }, knowsScreen: Screen.knows(screen:), currentSession: "second"))
        let result = try restorer.restore(from: log.path)
        #expect(result.guardFired == nil)
        let router = Router<Screen>(recorder: recorder)
        router.start(app: "1.0", restoring: result)
        try await recorder.close()
        var expected = before
        expected.scenes["main"]?.phase = .active   // a restore begins a new launch
        #expect(router.state == expected)
        #expect(router.path(for: "home") == [.category("soups"), .recipe("pumpkin-soup"), .recipe("carrot-cake")])
    }

    @Test(arguments: [Restorer.Policy.truncateAtFirstMissing, .dropMissing])
    func routesWhoseItemsWereDeletedAreDroppedAsThePolicySays(policy: Restorer.Policy) async throws {
        let log = try TemporaryLog()
        let store = RecipeApp.Store(recipes: ["a", "b", "c"])
        do {
            let recorder = try await Recorder(directory: log.path, session: "first")
            let router = Router<Screen>(recorder: recorder)
            router.open(scene: "main")
            router.select(tab: "home")
            router.setPath([.category("x"), .recipe("a"), .recipe("b"), .recipe("c")], for: "home")
            router.present(sheet: "share", .recipe("b"))
            router.present(sheet: "settings", .settings)
            try await recorder.close()
        }
        store.delete(recipe: "b")
        let restorer = Restorer(options: .init(policy: policy, resolve: { route in
            route.screen != "recipe" || route.id.map(store.exists(recipe:)) == true
        }))
        let result = try restorer.restore(from: log.path)
        let scene = try #require(result.state.scenes["main"])
        switch policy {
        case .truncateAtFirstMissing:
            #expect(scene.stacks["home"] == [Route(screen: "category", id: "x"), Route(screen: "recipe", id: "a")])
        case .dropMissing:
            #expect(scene.stacks["home"] == [Route(screen: "category", id: "x"), Route(screen: "recipe", id: "a"), Route(screen: "recipe", id: "c")])
        }
        #expect(scene.sheets.isEmpty, "a sheet whose root is gone goes, with the sheets above it")
        #expect(result.dropped.contains(Route(screen: "recipe", id: "b")))
        #expect(result.dropped.contains(Route(screen: "settings")))
    }

    @Test(arguments: [
        ("recipes://category/soups/recipe/pumpkin-soup", DeepLinkOutcome.resolved, 2),
        ("RECIPES://category/soups/recipe/pumpkin-soup?utm=x#top", .resolved, 2),
        ("recipes://category/soups/recipe/gone", .partial, 1),
        ("recipes://category/caf%C3%A9", .resolved, 1),
        ("recipes://category/", .unmatched, 0),
        ("recipes://nothing/here", .unmatched, 0),
        ("other://category/soups", .unmatched, 0),
        ("recipes://category/%zz", .unmatched, 0),
        ("recipes://category/%", .unmatched, 0),
        ("recipes://category/%ff%fe", .unmatched, 0),
        ("recipes:/category/soups", .unmatched, 0),
        ("", .unmatched, 0),
        ("://category/soups", .unmatched, 0),
    ])
    func deepLinksResolvePartlyResolveOrDoNotMatchAndNeverCrash(url: String, outcome: DeepLinkOutcome, routes: Int) {
        let match = RecipeApp.deepLinks.match(url)
        #expect(match.outcome == outcome)
        #expect(match.routes.count == routes)
    }

    @Test func anOverlongDeepLinkIsUnmatchedAndRecordedCutToTheLimit() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none))
        let router = Router<Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
        router.open(scene: "main")
        let long = "recipes://category/" + String(repeating: "a", count: 3000)
        #expect(router.open(url: long) == .unmatched)
        #expect(router.open(url: "recipes://category/soups/recipe/gone") == .partial)
        try await recorder.close()
        let links = try log.events().compactMap { event -> (String, DeepLinkOutcome, [Route]?)? in
            if case .deeplink(_, let url, let outcome, _, _, let path) = event.action { return (url, outcome, path) }
            return nil
        }
        #expect(links.map(\.1) == [.unmatched, .partial])
        #expect(links[0].0.utf8.count == 2048)
        #expect(links[1].2 == [Route(screen: "category", id: "soups")])
        #expect(router.path(for: "home") == [.category("soups")])
    }
}

@MainActor @Suite struct RouterReviewTests {
    @Test func anActionTheLogCannotHoldIsNeitherAppliedNorRecorded() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none))
        let router = Router<Screen>(recorder: recorder)
        router.open(scene: "main")
        router.select(tab: "")
        #expect(router.selectedTab() == nil)
        #expect(router.model.refusals.count == 1)
        var huge = NavigationState(active: "main", scenes: ["main": SceneState(tab: "home")])
        huge.scenes["main"]!.stacks["home"] = (0..<2000).map { Route(screen: "recipe", id: "recipe-number-\($0)-with-a-long-id") }
        let result = Restorer.Result(state: huge, from: 1, dropped: [], guardFired: nil, session: "x", sessionEnding: .unclean)
        #expect(!router.restore(result), "a restore too big for one line is refused: the app starts at the root")
        #expect(router.model.refusals.count == 2)
        #expect(router.state.scenes["main"]?.stacks["home"] == nil)
        try await recorder.close()
        #expect(try log.events().map(\.type) == ["scene.open"])
        #expect(await recorder.status.refused == 0, "nothing refused reached the recorder")
    }

    @Test func aPushAfterWhichTheStateWouldBeTooBigForASnapshotIsNeitherAppliedNorRecorded() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none))
        let router = Router<Screen>(recorder: recorder)
        router.start(app: "1.0")
        router.open(scene: "main")
        router.select(tab: "home")
        let notes = String(repeating: "n", count: 3000)
        var pushed = 0
        while router.model.refusals.isEmpty, pushed < 100 {
            router.push(.category(notes + "\(pushed)"))
            pushed += 1
        }
        let refusal = try #require(router.model.refusals.first)
        #expect(refusal.code == .invalidEvent && refusal.message.contains("snapshot"), "\(refusal)")
        #expect(router.path(for: "home").count == pushed - 1, "the refused push is not applied")
        router.pop()
        router.push(.category("desserts"))
        #expect(router.model.refusals.count == 1, "a small push fits again after a pop")
        try await recorder.close()
        let events = try log.events()
        #expect(events.filter { $0.type == "push" }.count == pushed)
        #expect(await recorder.status.refused == 0, "nothing refused reached the recorder")
        var state = NavigationState()
        for event in events { Projection.fold(&state, event) }
        #expect(state == router.state)
    }

    @Test func aDeepLinkThatResolvesNothingLeavesTheStackAndLongURLsAreCutByBytes() async throws {
        let log = try TemporaryLog()
        let recorder = try await Recorder(directory: log.path, options: .init(durability: .none))
        var links = DeepLinkTable<Screen>()
        links.add("recipes://recipe/:id", tab: "home") { captures in [Screen(screen: "recipe", id: captures["id"], params: nil)] }
        let router = Router<Screen>(recorder: recorder, deepLinks: links)
        router.open(scene: "main")
        router.select(tab: "home")
        router.push(.category("desserts"))
        #expect(router.open(url: "recipes://recipe/gone") == .partial)
        #expect(router.path(for: "home") == [.category("desserts")], "a partial link with nothing resolved leaves the stack")
        let combining = "recipes://x" + String(repeating: "\u{301}", count: 5000)
        #expect(router.open(url: combining) == .unmatched)
        try await recorder.close()
        let urls = try log.events().compactMap { event -> String? in
            if case .deeplink(_, let url, _, _, _, _) = event.action { return url }
            return nil
        }
        #expect(urls.count == 2)
        #expect(urls[1].utf8.count <= 2048, "cut by UTF-8 bytes, at a scalar")
        #expect(router.model.refusals.isEmpty)
    }
}
