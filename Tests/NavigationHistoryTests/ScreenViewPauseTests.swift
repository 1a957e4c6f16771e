import Testing
@testable import NavigationHistory

/// Where views pause and end when scenes go to the background at different moments, when the route
/// changes in the background, and when the clock goes back there.
@Suite struct ScreenViewPauseTests {
    typealias L = ScreenViewLifecycleTests
    static let start = [L.event(1, 0, .sessionStart(app: nil, launch: .cold, meta: nil)), L.event(2, 0, .sceneOpen(scene: "main", kind: nil))]
    static let cook = Route(screen: "cook", id: "1")

    /// The events' time, `ms` after the test's epoch.
    static func at(_ ms: Int64) -> Int64 { L.event(0, ms, .sessionEnd(reason: nil)).timestamp.millisecondsSince1970 }

    static func time(_ view: ScreenView) -> Int64 { view.end.millisecondsSince1970 - view.start.millisecondsSince1970 }

    @Test func aBackgroundEndEndsEachScenesViewWhenThatSceneWentThereAndNotAtTheLastEvent() {
        let (views, endings) = L.run(Self.start + [
            L.event(3, 1_000, .push(scene: "main", stack: "main", route: L.recipe)),
            L.event(4, 2_000, .sceneOpen(scene: "side", kind: nil)),
            L.event(5, 3_000, .push(scene: "side", stack: "main", route: Self.cook)),
            L.event(6, 10_000, .scenePhase(scene: "main", phase: .background)),
            L.event(7, 25_000, .scenePhase(scene: "side", phase: .background)),
            L.event(8, 90_000_000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
        ])
        #expect(endings == [.background, .open])
        let recipe = views.first { $0.screen.route == L.recipe }!, cook = views.first { $0.screen.route == Self.cook }!
        #expect(recipe.end.millisecondsSince1970 == Self.at(10_000) && recipe.endSeq == 6, "main's view ends when main went to the background")
        #expect(cook.end.millisecondsSince1970 == Self.at(25_000) && cook.endSeq == 7, "side's, when side did")
        #expect(!recipe.crashed && !cook.crashed)
        #expect(recipe.backgroundMilliseconds == 0 && recipe.dwellMilliseconds == 9_000)
    }

    @Test func aRouteChangedInTheBackgroundEndsTheViewThereAndTheNextBeginsPaused() {
        let (views, endings) = L.run(Self.start + [
            L.event(3, 1_000, .push(scene: "main", stack: "main", route: L.recipe)),
            L.event(4, 5_000, .scenePhase(scene: "main", phase: .background)),
            L.event(5, 65_000, .push(scene: "main", stack: "main", route: Self.cook)),   // a notification's handler
            L.event(6, 125_000, .scenePhase(scene: "main", phase: .active)),
            L.event(7, 130_000, .sessionEnd(reason: nil)),
        ])
        #expect(endings == [.clean])
        let recipe = views.first { $0.screen.route == L.recipe }!, cook = views.first { $0.screen.route == Self.cook }!
        #expect(recipe.end.millisecondsSince1970 == Self.at(65_000))
        #expect(recipe.dwellMilliseconds == 4_000 && recipe.backgroundMilliseconds == 60_000)
        #expect(cook.start.millisecondsSince1970 == Self.at(65_000))
        #expect(cook.backgroundMilliseconds == 60_000 && cook.dwellMilliseconds == 5_000)
        for view in [recipe, cook] { #expect(view.dwellMilliseconds + view.backgroundMilliseconds == Self.time(view)) }
    }

    @Test func scenesInDifferentPhasesPauseApartAndACrashWithOneInTheForegroundIsACrash() {
        let (views, endings) = L.run(Self.start + [
            L.event(3, 1_000, .push(scene: "main", stack: "main", route: L.recipe)),
            L.event(4, 2_000, .sceneOpen(scene: "side", kind: nil)),
            L.event(5, 3_000, .push(scene: "side", stack: "main", route: Self.cook)),
            L.event(6, 10_000, .scenePhase(scene: "side", phase: .background)),
            L.event(7, 40_000, .pop(scene: "main", stack: "main", count: 1)),
            L.event(8, 90_000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
        ])
        #expect(endings == [.unclean, .open])
        let recipe = views.first { $0.screen.route == L.recipe }!, cook = views.first { $0.screen.route == Self.cook }!
        #expect(recipe.dwellMilliseconds == 39_000 && recipe.backgroundMilliseconds == 0 && !recipe.crashed)
        #expect(cook.crashed && cook.end.millisecondsSince1970 == Self.at(40_000))
        #expect(cook.backgroundMilliseconds == 30_000 && cook.dwellMilliseconds == 7_000)
    }

    @Test func aViewThatBeginsWhileItsSceneIsInTheBackgroundBeginsPaused() {
        let (views, _) = L.run(Self.start + [
            L.event(3, 1_000, .scenePhase(scene: "main", phase: .background)),
            L.event(4, 2_000, .sceneOpen(scene: "late", kind: nil)),
            L.event(5, 2_000, .scenePhase(scene: "late", phase: .background)),
            L.event(6, 9_000, .scenePhase(scene: "late", phase: .active)),
            L.event(7, 9_500, .push(scene: "late", stack: "main", route: Self.cook)),
            L.event(8, 10_000, .scenePhase(scene: "main", phase: .active)),
            L.event(9, 12_000, .sessionEnd(reason: nil)),
        ])
        let mainRoot = views.first { $0.scene == "main" }!, lateRoot = views.first { $0.scene == "late" }!
        #expect(mainRoot.backgroundMilliseconds == 9_000 && mainRoot.dwellMilliseconds == 3_000)
        #expect(lateRoot.backgroundMilliseconds == 7_000 && lateRoot.dwellMilliseconds == 500)
    }

    @Test func theClockGoingBackInTheBackgroundAddsNoDwellAndNoNegativeBackground() {
        let (views, _) = L.run(Self.start + [
            L.event(3, 10_000, .push(scene: "main", stack: "main", route: L.recipe)),
            L.event(4, 20_000, .scenePhase(scene: "main", phase: .background)),
            L.event(5, -3_600_000, .scenePhase(scene: "main", phase: .active)),   // an hour before
            L.event(6, -3_570_000, .sessionEnd(reason: nil)),
        ])
        let recipe = views.first { $0.screen.route == L.recipe }!
        #expect(recipe.backgroundMilliseconds == 0)
        #expect(recipe.clockWentBack && recipe.dwellMilliseconds == 0)
    }

    @Test func anIdleGapEndsAPausedPartWhenItPausedAndThePartEndedInTheBackground() {
        var tracker = ScreenViewTracker()
        var views: [ScreenView] = []
        for event in Self.start + [L.event(3, 1_000, .push(scene: "main", stack: "main", route: L.recipe)),
                                   L.event(4, 5_000, .scenePhase(scene: "main", phase: .background))] {
            views += tracker.consume(event).ended
        }
        #expect(tracker.endOfPart == .background)
        let next = L.event(5, 7_200_000, .scenePhase(scene: "main", phase: .active))
        views += tracker.resume(before: next)
        views += tracker.consume(next).ended
        views += tracker.consume(L.event(6, 7_260_000, .sessionEnd(reason: nil))).ended
        let recipe = views.filter { $0.screen.route == L.recipe }
        #expect(recipe.count == 2)
        #expect(recipe[0].end.millisecondsSince1970 == Self.at(5_000) && recipe[0].backgroundMilliseconds == 0, "the part ends when it paused")
        #expect(recipe[1].start.millisecondsSince1970 == Self.at(7_200_000) && recipe[1].dwellMilliseconds == 60_000)
    }

    @Test func aLogThatBeginsAtASnapshotInTheBackgroundKeepsWhatItTold() {
        var background = SceneState(stacks: ["main": [L.recipe]])
        background.phase = .background
        let (views, endings) = L.run([
            L.event(40, 0, .snapshot(state: NavigationState(active: "main", scenes: ["main": background]))),
            L.event(41, 1_000, .sceneActivate(scene: "main")),
            L.event(42, 5_000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
        ])
        #expect(endings == [.background, .open])
        #expect(views.allSatisfy { !$0.crashed })
    }

    @Test func aPhaseOfASceneThatIsNotOpenTellsNothingOfHowTheSessionEnded() {
        let (_, endings) = L.run(Self.start + [
            L.event(3, 1_000, .scenePhase(scene: "ghost", phase: .background)),
            L.event(4, 2_000, .sceneClose(scene: "main", kind: nil)),
            L.event(5, 3_000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
        ])
        #expect(endings == [.unclean, .open])
    }

    @Test func aRestoreThatBringsAScenesPhaseBackResumesItsView() {
        let (views, _) = L.run(Self.start + [
            L.event(3, 1_000, .push(scene: "main", stack: "main", route: L.recipe)),
            L.event(4, 2_000, .scenePhase(scene: "main", phase: .background)),
            L.event(5, 62_000, .restore(state: NavigationState(active: "main", scenes: ["main": SceneState(stacks: ["main": [L.recipe]])]),
                                        from: 3, dropped: [])),
            L.event(6, 63_000, .sessionEnd(reason: nil)),
        ])
        let recipe = views.filter { $0.screen.route == L.recipe }
        #expect(recipe.count == 1)
        #expect(recipe[0].backgroundMilliseconds == 60_000 && recipe[0].dwellMilliseconds == 2_000)
    }
}
