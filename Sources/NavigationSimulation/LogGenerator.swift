import Foundation
import NavigationHistory

/// A synthetic recipe app that produces realistic, deterministic navigation events for tests,
/// benchmarks and demos.
///
/// Each session opens the main scene, moves between four tabs that each keep their own stack,
/// pushes and pops recipes, presents sheets with stacks of their own, follows deep links
/// (resolved, partial and unmatched), and on iPad uses a split view and a second window. Now and
/// then the app goes to the background (`scene.phase` `inactive`, then `background`, for every open
/// scene) and comes back (`inactive`, then `active`) after seconds to hours, or is briefly
/// interrupted (`inactive`, then `active`). Dwell times are log-normal around a few seconds.
///
/// A session ends in one of three ways (``SessionEnd``): with probability `crashRate` it crashes
/// in the foreground (its events just stop, its scenes `active`: `unclean`); of the rest, about a
/// quarter end cleanly (the user swipes the app away: `inactive`, then `session.end`), and the
/// others are ended by the system in the background (`inactive`, then `background`, and no
/// `session.end`: `background`, not a crash). The next `session.start` follows a gap of a minute to
/// hours. The same seed always gives the same events.
///
/// ```swift
/// var generator = LogGenerator(seed: 42)
/// let draft = generator.next() // timestamp, session and action of the next event
/// ```
public struct LogGenerator: Sendable {
    /// The navigation state after the last draft, folded by ``Projection``.
    public var state: NavigationState { folding.state }
    /// The state with the fold's lookup memory.
    private var folding = StateFolding()
    private var random: SeededRandom
    private let crashRate: Double
    private var clock: Int64
    private var sessionNumber = 0
    private var session = ""
    private var isPad = false
    private var remaining = 0
    /// The events planned and not yet given, from `head` on: each with the milliseconds the clock
    /// moves before it. Its storage is kept from one plan to the next.
    private var queue: [(action: NavigationAction, delay: Int64)] = []
    private var head = 0

    private static let tabs = ["home", "search", "favorites", "profile"]
    private static let categories = ["desserts", "mains", "soups", "salads", "breakfast", "drinks", "baking", "vegan"]
    private static let versions = ["3.1.0", "3.2.0", "3.2.1"]
    /// Every scene the app opens, in the order their phases are written.
    private static let sceneNames = ["main", "window-2"]
    /// Of the sessions that do not crash, the share that end with a `session.end`.
    private static let cleanShare = 0.25

    /// Creates a generator.
    ///
    /// - Parameters:
    ///   - seed: Determines every event.
    ///   - crashRate: The probability that a session crashes in the foreground: it ends with its
    ///     scenes `active` and no `session.end` (``SessionEnd/unclean``).
    ///   - start: The time of the first event.
    public init(seed: UInt64, crashRate: Double = 0.02, start: Timestamp = Timestamp("2026-11-01T08:00:00.000Z")!) {
        random = SeededRandom(seed: seed)
        self.crashRate = crashRate
        clock = start.millisecondsSince1970
    }

