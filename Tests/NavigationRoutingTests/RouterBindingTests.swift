import Foundation
import Testing
import NavigationHistory
import NavigationRouting
import NavigationSimulation
import RecipeApp

/// The router's subscripts written through their key paths, as SwiftUI's `@Bindable` writes them
/// (`router[keyPath: \.[path: "home"]] = path`): each write records what the explicit call does,
/// read back from a real log.
@MainActor @Suite(.serialized) struct RouterBindingTests {
    typealias Keys = Router<Screen>

    /// A router recording into a log of its own, with a scene open on the home tab.
    @MainActor final class Recording {
        let log: TemporaryLog
        let recorder: Recorder
        let router: Router<Screen>

        init() async throws {
            log = try TemporaryLog()
            recorder = try await Recorder(directory: log.path, options: .init(durability: .none), session: "s")
            router = Router<Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
            router.start(app: "1.0")
            router.open(scene: "main")
            router.select(tab: "home")
        }

        /// The actions recorded, once the recorder is closed.
        func actions() async throws -> [NavigationAction] {
            try await recorder.close()
            return try log.events().map(\.action)
        }
    }

    /// Writes `value` through `keyPath`, as a binding does.
    func write<Value>(_ router: Router<Screen>, _ keyPath: ReferenceWritableKeyPath<Keys, Value>, _ value: Value) {
        router[keyPath: keyPath] = value
    }

    /// The actions and state of the same steps done once through key paths, once by the calls.
    func compare(_ name: String, bound: (Router<Screen>) -> Void, explicit: (Router<Screen>) -> Void) async throws {
        let a = try await Recording(), b = try await Recording()
        bound(a.router)
        explicit(b.router)
        let (boundActions, explicitActions) = (try await a.actions(), try await b.actions())
        #expect(boundActions == explicitActions, "\(name)")
        #expect(boundActions.count > 3, "\(name): the steps recorded something")
        #expect(a.router.state == b.router.state, "\(name)")
        #expect(a.router.model.refusals.isEmpty && a.router.anomalies.isEmpty, "\(name)")
    }

    @Test func eachKeyPathWriteRecordsWhatItsExplicitCallRecords() async throws {
        try await compare("path", bound: { r in
            write(r, \Keys[path: "home"], [.category("desserts")])
            write(r, \Keys[path: "home"], [.category("desserts"), .recipe("apple-pie")])
            write(r, \Keys[path: "home"], [.category("desserts"), .recipe("lemonade")])
            write(r, \Keys[path: "home"], [.recipe("carrot-cake")])
            write(r, \Keys[path: "home"], [])
        }, explicit: { r in
            r.push(.category("desserts"))
            r.push(.recipe("apple-pie"))
            r.replace(with: .recipe("lemonade"))
            r.setPath([.recipe("carrot-cake")], for: "home")
            r.pop()
        })
        try await compare("tab", bound: { r in
            write(r, \Keys[tab: "main"], "search")
            write(r, \Keys[tab: "main"], "home")
        }, explicit: { r in
            r.select(tab: "search")
            r.select(tab: "home")
        })
        try await compare("sheet", bound: { r in
            write(r, \Keys[sheet: "main"], PresentedSheet(id: "settings", route: .settings))
            write(r, \Keys[sheet: "main"], PresentedSheet(id: "alerts", route: .notifications, style: .fullScreenCover))
            write(r, \Keys[sheet: "main"], nil)
        }, explicit: { r in
            r.present(sheet: "settings", .settings)
            r.present(sheet: "alerts", .notifications, style: .fullScreenCover)
            r.dismiss(sheet: "alerts")
        })
        try await compare("isPresented", bound: { r in
            write(r, \Keys[isPresented: "settings"], true)
            write(r, \Keys[isPresented: "reviews", root: .reviews(recipe: "apple-pie", sort: "new")], true)
            write(r, \Keys[isPresented: "settings"], false)
        }, explicit: { r in
            r.present(sheet: "settings", .settings)
            r.present(sheet: "reviews", .reviews(recipe: "apple-pie", sort: "new"))
            r.dismiss(sheet: "settings")
        })
        try await compare("split", bound: { r in
            write(r, \Keys[selection: .sidebar], .category("soups"))
            write(r, \Keys[selection: .content], .recipe("pumpkin-soup"))
            write(r, \Keys[selection: .content], nil)
            write(r, \Keys[columnVisibility: "main"], .detailOnly)
        }, explicit: { r in
            r.select(.category("soups"), column: .sidebar)
            r.select(.recipe("pumpkin-soup"), column: .content)
            r.select(nil, column: .content)
            r.setSplitVisibility(.detailOnly)
        })
        try await compare("phase", bound: { r in
            write(r, \Keys[phase: "main"], .inactive)
            write(r, \Keys[phase: "main"], .background)
            write(r, \Keys[phase: "main"], .active)
        }, explicit: { r in
            r.setPhase(.inactive)
            r.setPhase(.background)
            r.setPhase(.active)
        })
    }

