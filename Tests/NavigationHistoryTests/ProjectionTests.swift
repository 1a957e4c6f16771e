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
