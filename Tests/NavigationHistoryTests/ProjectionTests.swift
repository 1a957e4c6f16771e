import Testing
@testable import NavigationHistory

@Suite struct ProjectionTests {
    static let ts = Timestamp("2026-11-29T12:00:00.000Z")!
    static func fold(_ actions: [NavigationAction]) -> (NavigationState, [Projection.Anomaly]) {
        var state = NavigationState()
        var anomalies = [Projection.Anomaly]()
        for (i, action) in actions.enumerated() {
            if let anomaly = Projection.fold(&state, NavigationEvent(seq: i + 1, timestamp: ts, session: "s", action: action)) {
                anomalies.append(anomaly)
            }
        }
        return (state, anomalies)
    }

    @Test func tabsKeepTheirOwnStacksAndSheetsTheirOwn() {
        let (state, anomalies) = Self.fold([
            .sessionStart(app: nil, launch: .cold, meta: nil), .sceneOpen(scene: "main", kind: nil),
            .tabSelect(scene: "main", tab: "home"), .push(scene: "main", stack: "home", route: Route(screen: "category", id: "d")),
            .tabSelect(scene: "main", tab: "search"), .push(scene: "main", stack: "search", route: Route(screen: "results")),
            .sheetPresent(scene: "main", sheet: "filters", route: Route(screen: "filters"), style: nil),
            .push(scene: "main", stack: "filters", route: Route(screen: "filterDetail")),
            .tabSelect(scene: "main", tab: "home"),
        ])
        #expect(anomalies.isEmpty)
        let scene = state.scenes["main"]!
        #expect(scene.tab == "home")
        #expect(scene.stacks == ["home": [Route(screen: "category", id: "d")], "search": [Route(screen: "results")]])
        #expect(scene.sheets == [Sheet(id: "filters", root: Route(screen: "filters"), stack: [Route(screen: "filterDetail")])])
        #expect(state.active == "main")
    }

    @Test func routesKeepTheirIdsAndParamsOnStacksAndSheets() {
        let pushed = Route(screen: "results", id: "q1", params: ["sort": "top"])
        let replacing = Route(screen: "results", id: "q2", params: ["sort": "recent", "page": "2"])
        let onSheet = Route(screen: "filterDetail", id: "f", params: ["mode": "advanced"])
        let sheetRoot = Route(screen: "filters", id: nil, params: ["from": "results"])
        let (state, anomalies) = Self.fold([
            .sessionStart(app: nil, launch: .cold, meta: nil), .sceneOpen(scene: "main", kind: nil),
            .tabSelect(scene: "main", tab: "search"),
            .push(scene: "main", stack: "search", route: pushed), .push(scene: "main", stack: "search", route: pushed),
            .replace(scene: "main", stack: "search", route: replacing),
            .push(scene: "main", stack: "other", route: pushed),
            .sheetPresent(scene: "main", sheet: "filters", route: sheetRoot, style: nil),
            .push(scene: "main", stack: "filters", route: onSheet),
        ])
        #expect(anomalies.isEmpty)
        let scene = state.scenes["main"]!
        #expect(scene.stacks == ["search": [pushed, replacing], "other": [pushed]])
        #expect(scene.sheets == [Sheet(id: "filters", root: sheetRoot, stack: [onSheet])])
    }

