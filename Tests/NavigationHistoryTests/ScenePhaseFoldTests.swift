import Testing
@testable import NavigationHistory

/// What a `scene.phase` event does to the state, by the fold.
@Suite struct ScenePhaseFoldTests {
    static let opened: [NavigationAction] = [.sessionStart(app: nil, launch: .cold, meta: nil), .sceneOpen(scene: "main", kind: nil)]

    @Test func aSceneOpensActiveAndTakesEachPhaseItIsGiven() {
        var (state, anomalies) = ProjectionTests.fold(Self.opened)
        #expect(state.scenes["main"]?.phase == .active)
        for phase in [ScenePhase.inactive, .background, .active, .background] {
            (state, anomalies) = ProjectionTests.fold(Self.opened + [.scenePhase(scene: "main", phase: phase)])
            #expect(anomalies.isEmpty)
            #expect(state.scenes["main"]?.phase == phase)
        }
    }

    @Test func thePhaseOfASceneThatIsNotOpenIsAnAnomalyAndChangesNothing() {
        let (before, _) = ProjectionTests.fold(Self.opened)
        let (after, anomalies) = ProjectionTests.fold(Self.opened + [.scenePhase(scene: "other", phase: .background)])
        #expect(anomalies.map(\.kind) == [.sceneNotOpen])
        #expect(after == before)
    }

    @Test func theSamePhaseAgainIsNoChange() {
        let once = Self.opened + [.scenePhase(scene: "main", phase: .background)]
        let (state, anomalies) = ProjectionTests.fold(once + [.scenePhase(scene: "main", phase: .background)])
        #expect(anomalies.isEmpty)
        #expect(state == ProjectionTests.fold(once).0)
        let diff = StateDiff(from: ProjectionTests.fold(once).0, to: state)
        #expect(diff.isEmpty)
    }

    static func json(_ state: NavigationState) -> String {
        var writer = JSONWriter()
        writer.state(state)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func aStateWritesItsPhaseOnlyWhenNotActiveAndReadsItBack() throws {
        var state = ProjectionTests.fold(Self.opened).0
        let active = Self.json(state)
        #expect(!active.contains("phase"))
        state.scenes["main"]!.phase = .background
        let background = Self.json(state)
        #expect(background.contains(#""phase":"background""#))
        let line = #"{"v":1,"seq":3,"ts":"2026-11-29T12:00:00.000Z","session":"s","type":"snapshot","state":"# + background + "}"
        let event = try decode(line)
        #expect(event.action == .snapshot(state: state))
    }

    @Test func aPhaseChangeIsOneChangeOfTheDiff() {
        let (before, _) = ProjectionTests.fold(Self.opened)
        let (after, _) = ProjectionTests.fold(Self.opened + [.scenePhase(scene: "main", phase: .inactive)])
        #expect(StateDiff(from: before, to: after).changes == [.phase(scene: "main", from: .active, to: .inactive)])
        #expect(StateDiff(from: before, to: after).changes.map(\.description) == ["main: phase active → inactive"])
    }
}
