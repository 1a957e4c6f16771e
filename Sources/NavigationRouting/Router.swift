import NavigationHistory
import Observation

/// The navigation of an app — scenes, tabs each with their own path, sheets with their own paths,
/// split-view selections — that records every change it makes as one event.
///
/// Each mutation applies one event through ``Projection/fold(_:_:)`` (so the router's state is
/// exactly what replaying the log gives) and hands it to the ``Recorder``, which never blocks. A
/// SwiftUI app binds its views to the router's subscripts through `@Bindable var router`:
/// `NavigationStack(path: $router[path: "home"])`, `TabView(selection: $router[tab: "main"])`,
/// `.sheet(item: $router[sheet: "main"])` (see ``subscript(path:in:)``): a whole-path write such
/// as a swipe back is turned into the event it means (a pop, a push, a replace), not a `setPath`.
///
/// ```swift
/// let router = Router<AppRoute>(recorder: recorder)
/// router.start(app: "2.1", launch: .cold, restoring: try? Restorer(options: .init()).restore(from: log))
/// router.select(tab: "home")
/// router.push(.recipe(id: "42"))
/// ```
@Observable @MainActor
public final class Router<R: NavigationRoute> {
    /// The observed state, kept in a non-generic object: observing a generic class's properties
    /// builds a key path at run time on every access, which made each call cost microseconds.
    @ObservationIgnored public let model = NavigationModel()
    /// The deep-link patterns ``open(url:in:)`` matches.
    @ObservationIgnored public var deepLinks: DeepLinkTable<R>

    /// The navigation state, as the log's fold defines it.
    public var state: NavigationState { model.state }
    /// Anomalies met: actions that did not fit the state (recorded all the same, as the log keeps them).
    public var anomalies: [Projection.Anomaly] { model.anomalies }

    @ObservationIgnored private let recorder: Recorder?
    @ObservationIgnored private var seq = 0
    /// What keeps the state one the log can write as a snapshot, as the log's own budget does.
    @ObservationIgnored private var budget: SnapshotBudget
    /// The path read or written last, with the log's routes it stands for.
    @ObservationIgnored private var lastPath: ResolvedPath<R>?

    /// Creates a router recording through `recorder` (nil records nothing, for previews and tests).
    public init(recorder: Recorder?, deepLinks: DeepLinkTable<R> = DeepLinkTable()) {
        self.recorder = recorder
        self.deepLinks = deepLinks
        budget = SnapshotBudget(NavigationState(), session: recorder?.session ?? Self.previewSession)
    }

    /// The session of the events of a router that records nothing.
    private static var previewSession: String { "router" }

    // MARK: Reading

    /// The selected tab of a scene.
    public func selectedTab(in scene: String = "main") -> String? { state.scenes[scene]?.tab }

    /// The path of a stack (a tab's, `main`, `detail`, or a presented sheet's), as the app's routes.
    ///
    /// The log's routes are resolved through ``NavigationRoute/init(_:)`` when they change (routes
    /// that do not resolve are left out), and a path the app wrote is kept as it wrote it: while
    /// the stack's routes stay the same, the same values come back — a route whose item was
    /// deleted stays, as the log holds it, until the stack changes. SwiftUI reads a binding's path
    /// before each write of it; resolving it anew each time made a key-path write cost 1.4x the
    /// explicit call (`Tools/bench/run restore`, "Router binding writes").
    public func path(for stack: String, in scene: String = "main") -> [R] {
        let routes = routes(of: stack, in: scene)
        if let resolved = lastPath, resolved.stack == stack, resolved.scene == scene, resolved.routes == routes {
            return resolved.path
        }
        var path: [R] = []
        path.reserveCapacity(routes.count)
        for route in routes {
            if let resolved = R(route) { path.append(resolved) }
        }
        lastPath = ResolvedPath(scene: scene, stack: stack, routes: routes, path: path)
        return path
    }

    /// The presented sheets of a scene, bottom first: id, style and root route.
    public func sheets(in scene: String = "main") -> [(id: String, style: SheetStyle, root: R?)] {
        (state.scenes[scene]?.sheets ?? []).map { ($0.id, $0.style, R($0.root)) }
    }

    /// What the scene shows now.
    public func visibleScreen(in scene: String = "main") -> VisibleScreen? { state.scenes[scene]?.visibleScreen }

    // MARK: Session and scenes

    /// Records the session's start and, when `restoring` is given and restores something, applies
    /// it and records it as a `restore` event.
    ///
    /// Call it before any other mutation: until a session starts, the router's state is empty
    /// while the log's is where the last session left it, and the two agree again from here on.
    public func start(app: String?, launch: LaunchKind = .cold, meta: [String: String]? = nil, restoring result: Restorer.Result? = nil) {
        apply(.sessionStart(app: app, launch: launch, meta: meta))
        if let result { restore(result) }
    }