    /// The fold remembers where it last found a scene and a stack; whatever changes them from
    /// outside must not leave it looking in the wrong place (or trap on a stale index).
    @Test func theFoldFindsScenesAndStacksAgainAfterTheyAreChangedFromOutside() {
        func push(_ state: inout NavigationState, _ scene: String, _ stack: String, _ screen: String) {
            #expect(Projection.fold(&state, NavigationEvent(seq: 1, timestamp: Self.ts, session: "s",
                                                            action: .push(scene: scene, stack: stack, route: Route(screen: screen)))) == nil)
        }
        var (state, _) = Self.fold([.sceneOpen(scene: "main", kind: nil), .tabSelect(scene: "main", tab: "home")])
        push(&state, "main", "home", "a")
        // Removed and added again among many others, which moves it in a rehashed dictionary.
        state.scenes["main"] = nil
        for i in 0..<40 { state.scenes["w\(i)"] = SceneState() }
        state.scenes["main"] = SceneState(tab: "home", stacks: ["home": [Route(screen: "x")]])
        push(&state, "main", "home", "b")
        #expect(state.scenes["main"]?.stacks["home"] == [Route(screen: "x"), Route(screen: "b")])
        // A scene's stacks replaced, and one removed in place.
        state.scenes["main"]!.stacks = ["search": [Route(screen: "y")], "home": []]
        push(&state, "main", "search", "c")
        state.scenes["main"]!.stacks["search"] = nil
        for i in 0..<40 { state.scenes["main"]!.stacks["t\(i)"] = [] }
        push(&state, "main", "search", "d")
        #expect(state.scenes["main"]?.stacks["search"] == [Route(screen: "d")])
        #expect(state.scenes["main"]?.stacks["home"] == [])
        // A copy folds on its own; the original keeps what it had.
        var copy = state
        push(&copy, "main", "search", "e")
        push(&state, "main", "home", "f")
        #expect(copy.scenes["main"]?.stacks["search"] == [Route(screen: "d"), Route(screen: "e")])
        #expect(copy.scenes["main"]?.stacks["home"] == [])
        #expect(state.scenes["main"]?.stacks["search"] == [Route(screen: "d")])
        #expect(state.scenes["main"]?.stacks["home"] == [Route(screen: "f")])
    }

    /// A scene or stack is found by comparing ids among a few, by hashing them among many: either
    /// way an id equal as a string finds it, however it is made or spelled.
    @Test(arguments: [2, 12])
    func scenesAndStacksAreFoundByIdsEqualAsStrings(others: Int) {
        let long = String(repeating: "tab-with-a-long-id-", count: 2)   // not a short string: compared by its bytes
        var actions: [NavigationAction] = [.sessionStart(app: nil, launch: .cold, meta: nil)]
        for k in 0..<others { actions.append(.sceneOpen(scene: "w\(k)", kind: nil)) }
        actions.append(.sceneOpen(scene: "caf\u{E9}", kind: nil))
        for k in 0..<others { actions.append(.tabSelect(scene: "caf\u{E9}", tab: "t\(k)")) }
        actions += [
            .tabSelect(scene: "cafe\u{301}", tab: long),
            .tabSelect(scene: "caf\u{E9}", tab: "t0"),
            .push(scene: "cafe\u{301}", stack: String(long.reversed().reversed()), route: Route(screen: "a")),
            .push(scene: "caf\u{E9}", stack: "sold-cre\u{300}me", route: Route(screen: "b")),
            .push(scene: "cafe\u{301}", stack: "sold-cr\u{E8}me", route: Route(screen: "c")),
            .pop(scene: "caf\u{E9}", stack: "sold-cr\u{E8}me", count: 1),
        ]
        let (state, anomalies) = Self.fold(actions)
        #expect(anomalies.isEmpty)
        #expect(state.scenes.count == others + 1)
        let scene = state.scenes["caf\u{E9}"]
        #expect(scene?.stacks.count == others + 2)
        #expect(scene?.stacks[long] == [Route(screen: "a")])
        #expect(scene?.stacks["sold-cr\u{E8}me"] == [Route(screen: "b")])
    }

    @Test func statesThatHoldTheSameAreEqualHoweverTheyWereReached() {
        let (folded, _) = Self.fold([
            .sceneOpen(scene: "main", kind: nil), .tabSelect(scene: "main", tab: "home"),
            .push(scene: "main", stack: "home", route: Route(screen: "a")),
        ])
        let built = NavigationState(active: "main", scenes: ["main": SceneState(tab: "home", stacks: ["home": [Route(screen: "a")]])])
        #expect(folded == built)
        #expect(folded.hashValue == built.hashValue)
        #expect(Set([folded, built]).count == 1)
        #expect(folded != NavigationState(active: "main", scenes: ["main": SceneState(tab: "home", stacks: ["home": []])]))
    }

    @Test func actionsThatDoNotFitAreAnomaliesAndLeaveTheStateUnchanged() {
        let open: [NavigationAction] = [.sceneOpen(scene: "main", kind: nil)]
        let (state, anomalies) = Self.fold(open + [
            .pop(scene: "main", stack: "home", count: 1), .replace(scene: "main", stack: "home", route: Route(screen: "x")),
            .push(scene: "closed", stack: "home", route: Route(screen: "x")), .sheetDismiss(scene: "main", sheet: nil),
            .sheetDismiss(scene: "main", sheet: "nope"), .sceneClose(scene: "other", kind: nil),
        ])
        #expect(anomalies.map(\.kind) == [.popBeyondRoot, .replaceOnEmptyStack, .sceneNotOpen, .noSheet, .noSheet, .sceneNotOpen])
        #expect(anomalies.map(\.seq) == [2, 3, 4, 5, 6, 7])
        #expect(state == NavigationState(active: "main", scenes: ["main": SceneState()]))
    }

    @Test func deepLinksSelectTheTabAndSetThePathAtomically() {
        let (state, _) = Self.fold([
            .sceneOpen(scene: "main", kind: nil), .tabSelect(scene: "main", tab: "search"),
            .deeplink(scene: "main", url: "r://x", outcome: .resolved, tab: "home", stack: "home", path: [Route(screen: "a"), Route(screen: "b")]),
            .deeplink(scene: "main", url: "r://y", outcome: .unmatched, tab: "search", stack: "home", path: []),
        ])
        #expect(state.scenes["main"]?.tab == "home")
        #expect(state.scenes["main"]?.stacks["home"] == [Route(screen: "a"), Route(screen: "b")])
    }

    @Test func dismissingASheetDismissesEverySheetAboveIt() {
        let (state, _) = Self.fold([
            .sceneOpen(scene: "main", kind: nil),
            .sheetPresent(scene: "main", sheet: "a", route: Route(screen: "a"), style: nil),
            .sheetPresent(scene: "main", sheet: "b", route: Route(screen: "b"), style: nil),
            .sheetPresent(scene: "main", sheet: "c", route: Route(screen: "c"), style: nil),
            .sheetDismiss(scene: "main", sheet: "b"),
        ])
        #expect(state.scenes["main"]?.sheets.map(\.id) == ["a"])
    }

    @Test func closingTheActiveSceneClearsActiveAndANewSessionClearsScenes() {
        let (closed, _) = Self.fold([.sceneOpen(scene: "a", kind: nil), .sceneOpen(scene: "b", kind: nil), .sceneClose(scene: "b", kind: nil)])
        #expect(closed.active == nil && closed.scenes.keys.sorted() == ["a"])
        let (fresh, _) = Self.fold([.sceneOpen(scene: "a", kind: nil), .sessionStart(app: nil, launch: .warm, meta: nil)])
        #expect(fresh == NavigationState())
    }
}