    @Test func aWriteOfTheValueAlreadyThereRecordsNothing() async throws {
        let recording = try await Recording()
        let r = recording.router
        r.push(.category("desserts"))
        r.present(sheet: "settings", .settings)
        r.select(.category("soups"), column: .sidebar)
        r.setSplitVisibility(.all)
        let before = r.state
        // SwiftUI writes a binding back as it redraws: each of these is the value already there.
        write(r, \Keys[path: "home"], r[path: "home"])
        write(r, \Keys[path: "settings"], r[path: "settings"])
        write(r, \Keys[tab: "main"], r[tab: "main"])
        write(r, \Keys[tab: "main"], "")
        write(r, \Keys[sheet: "main"], r[sheet: "main"])
        write(r, \Keys[isPresented: "settings"], true)
        write(r, \Keys[isPresented: "alerts", root: .notifications], false)
        write(r, \Keys[selection: .sidebar], r[selection: .sidebar])
        write(r, \Keys[selection: .content], nil)
        write(r, \Keys[columnVisibility: "main"], .all)
        write(r, \Keys[phase: "main"], .active)
        #expect(r.state == before)
        let actions = try await recording.actions()
        #expect(actions.count == 7, "start, open, tab, push, present, split select and visibility only: \(actions)")
    }

    @Test func aSwipeBackOfOneScreenThroughThePathRecordsAPopOfOne() async throws {
        let recording = try await Recording()
        let r = recording.router
        r.push(.category("desserts"))
        r.push(.recipe("apple-pie"))
        r.push(.reviews(recipe: "apple-pie", sort: "top"))
        write(r, \Keys[path: "home"], Array(r[path: "home"].dropLast()))
        write(r, \Keys[path: "home"], Array(r[path: "home"].dropLast(2)))
        let actions = try await recording.actions()
        #expect(Array(actions.suffix(2)) == [.pop(scene: "main", stack: "home", count: 1), .pop(scene: "main", stack: "home", count: 2)])
    }