    /// Applies what a ``Restorer`` worked out, recording it as a `restore` event; nothing happens
    /// when a guard fired, or when the state is too big for the log to hold (the refusal is in
    /// ``NavigationModel/refusals`` and the app starts at the root).
    ///
    /// - Returns: Whether a state was restored.
    @discardableResult
    public func restore(_ result: Restorer.Result) -> Bool {
        guard let action = result.action else { return false }
        return apply(action)
    }

    /// Records the session's clean end.
    public func end(reason: String? = nil) { apply(.sessionEnd(reason: reason)) }

    /// Opens a scene (window), which becomes the active one.
    public func open(scene: String = "main", kind: String? = nil) { apply(.sceneOpen(scene: scene, kind: kind)) }

    /// Closes a scene.
    public func close(scene: String, kind: String? = nil) { apply(.sceneClose(scene: scene, kind: kind)) }

    /// Makes a scene the active one.
    public func activate(scene: String) { apply(.sceneActivate(scene: scene)) }

    /// Records a scene's lifecycle phase — call it from SwiftUI's `scenePhase` — as a
    /// `scene.phase` event, only when it changes (a scene opens `active`).
    ///
    /// Going to the background does not end the session: a session is one process lifetime, and
    /// the system may end a suspended app without notice. Do not call ``end(reason:)`` on
    /// backgrounding: a session whose scenes were all in the background at its last event ended
    /// `background`, which is not a crash — the next launch restores as after any end, and the
    /// crash-loop guard does not count it. A scene that is not open records an anomaly, as any
    /// action on it does: open the scene first.
    ///
    /// SwiftUI's `ScenePhase` is another type; map its three cases:
    /// `.onChange(of: scenePhase) { _, phase in router.setPhase(ScenePhase(phase), in: "main") }`
    /// with an `init(_: SwiftUI.ScenePhase)` of your own (see the README).
    public func setPhase(_ phase: ScenePhase, in scene: String = "main") {
        guard state.scenes[scene]?.phase != phase else { return }
        apply(.scenePhase(scene: scene, phase: phase))
    }

    // MARK: Stacks

    /// Selects a tab; each tab keeps its own path. Selecting the tab already selected records
    /// nothing: it changes no state and no view, and SwiftUI's `TabView` writes its selection back
    /// when a view redraws.
    public func select(tab: String, in scene: String = "main") {
        guard model.unobservedState.scenes[scene]?.tab != tab else { return }
        apply(.tabSelect(scene: scene, tab: tab))
    }

    /// Pushes a route on the current stack: the topmost sheet's, else the selected tab's (or `main`).
    public func push(_ route: R, in scene: String = "main") {
        apply(.push(scene: scene, stack: currentStack(in: scene), route: route.route))
    }

    /// Pops `count` routes off the current stack.
    public func pop(_ count: Int = 1, in scene: String = "main") {
        apply(.pop(scene: scene, stack: currentStack(in: scene), count: max(1, count)))
    }

    /// Empties the current stack.
    public func popToRoot(in scene: String = "main") { apply(.popToRoot(scene: scene, stack: currentStack(in: scene))) }

    /// Replaces the top route of the current stack.
    public func replace(with route: R, in scene: String = "main") {
        apply(.replace(scene: scene, stack: currentStack(in: scene), route: route.route))
    }

    /// Writes a whole path, as SwiftUI's `NavigationStack(path:)` binding does, recording the event
    /// it means: a pop of n when it is a prefix of the current path, a push when it adds one route,
    /// a replace when only the top differs, otherwise a `setPath`. Nothing when it is unchanged.
    public func setPath(_ path: [R], for stack: String, in scene: String = "main") {
        let old = routes(of: stack, in: scene)
        // A closure, not `\.route`: a key path of a generic type is instantiated at run time on
        // each use, which was a third of this call's cost.
        let new = path.map { $0.route }
        guard old != new else { return }
        let applied = if new.count < old.count, Array(old.prefix(new.count)) == new {
            apply(.pop(scene: scene, stack: stack, count: old.count - new.count))
        } else if new.count == old.count + 1, Array(new.prefix(old.count)) == old {
            apply(.push(scene: scene, stack: stack, route: new.last!))
        } else if new.count == old.count, !new.isEmpty, Array(new.dropLast()) == Array(old.dropLast()) {
            apply(.replace(scene: scene, stack: stack, route: new.last!))
        } else {
            apply(.setPath(scene: scene, stack: stack, path: new, cause: .programmatic))
        }
        if applied { lastPath = ResolvedPath(scene: scene, stack: stack, routes: new, path: path) }
    }

    // MARK: Sheets and split views

