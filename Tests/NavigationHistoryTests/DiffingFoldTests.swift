import Testing
@testable import NavigationHistory
import NavigationSimulation

/// The diffing fold says of each event what `StateDiff` finds between the states around it, and
/// folds them as the fold does.
@Suite struct DiffingFoldTests {
    /// Events over a few scenes, stacks and sheets, whose ids overlap (a sheet named as a tab),
    /// with anomalies, snapshots, restores, deep links, unknown types and new sessions among them.
    static func hostileEvents(_ count: Int, seed: UInt64) -> [NavigationEvent] {
        var random = SeededRandom(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let scenes = ["main", "w2", "w3"], stacks = ["home", "search", "main", "share"], sheets = ["share", "help", "filters"]
        func route() -> Route {
            Route(screen: pick(["recipe", "home", "reviews", "share"]), id: random.chance(0.7) ? pick(["1", "2", "3"]) : nil,
                  params: random.chance(0.1) ? ["tab": pick(["a", "b"])] : nil)
        }
        func path() -> [Route] { (0..<Int(random.next() % 4)).map { _ in route() } }
        var state = NavigationState()
        var events: [NavigationEvent] = []
        var session = 1
        for seq in 1...count {
            let scene = pick(scenes), stack = pick(stacks)
            let action: NavigationAction
            switch random.next() % 100 {
            case 0..<3:
                session += 1
                action = .sessionStart(app: nil, launch: .cold, meta: nil)
            case 3..<5: action = .sessionEnd(reason: nil)
            case 5..<12: action = .sceneOpen(scene: scene, kind: nil)
            case 12..<15: action = .sceneClose(scene: scene, kind: nil)
            case 15..<18: action = .sceneActivate(scene: scene)
            case 18..<24: action = .tabSelect(scene: scene, tab: pick(stacks))
            case 24..<45: action = .push(scene: scene, stack: stack, route: route())
            case 45..<53: action = .pop(scene: scene, stack: stack, count: 1 + Int(random.next() % 3))
            case 53..<56: action = .popToRoot(scene: scene, stack: stack)
            case 56..<61: action = .replace(scene: scene, stack: stack, route: route())
            case 61..<66: action = .setPath(scene: scene, stack: stack, path: path(), cause: .programmatic)
            case 66..<70:
                action = .deeplink(scene: scene, url: "app://x", outcome: pick([.resolved, .partial, .unmatched]),
                                   tab: random.chance(0.5) ? pick(stacks) : nil, stack: random.chance(0.5) ? stack : nil,
                                   path: random.chance(0.8) ? path() : nil)
            case 70..<78: action = .sheetPresent(scene: scene, sheet: pick(sheets), route: route(), style: nil)
            case 78..<85: action = .sheetDismiss(scene: scene, sheet: random.chance(0.5) ? pick(sheets) : nil)
            case 85..<89: action = .splitSelect(scene: scene, column: pick([.sidebar, .content]), route: random.chance(0.8) ? route() : nil)
            case 89..<91: action = .splitVisibility(scene: scene, visibility: pick([.all, .detailOnly]))
            case 91..<94: action = .snapshot(state: state)
            case 94..<97:
                var restored = state
                if let first = restored.scenes.keys.sorted().first { restored.scenes[first]?.stacks["home"] = path() }
                action = .restore(state: restored, from: max(1, seq - 5), dropped: [])
            default: action = .unknown(type: "x.custom", members: random.chance(0.5) ? [JSONMember("scene", .string(scene))] : [])
            }
            let event = NavigationEvent(seq: seq, timestamp: Timestamp(millisecondsSince1970: 1_800_000_000_000 + Int64(seq)),
                                        session: "s\(session)", action: action)
            Projection.fold(&state, event)
            events.append(event)
        }
        return events
    }

    static func check(_ events: [NavigationEvent]) {
        var folded = NavigationState()
        var diffing = DiffingFold(NavigationState())
        var kinds: Set<String> = []
        for event in events {
            let before = folded
            let anomaly = Projection.fold(&folded, event)
            let step = diffing.fold(event)
            let expected = StateDiff(from: before, to: folded).changes
            #expect(step.anomaly == anomaly, "seq \(event.seq)")
            #expect(diffing.after == folded && diffing.before == before, "seq \(event.seq)")
            #expect(step.changes == expected, "seq \(event.seq): \(event.action)")
            guard step.changes == expected else { return }
            for change in expected { kinds.insert(String(describing: change).split(separator: " ").dropFirst().first.map(String.init) ?? "") }
        }
        #expect(kinds.count > 5, "many kinds of change: \(kinds)")
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func eachStepsChangesAreTheDiffOfTheStatesAroundItInHostileLogs(seed: UInt64) {
        Self.check(Self.hostileEvents(6000, seed: seed))
    }

    @Test(arguments: [1, 2] as [UInt64])
    func eachStepsChangesAreTheDiffOfTheStatesAroundItInGeneratedLogs(seed: UInt64) {
        Self.check(generatedEvents(6000, seed: seed))
    }

    @Test func aSheetNamedAsAStackHasItsOwnStackChanged() {
        let ts = Timestamp(millisecondsSince1970: 1_800_000_000_000)
        let actions: [NavigationAction] = [
            .sceneOpen(scene: "main", kind: nil), .push(scene: "main", stack: "share", route: Route(screen: "a")),
            .sheetPresent(scene: "main", sheet: "share", route: Route(screen: "share"), style: nil),
            .push(scene: "main", stack: "share", route: Route(screen: "contacts")),
            .setPath(scene: "main", stack: "share", path: [Route(screen: "contacts"), Route(screen: "b")], cause: .programmatic),
        ]
        Self.check(actions.enumerated().map { NavigationEvent(seq: $0 + 1, timestamp: ts, session: "s", action: $1) })
    }
}