    /// The next event of the synthetic app.
    public mutating func next() -> EventDraft {
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
            plan()
        }
        let (action, delay) = queue[head]
        head += 1
        clock += delay
        let draft = EventDraft(action: action, session: session, timestamp: Timestamp(millisecondsSince1970: clock))
        let event = NavigationEvent(seq: 1, timestamp: draft.timestamp, session: session, action: action)
        let anomaly = folding.fold(event)
        precondition(anomaly == nil, "the generator produced an anomaly: \(anomaly!)")
        return draft
    }

    // MARK: Planning

    private mutating func plan() {
        if remaining == 0 {
            startSession()
            return
        }
        remaining -= 1
        advance(dwell: true)
        if remaining == 0 {
            endSession()
            return
        }
        let roll = random.unit()
        if roll < 0.025 {
            goToBackgroundAndBack()
        } else if roll < 0.035 {
            // An interruption (a banner, Control Center): visible all along, not interactive.
            setPhase(.inactive)
            setPhase(.active, after: 1_000 + Int64(random.next() % 20_000))
        } else {
            let next = action()   // may plan an event to follow it
            queue.insert((next, 0), at: head)
        }
    }

    /// Ends the session in one of the three ways ``LogGenerator`` describes.
    private mutating func endSession() {
        let roll = random.unit()
        if roll < crashRate {
            plan()   // a crash in the foreground: the next session starts
        } else if roll < crashRate + (1 - crashRate) * Self.cleanShare {
            setPhase(.inactive)
            queue.append((.sessionEnd(reason: "terminate"), 200 + Int64(random.next() % 1_500)))
        } else {
            setPhase(.inactive)
            setPhase(.background, after: 300 + Int64(random.next() % 700))
        }
    }

    /// The app goes to the background and comes back after seconds to hours (log-uniform).
    private mutating func goToBackgroundAndBack() {
        setPhase(.inactive)
        setPhase(.background, after: 300 + Int64(random.next() % 700))
        let gap = exp(log(2_000.0) + random.unit() * log(6 * 3_600_000 / 2_000.0))
        setPhase(.inactive, after: Int64(gap))
        setPhase(.active, after: 50 + Int64(random.next() % 250))
    }

    /// Plans a `scene.phase` for every open scene, the first `after` milliseconds from the last
    /// planned event, the others a millisecond apart.
    private mutating func setPhase(_ phase: ScenePhase, after delay: Int64 = 0) {
        var delay = delay
        for name in Self.sceneNames where state.scenes[name] != nil {
            queue.append((.scenePhase(scene: name, phase: phase), delay))
            delay = 1
        }
    }

    private mutating func startSession() {
        sessionNumber += 1
        if sessionNumber > 1 { clock += Int64(60_000 + random.unit() * 8 * 3_600_000) }
        session = "s\(sessionNumber)-\(String(random.next() & 0xFFFF_FF, radix: 16))"
        isPad = random.chance(0.25)
        remaining = 5 + Int(-log1p(-random.unit()) * 40)
        let version = Self.versions[Int(random.next() % UInt64(Self.versions.count))]
        queue.append((.sessionStart(app: version, launch: random.chance(0.7) ? .cold : .warm,
                                    meta: ["device": isPad ? "iPad" : "iPhone", "locale": random.chance(0.7) ? "en_US" : "de_DE"]), 0))
        queue.append((.sceneOpen(scene: "main", kind: "window"), 0))
        queue.append((.tabSelect(scene: "main", tab: "home"), 0))
    }

    /// Moves the clock by a log-normal dwell time (median about 4 s), or by a few milliseconds.
    private mutating func advance(dwell: Bool) {
        guard dwell else { clock += Int64(random.next() % 3); return }
        let u1 = max(random.unit(), 1e-12), u2 = random.unit()
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        clock += Int64(min(exp(8.3 + 1.0 * normal), 600_000))
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    /// A skewed id: a few recipes are far more popular than the rest.
    private mutating func recipeID() -> String { "r\(Int(random.unit() * random.unit() * 500) + 1)" }

    private var scene: String { state.active ?? state.scenes.keys.sorted().first ?? "main" }

    private mutating func action() -> NavigationAction {
        let sceneID = scene
        guard let current = state.scenes[sceneID] else { return .sceneOpen(scene: "main", kind: "window") }
        if let sheet = current.sheets.last { return sheetAction(sceneID, sheet) }
        let tab = current.tab ?? "home"
        let stack = current.stacks[tab] ?? []
        let roll = random.unit()
        switch roll {
        case ..<0.36 where stack.count < 8:
            return .push(scene: sceneID, stack: tab, route: nextRoute(tab: tab, top: stack.last))
        case ..<0.56 where !stack.isEmpty:
            return .pop(scene: sceneID, stack: tab, count: stack.count >= 2 && random.chance(0.15) ? 2 : 1)
        case ..<0.60 where stack.count >= 2:
            return .popToRoot(scene: sceneID, stack: tab)
        case ..<0.64 where !stack.isEmpty:
            return .replace(scene: sceneID, stack: tab, route: nextRoute(tab: tab, top: stack.count >= 2 ? stack[stack.count - 2] : nil))
        case ..<0.76:
            return .tabSelect(scene: sceneID, tab: pick(Self.tabs.filter { $0 != tab }))
        case ..<0.84:
            return presentSheet(sceneID)
        case ..<0.88:
            return deeplink(sceneID)
        case ..<0.90:
            let category = pick(Self.categories)
            return .setPath(scene: sceneID, stack: "home",
                            path: [Route(screen: "category", id: category), Route(screen: "recipe", id: recipeID())], cause: .programmatic)
        case ..<0.97 where isPad:
            return splitAction(sceneID, current)
        case ..<1.0 where isPad:
            return windowAction(sceneID)
        default:
            return .push(scene: sceneID, stack: tab, route: nextRoute(tab: tab, top: stack.last))
        }
    }

    private mutating func nextRoute(tab: String, top: Route?) -> Route {
        switch top?.screen {
        case nil:
            switch tab {
            case "home": return Route(screen: "category", id: pick(Self.categories))
            case "search": return Route(screen: "results", params: ["q": pick(["pie", "soup", "vegan", "quick", "cake"])])
            case "favorites": return Route(screen: "recipe", id: recipeID())
            default: return random.chance(0.5) ? Route(screen: "orders") : Route(screen: "achievements")
            }
        case "category", "results", "author": return Route(screen: "recipe", id: recipeID())
        case "recipe":
            let r = random.unit()
            if r < 0.35 { return Route(screen: "reviews", id: top?.id, params: ["sort": pick(["recent", "top"])]) }
            if r < 0.55 { return Route(screen: "author", id: "a\(Int(random.unit() * 60) + 1)") }
            if r < 0.80 { return Route(screen: "ingredient", id: pick(["flour", "sugar", "butter", "apple", "egg", "salt"])) }
            return Route(screen: "recipe", id: recipeID())
        case "orders": return Route(screen: "order", id: "o\(Int(random.unit() * 900) + 100)")
        default: return Route(screen: "recipe", id: recipeID())
        }
    }

    private mutating func presentSheet(_ sceneID: String) -> NavigationAction {
        switch random.unit() {
        case ..<0.35: return .sheetPresent(scene: sceneID, sheet: "share", route: Route(screen: "share", id: recipeID()), style: .sheet)
        case ..<0.65: return .sheetPresent(scene: sceneID, sheet: "filters", route: Route(screen: "filters"), style: .sheet)
        case ..<0.85: return .sheetPresent(scene: sceneID, sheet: "compose", route: Route(screen: "composeReview", id: recipeID()), style: .fullScreenCover)
        default: return .sheetPresent(scene: sceneID, sheet: "settings", route: Route(screen: "settings"), style: isPad ? .popover : .sheet)
        }
    }

    private mutating func sheetAction(_ sceneID: String, _ sheet: Sheet) -> NavigationAction {
        let roll = random.unit()
        if roll < 0.35, sheet.stack.count < 3 {
            let screens = ["filters": "filterDetail", "compose": "photoPicker", "settings": "notifications", "share": "contacts"]
            return .push(scene: sceneID, stack: sheet.id, route: Route(screen: screens[sheet.id] ?? "detail"))
        }
        if roll < 0.5, !sheet.stack.isEmpty { return .pop(scene: sceneID, stack: sheet.id, count: 1) }
        if roll < 0.58, sheet.id == "filters" {
            return .sheetPresent(scene: sceneID, sheet: "help", route: Route(screen: "help"), style: .sheet)
        }
        return .sheetDismiss(scene: sceneID, sheet: random.chance(0.5) ? sheet.id : nil)
    }

    private mutating func deeplink(_ sceneID: String) -> NavigationAction {
        let category = pick(Self.categories)
        let id = recipeID()
        switch random.unit() {
        case ..<0.7:
            return .deeplink(scene: sceneID, url: "cookbook://category/\(category)/recipe/\(id)", outcome: .resolved, tab: "home", stack: "home",
                             path: [Route(screen: "category", id: category), Route(screen: "recipe", id: id)])
        case ..<0.85:
            return .deeplink(scene: sceneID, url: "cookbook://category/\(category)/recipe/gone-\(id)", outcome: .partial, tab: "home", stack: "home",
                             path: [Route(screen: "category", id: category)])
        default:
            return .deeplink(scene: sceneID, url: "cookbook://promo/\(pick(["spring", "winter"]))?ref=mail", outcome: .unmatched, tab: nil, stack: nil, path: nil)
        }
    }

    private mutating func splitAction(_ sceneID: String, _ current: SceneState) -> NavigationAction {
        switch random.unit() {
        case ..<0.4: return .splitSelect(scene: sceneID, column: .sidebar, route: Route(screen: "category", id: pick(Self.categories)))
        case ..<0.75: return .splitSelect(scene: sceneID, column: .content, route: Route(screen: "recipe", id: recipeID()))
        case ..<0.85 where current.split?.content != nil: return .splitSelect(scene: sceneID, column: .content, route: nil)
        default: return .splitVisibility(scene: sceneID, visibility: pick([.all, .doubleColumn, .detailOnly, .automatic]))
        }
    }

    private mutating func windowAction(_ sceneID: String) -> NavigationAction {
        let other = sceneID == "main" ? "window-2" : "main"
        if state.scenes[other] == nil {
            queue.append((.tabSelect(scene: other, tab: "search"), 0))
            return .sceneOpen(scene: other, kind: "window")
        }
        if random.chance(0.3), sceneID != "main" { return .sceneClose(scene: sceneID, kind: "window") }
        return .sceneActivate(scene: other)
    }
}