    /// Presents a sheet over whatever is on top; it has its own stack, addressed by its id.
    public func present(sheet id: String, _ root: R, style: SheetStyle = .sheet, in scene: String = "main") {
        apply(.sheetPresent(scene: scene, sheet: id, route: root.route, style: style))
    }

    /// Dismisses a sheet and every sheet above it (the topmost when `id` is nil).
    public func dismiss(sheet id: String? = nil, in scene: String = "main") { apply(.sheetDismiss(scene: scene, sheet: id)) }

    /// Selects a route in a split view's column (nil clears it).
    public func select(_ route: R?, column: SplitColumn, in scene: String = "main") {
        apply(.splitSelect(scene: scene, column: column, route: route?.route))
    }

    /// Sets a split view's column visibility.
    public func setSplitVisibility(_ visibility: SplitVisibility, in scene: String = "main") {
        apply(.splitVisibility(scene: scene, visibility: visibility))
    }

    // MARK: Deep links

    /// Opens a deep link: matches it against ``deepLinks``, selects its tab, sets its stack to the
    /// routes it names (parents first, replacing what was there), and records one `deeplink` event
    /// with the outcome. An unmatched, over-long or malformed URL changes nothing but is recorded.
    @discardableResult
    public func open(url: String, in scene: String = "main") -> DeepLinkOutcome {
        let match = deepLinks.match(url)
        // A link that resolved nothing leaves the stack alone (a path of [] would empty it).
        let path = match.routes.isEmpty ? nil : match.routes.map { $0.route }
        let stack = path == nil ? nil : (state.scenes[scene] ?? SceneState()).deepLinkStack(tab: match.tab, stack: match.stack)
        apply(.deeplink(scene: scene, url: Self.prefix(url, bytes: DeepLinkTable<R>.maximumURLLength), outcome: match.outcome,
                        tab: match.tab, stack: stack, path: path))
        return match.outcome
    }

    // MARK: Applying

    private func currentStack(in scene: String) -> String {
        guard let state = state.scenes[scene] else { return "main" }
        return state.sheets.last?.id ?? state.currentStack
    }

    private func routes(of stack: String, in scene: String) -> [Route] {
        state.scenes[scene]?.routes(of: stack) ?? []
    }

    /// At most `bytes` UTF-8 bytes of `text`, cut at a Unicode scalar.
    static func prefix(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var scalars = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let size = String(scalar).utf8.count
            guard used + size <= bytes else { break }
            scalars.append(scalar)
            used += size
        }
        return String(scalars)
    }

    /// Keeps the refusal of a write the router could not turn into an event.
    func refuse(_ message: String) {
        model.refusals.append(NavigationHistoryError(code: .invalidEvent, message: message))
    }

    /// Checks the action the way the store will, then folds it into the state and records it: one
    /// event per mutation. An action the store would refuse (an empty id, a line too long, a state
    /// after it too big for the snapshot the store must be able to write) is neither applied nor
    /// recorded, so the router never shows what the log will not replay; it is kept in
    /// ``NavigationModel/refusals``.
    @discardableResult
    private func apply(_ action: NavigationAction) -> Bool {
        let now = Timestamp.now
        let session = recorder?.session ?? Self.previewSession
        do throws(NavigationHistoryError) {
            let length = try EventLog.lineLength(checking: EventDraft(action: action, session: session, timestamp: now))
            let event = NavigationEvent(seq: seq + 1, timestamp: now, session: session, action: action)
            if let anomaly = try budget.fold(event, lineLength: length, into: &model.state) {
                model.anomalies.append(anomaly)
            }
        } catch {
            model.refusals.append(error)
            return false
        }
        seq += 1
        recorder?.record(action, at: now)
        return true
    }
}

/// A stack's path as the app's routes, and the log's routes it was resolved from or written as.
private struct ResolvedPath<R: NavigationRoute> {
    var scene: String
    var stack: String
    var routes: [Route]
    var path: [R]
}

/// The state a ``Router`` changes, observed by the views that read it.
@Observable @MainActor
public final class NavigationModel {
    /// The navigation state, as the log's fold defines it.
    public internal(set) var state = NavigationState()
    /// Actions that did not fit the state. An anomaly's `seq` counts this router's actions from 1;
    /// the log numbers its events itself (after a restore it continues the log's `seq`).
    public internal(set) var anomalies: [Projection.Anomaly] = []
    /// Actions refused because the log could not hold them; they were neither applied nor recorded.
    public internal(set) var refusals: [NavigationHistoryError] = []

    /// The state as a write compares it before recording, without registering the view that
    /// writes as an observer of it (a key-path write reads the binding's value first, which does).
    var unobservedState: NavigationState { _state }

    nonisolated init() {}
}
