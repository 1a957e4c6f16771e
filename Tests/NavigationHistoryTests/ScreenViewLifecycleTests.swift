import Testing
@testable import NavigationHistory

/// Views pause in the background: dwell is foreground time, and a termination in the background is
/// not a crash (event format v1, "The visible screen" and "Lifecycle").
@Suite struct ScreenViewLifecycleTests {
    static func event(_ seq: Int, _ ms: Int64, _ action: NavigationAction, session: String = "s1") -> NavigationEvent {
        ScreenViewTests.event(seq, ms, action, session: session)
    }

    static let recipe = Route(screen: "recipe", id: "1")

    /// Feeds `events` to a tracker: the views they ended, then those `finish` ended, and how the
    /// sessions ended, in order.
    static func run(_ events: [NavigationEvent]) -> (views: [ScreenView], endings: [SessionEnd]) {
        var tracker = ScreenViewTracker()
        var views: [ScreenView] = [], endings: [SessionEnd] = []
        for event in events {
            views += tracker.consume(event).ended
            if let ended = tracker.endedSession { endings.append(ended.ending) }
        }
        let (last, ending) = tracker.finish()
        views += last
        if let ending { endings.append(ending) }
        return (views, endings)
    }

    @Test func aViewThatPausesAndResumesIsOneViewWhoseDwellAndBackgroundMakeItsTime() {
        let (views, endings) = Self.run([
            Self.event(1, 0, .sessionStart(app: nil, launch: .cold, meta: nil)),
            Self.event(2, 0, .sceneOpen(scene: "main", kind: nil)),
            Self.event(3, 1_000, .push(scene: "main", stack: "main", route: Self.recipe)),
            Self.event(4, 3_000, .scenePhase(scene: "main", phase: .background)),
            Self.event(5, 8_043_000, .scenePhase(scene: "main", phase: .active)),   // 2 h 14 min later
            Self.event(6, 8_050_000, .pop(scene: "main", stack: "main", count: 1)),
            Self.event(7, 8_051_000, .sessionEnd(reason: nil)),
        ])
        #expect(endings == [.clean])
        let recipe = views.filter { $0.screen.route == Self.recipe }
        #expect(recipe.count == 1, "going to the background and back begins no new view")
        let view = recipe[0]
        #expect(view.backgroundMilliseconds == 8_040_000)
        #expect(view.dwellMilliseconds == 2_000 + 7_000)
        #expect(view.dwellMilliseconds + view.backgroundMilliseconds == view.end.millisecondsSince1970 - view.start.millisecondsSince1970)
        #expect(!view.crashed)
    }

    @Test func aSessionTerminatedInTheBackgroundEndsItsViewWhenTheSceneWentThereNotCrashed() {
        let (views, endings) = Self.run([
            Self.event(1, 0, .sessionStart(app: nil, launch: .cold, meta: nil)),
            Self.event(2, 0, .sceneOpen(scene: "main", kind: nil)),
            Self.event(3, 1_000, .push(scene: "main", stack: "main", route: Self.recipe)),
            Self.event(4, 5_000, .scenePhase(scene: "main", phase: .background)),
            Self.event(5, 9_000_000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
        ])
        #expect(endings == [.background, .open])
        let view = views.last { $0.session == "s1" }!
        #expect(view.screen.route == Self.recipe)
        #expect(!view.crashed)
        #expect(view.end.millisecondsSince1970 == ScreenViewTests.event(0, 5_000, .sessionEnd(reason: nil)).timestamp.millisecondsSince1970,
                "it ends when its scene went to the background")
        #expect(view.dwellMilliseconds == 4_000 && view.backgroundMilliseconds == 0)
    }

    @Test func aCrashAfterComingBackFromTheBackgroundIsACrash() {
        let (views, endings) = Self.run([
            Self.event(1, 0, .sessionStart(app: nil, launch: .cold, meta: nil)),
            Self.event(2, 0, .sceneOpen(scene: "main", kind: nil)),
            Self.event(3, 1_000, .push(scene: "main", stack: "main", route: Self.recipe)),
            Self.event(4, 2_000, .scenePhase(scene: "main", phase: .background)),
            Self.event(5, 62_000, .scenePhase(scene: "main", phase: .active)),
            Self.event(6, 65_000, .tabSelect(scene: "main", tab: "home")),
            Self.event(7, 99_000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
        ])
        #expect(endings == [.unclean, .open])
        let recipe = views.first { $0.screen.route == Self.recipe }!
        #expect(!recipe.crashed && recipe.dwellMilliseconds == 4_000 && recipe.backgroundMilliseconds == 60_000)
        let last = views.last { $0.session == "s1" }!
        #expect(last.screen.route.screen == "home" && last.crashed, "it ends at the session's last event, crashed")
        #expect(last.dwellMilliseconds == 0 && last.end == last.start)
    }

    @Test func anInactiveSceneIsStillSeenAndCountsAsDwell() {
        let (views, endings) = Self.run([
            Self.event(1, 0, .sessionStart(app: nil, launch: .cold, meta: nil)),
            Self.event(2, 0, .sceneOpen(scene: "main", kind: nil)),
            Self.event(3, 1_000, .push(scene: "main", stack: "main", route: Self.recipe)),
            Self.event(4, 2_000, .scenePhase(scene: "main", phase: .inactive)),
            Self.event(5, 32_000, .scenePhase(scene: "main", phase: .active)),
            Self.event(6, 33_000, .sessionEnd(reason: nil)),
        ])
        #expect(endings == [.clean])
        let view = views.first { $0.screen.route == Self.recipe }!
        #expect(view.dwellMilliseconds == 32_000 && view.backgroundMilliseconds == 0)
    }

    @Test func aSceneStillInactiveAtTheLastEventEndsUncleanAndItsViewCrashed() {
        let (views, endings) = Self.run([
            Self.event(1, 0, .sessionStart(app: nil, launch: .cold, meta: nil)),
            Self.event(2, 0, .sceneOpen(scene: "main", kind: nil)),
            Self.event(3, 1_000, .push(scene: "main", stack: "main", route: Self.recipe)),
            Self.event(4, 2_000, .scenePhase(scene: "main", phase: .inactive)),
            Self.event(5, 9_000, .sessionStart(app: nil, launch: .cold, meta: nil), session: "s2"),
        ])
        #expect(endings == [.unclean, .open])
        let view = views.last { $0.session == "s1" }!
        #expect(view.crashed && view.dwellMilliseconds == 1_000)
    }
}