    @Test func aSheetWrittenNilDismissesOnlyTheTopOneAndIsPresentedFalseThoseAboveItToo() async throws {
        let recording = try await Recording()
        let r = recording.router
        r.present(sheet: "settings", .settings)
        r.present(sheet: "alerts", .notifications)
        #expect(r[sheet: "main"] == PresentedSheet(id: "alerts", route: .notifications))
        write(r, \Keys[sheet: "main"], nil)
        #expect(r[sheet: "main"]?.id == "settings", "a swipe down dismisses the top sheet only")
        r.present(sheet: "alerts", .notifications)
        write(r, \Keys[isPresented: "settings"], false)
        #expect(r[sheet: "main"] == nil && !r[isPresented: "alerts"], "dismissing a sheet dismisses those above it")
        r.present(sheet: "settings", .settings)
        r.present(sheet: "alerts", .notifications)
        write(r, \Keys[sheet: "main"], PresentedSheet(id: "settings", route: .settings))
        #expect(r[sheet: "main"]?.id == "settings", "a sheet written again is the top once more, those above it dismissed")
        let actions = try await recording.actions()
        #expect(actions.suffix(5) == [.sheetPresent(scene: "main", sheet: "alerts", route: Route(screen: "notifications"), style: .sheet),
                                      .sheetDismiss(scene: "main", sheet: "settings"),
                                      .sheetPresent(scene: "main", sheet: "settings", route: Route(screen: "settings"), style: .sheet),
                                      .sheetPresent(scene: "main", sheet: "alerts", route: Route(screen: "notifications"), style: .sheet),
                                      .sheetDismiss(scene: "main", sheet: "alerts")])
    }

    @Test func presentingASheetWhoseScreenHasNoRouteWithoutAnIdIsRefusedAndRecordsNothing() async throws {
        let recording = try await Recording()
        let r = recording.router
        write(r, \Keys[isPresented: "recipe"], true)   // a recipe needs an id
        #expect(!r[isPresented: "recipe"])
        #expect(r.model.refusals.count == 1)
        #expect(r.model.refusals.first?.message.contains("router[isPresented: \"recipe\", root: ...]") == true)
        #expect(try await recording.actions().count == 3)
    }

    @Test func everyMemberTakesTheSceneSoTwoWindowsBindApart() async throws {
        let recording = try await Recording()
        let r = recording.router
        r.open(scene: "w2")
        write(r, \Keys[tab: "w2"], "search")
        write(r, \Keys[path: "search", in: "w2"], [.recipe("lemonade")])
        write(r, \Keys[sheet: "w2"], PresentedSheet(id: "settings", route: .settings))
        write(r, \Keys[isPresented: "alerts", root: .notifications, in: "w2"], true)
        write(r, \Keys[selection: .sidebar, in: "w2"], .category("soups"))
        write(r, \Keys[columnVisibility: "w2"], .doubleColumn)
        write(r, \Keys[phase: "w2"], .background)
        #expect(r[tab: "main"] == "home" && r[path: "home"].isEmpty && r[sheet: "main"] == nil && r[selection: .sidebar] == nil)
        #expect(r[columnVisibility: "main"] == .automatic && r[phase: "main"] == .active)
        #expect(r[tab: "w2"] == "search" && r[path: "search", in: "w2"] == [.recipe("lemonade")])
        #expect(r[sheet: "w2"]?.id == "alerts" && r[isPresented: "settings", in: "w2"])
        #expect(r[selection: .sidebar, in: "w2"] == .category("soups") && r[columnVisibility: "w2"] == .doubleColumn)
        #expect(r[phase: "w2"] == .background)
        let actions = try await recording.actions()
        #expect(actions.dropFirst(4).allSatisfy { $0.scene == "w2" }, "\(actions)")
    }

    @Test func aSessionDrivenOnlyThroughKeyPathWritesReplaysToTheSameStates() async throws {
        let recording = try await Recording()
        let r = recording.router
        var random = SeededRandom(seed: 42)
        func pick(_ count: Int) -> Int { Int.random(in: 0..<count, using: &random) }
        let screens: [Screen] = [.category("desserts"), .category("soups"), .recipe("apple-pie"), .recipe("lemonade"),
                                 .reviews(recipe: "apple-pie", sort: "top")]
        var states = [r.state]
        for _ in 0..<400 {
            let stack = r.state.scenes["main"]?.sheets.last?.id ?? r.selectedTab() ?? "home"
            switch pick(9) {
            case 0, 1: write(r, \Keys[path: stack], r[path: stack] + [screens[pick(screens.count)]])
            case 2: write(r, \Keys[path: stack], Array(r[path: stack].dropLast(pick(3))))
            case 3: write(r, \Keys[tab: "main"], ["home", "search", "saved"][pick(3)])
            case 4: write(r, \Keys[sheet: "main"], pick(2) == 0 ? nil : PresentedSheet(id: "s\(pick(3))", route: .settings))
            case 5: write(r, \Keys[isPresented: "settings"], pick(2) == 0)
            case 6: write(r, \Keys[selection: pick(2) == 0 ? .sidebar : .content], pick(3) == 0 ? nil : screens[pick(screens.count)])
            case 7: write(r, \Keys[columnVisibility: "main"], [.all, .doubleColumn, .detailOnly, .automatic][pick(4)])
            default: write(r, \Keys[phase: "main"], [.active, .inactive, .background][pick(3)])
            }
            if r.state != states.last! { states.append(r.state) }
        }
        try await recording.recorder.close()
        #expect(r.model.refusals.isEmpty && r.anomalies.isEmpty, "\(r.anomalies)")
        // Every state the router went through is one the log replays to, in order.
        let timeline = try Timeline(path: recording.log.path)
        var replayed = [NavigationState()]
        try timeline.replay(from: 1, through: timeline.lastSeq ?? 0) { step in
            if step.after != replayed.last! && !step.event.isSnapshot { replayed.append(step.after) }
        }
        #expect(states.count > 150)
        #expect(Array(replayed.suffix(states.count)) == states)
    }
}
