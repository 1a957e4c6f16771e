/// The one function that defines what each event does to the navigation state.
///
/// Replay, restore, verify, analytics and the generator all fold events through ``fold(_:_:)``;
/// nothing re-implements navigation semantics on the side.
///
/// ```swift
/// var state = NavigationState()
/// for event in events {
///     if let anomaly = Projection.fold(&state, event) { print(anomaly) }
/// }
/// ```
public enum Projection {
    /// Applies `event` to `state`.
    ///
    /// An action that does not fit the state (a pop of more routes than the stack holds, a replace
    /// on an empty stack, a push to a scene that is not open, a dismiss with no sheet) leaves the
    /// state unchanged and is returned as an anomaly; the fold goes on.
    ///
    /// To fold many events into one state, ``StateFolding`` does this and remembers where it found
    /// the event's scene and stack, which the next event mostly names again.
    ///
    /// - Returns: The anomaly, or nil when the event applied cleanly.
    /// - Complexity: O(1) for most actions; O(n) in the size of the routes or state it replaces.
    @discardableResult
    public static func fold(_ state: inout NavigationState, _ event: NavigationEvent) -> Anomaly? {
        var cursor = FoldCursor()
        var edits = NoFoldEdits()
        return fold(&state, event, cursor: &cursor, edits: &edits)
    }

    /// ``fold(_:_:)`` with the lookup memory `cursor` of the events folded into `state` before,
    /// telling `edits` which routes and sheets of the event's scene it changed: what a diff of the
    /// states before and after the event needs to compare, and no more.
    @inline(__always)
    static func fold<Edits: FoldEditRecording>(_ state: inout NavigationState, _ event: NavigationEvent, cursor: inout FoldCursor,
                                               edits: inout Edits) -> Anomaly? {
        // Most events change a scene's stacks, tabs or sheets: they take the short way, with their
        // scene's id borrowed where it lies. One case per pattern: bound once for several, or
        // returned from a function, the id was copied, a retain and a release at every event
        // (`NavlogBench timeline`, the index build).
        switch event.action {
        case .tabSelect(let scene, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .push(let scene, _, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .pop(let scene, _, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .popToRoot(let scene, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .replace(let scene, _, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .setPath(let scene, _, _, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .sheetPresent(let scene, _, _, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .sheetDismiss(let scene, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .splitSelect(let scene, _, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .splitVisibility(let scene, _): apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .sceneActivate, .scenePhase, .deeplink, .snapshot, .restore, .unknown:
            foldOther(&state, event, cursor: &cursor, edits: &edits)
        }
    }

    /// Applies a scene-scoped action to its scene, found once and changed in place: copying it
    /// out and back would copy its stacks on every event.
    private static func apply<Edits: FoldEditRecording>(_ event: NavigationEvent, in scene: String, to state: inout NavigationState,
                                                        cursor: inout FoldCursor, edits: inout Edits) -> Anomaly? {
        guard let index = cursor.sceneIndex(scene, in: state.scenes) else {
            return Anomaly(seq: event.seq, kind: .sceneNotOpen, detail: "scene '\(scene)' is not open")
        }
        guard let (kind, detail) = state.scenes.values[index].apply(event.action, stack: &cursor.stack, edits: &edits) else { return nil }
        return Anomaly(seq: event.seq, kind: kind, detail: detail)
    }

    /// The fold of the actions that open, close or activate scenes, follow deep links, begin or
    /// end sessions, or replace the state.
    @inline(never)
    private static func foldOther<Edits: FoldEditRecording>(_ state: inout NavigationState, _ event: NavigationEvent,
                                                            cursor: inout FoldCursor, edits: inout Edits) -> Anomaly? {
        func anomaly(_ kind: Anomaly.Kind, _ detail: String) -> Anomaly {
            Anomaly(seq: event.seq, kind: kind, detail: detail)
        }
        switch event.action {
        case .sessionStart:
            // The state begins empty, its table of scenes kept when small: a session mostly
            // opens a scene or two, and growing the table again costs a session 500 instructions
            // (`NavlogBench timeline`, the index build). A large one is dropped, so that going
            // through the scenes never walks an empty table of thousands.
            state.active = nil
            state.scenes.removeAll(keepingCapacity: state.scenes.capacity <= 8)
            cursor.forget()
        case .snapshot(let snapshot):
            state = snapshot
            cursor.forget()
        case .restore(let snapshot, _, _):
            // A restore begins a new launch: its scenes start `active`, whatever phase another
            // writer restated (event format v1, "Lifecycle"), so that the phases a session ends
            // by are the ones it recorded.
            state = snapshot
            state.makeEverySceneActive()
            cursor.forget()
        case .sceneOpen(let scene, _):
            guard state.scenes[scene] == nil else { return anomaly(.sceneAlreadyOpen, "scene '\(scene)' is already open") }
            state.scenes[scene] = .opened
            state.active = scene
            cursor.forget()
        case .sceneClose(let scene, _):
            guard state.scenes.removeValue(forKey: scene) != nil else { return anomaly(.sceneNotOpen, "scene '\(scene)' is not open") }
            if state.active == scene { state.active = nil }
            cursor.forget()
        case .sceneActivate(let scene):
            guard state.scenes[scene] != nil else { return anomaly(.sceneNotOpen, "scene '\(scene)' is not open") }
            state.active = scene
        case .scenePhase(let scene, let phase):
            // Written in place, not compared first: read out of the dictionary, the scene was
            // copied, a retain for each of its members, and a phase mostly changes the scene's.
            guard let index = cursor.sceneIndex(scene, in: state.scenes) else { return anomaly(.sceneNotOpen, "scene '\(scene)' is not open") }
            state.scenes.values[index].phase = phase
        case .deeplink(let scene, _, let outcome, let tab, let stack, let path):
            guard outcome != .unmatched else { return nil }
            guard let index = cursor.sceneIndex(scene, in: state.scenes) else {
                return anomaly(.sceneNotOpen, "scene '\(scene)' is not open")
            }
            state.scenes.values[index].openDeepLink(tab: tab, stack: stack, path: path, lastStack: &cursor.stack, edits: &edits)
        case .sessionEnd, .unknown:
            break
        case .tabSelect(let scene, _), .push(let scene, _, _), .pop(let scene, _, _), .popToRoot(let scene, _),
             .replace(let scene, _, _), .setPath(let scene, _, _, _), .sheetPresent(let scene, _, _, _),
             .sheetDismiss(let scene, _), .splitSelect(let scene, _, _), .splitVisibility(let scene, _):
            // ``fold(_:_:cursor:edits:)`` sends these to ``apply(_:in:to:cursor:edits:)``; were one
            // missed there, it would still go the same way here, only slower.
            return apply(event, in: scene, to: &state, cursor: &cursor, edits: &edits)
        }
        return nil
    }

    /// An action that did not fit the state it was applied to.
    public struct Anomaly: Sendable, Hashable, CustomStringConvertible {
        /// The seq of the event.
        public var seq: Int
        /// What did not fit.
        public var kind: Kind
        /// A sentence naming the scene, stack or sheet concerned.
        public var detail: String

        public var description: String { "seq \(seq): \(kind.rawValue): \(detail)" }

        /// The kinds of anomaly.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A scene not open, a scene opened twice, a pop of more routes than the stack holds, a replace on
            /// an empty stack, a dismiss with no such sheet, and a sheet presented twice.
            case sceneNotOpen, sceneAlreadyOpen, popBeyondRoot, replaceOnEmptyStack, noSheet, sheetAlreadyPresented
        }
    }
}

extension [Route] {
    /// Appends `route` and returns its index, in one access to a stack held in a dictionary: read
    /// again through the dictionary to be counted, the stack was copied, a retain and a release
    /// at every push (`NavlogBench timeline`, the index build).
    @inline(__always)
    mutating func push(_ route: consuming Route) -> Int {
        append(route)
        return count - 1
    }

    /// An empty stack with room for a few routes, which it mostly gets soon after it is created:
    /// growing it one route at a time would reallocate it three times.
    static var newStack: [Route] {
        var stack: [Route] = []
        stack.reserveCapacity(8)
        return stack
    }
}

extension SceneState {
    /// A scene just opened, with room for a few stacks, which it mostly gets soon after it opens:
    /// growing its table one stack at a time would rehash it twice. The table is made at its size:
    /// reserved in an empty one, it costs 1,100 instructions a scene, twice as many, as
    /// `reserveCapacity` is not specialized (`NavlogBench timeline`, the index build).
    static var opened: SceneState {
        SceneState(stacks: Dictionary(minimumCapacity: 4))
    }

    /// Runs `body` on the routes of the stack `id` in place (a sheet's stack when a sheet has that
    /// id), creating the stack when it does not exist yet.
    mutating func withRoutes<T>(of id: String, lastStack: inout Lookup<[Route]>?, _ body: (inout [Route]) -> T) -> T {
        if !sheets.isEmpty, let sheet = sheets.lastIndex(where: { $0.id == id }) { return body(&sheets[sheet].stack) }
        if let index = stacks.index(forKey: id, remembering: &lastStack) { return body(&stacks.values[index]) }
        lastStack = nil
        return body(&stacks[id, default: []])
    }

    /// Pushes `route` onto the stack `id` (a sheet's stack when a sheet has that id), creating the
    /// stack when it does not exist yet; returns how many routes the stack held before. A third of
    /// all events are pushes: this spares them the closure of ``withRoutes(of:_:)`` (8% of the
    /// fold's instructions).
    mutating func push(_ route: Route, onto id: String, lastStack: inout Lookup<[Route]>?) -> Int {
        if !sheets.isEmpty, let sheet = sheets.lastIndex(where: { $0.id == id }) { return sheets[sheet].stack.push(route.copied) }
        if let index = stacks.index(forKey: id, remembering: &lastStack) { return stacks.values[index].push(route.copied) }
        lastStack = nil
        stacks[id, default: .newStack].append(route.copied)
        return 0
    }

    /// Runs `body` on the routes of the stack `id` in place when it exists; nil when it does not.
    mutating func withExistingRoutes<T>(of id: String, lastStack: inout Lookup<[Route]>?, _ body: (inout [Route]) -> T) -> T? {
        if !sheets.isEmpty, let sheet = sheets.lastIndex(where: { $0.id == id }) { return body(&sheets[sheet].stack) }
        guard let index = stacks.index(forKey: id, remembering: &lastStack) else { return nil }
        return body(&stacks.values[index])
    }

    /// Creates the stack `id`, empty, unless it exists; either way the fold finds it next without
    /// hashing `id`, which is where the events after a tab selection go.
    mutating func createStack(_ id: String, lastStack: inout Lookup<[Route]>?) {
        if stacks.index(forKey: id, remembering: &lastStack) == nil {
            stacks[id] = .newStack
            lastStack = nil
            _ = stacks.index(forKey: id, remembering: &lastStack)
        }
    }

    mutating func openDeepLink<Edits: FoldEditRecording>(tab: String?, stack: String?, path: [Route]?, lastStack: inout Lookup<[Route]>?,
                                                         edits: inout Edits) {
        if let tab {
            self.tab = tab
            createStack(tab, lastStack: &lastStack)
        }
        if let path {
            let target = deepLinkStack(tab: tab, stack: stack)
            withRoutes(of: target, lastStack: &lastStack) { $0 = path }
            edits.changedRoutes(of: target, keeping: 0)
        }
    }

    /// Applies a scene-scoped action, telling `edits` which routes and sheets it changed; returns
    /// the anomaly kind and detail when it does not fit.
    mutating func apply<Edits: FoldEditRecording>(_ action: NavigationAction, stack lastStack: inout Lookup<[Route]>?,
                                                  edits: inout Edits) -> (Projection.Anomaly.Kind, String)? {
        switch action {
        case .tabSelect(_, let tab):
            self.tab = tab
            createStack(tab, lastStack: &lastStack)
        case .push(_, let stack, let route):
            edits.changedRoutes(of: stack, keeping: push(route, onto: stack, lastStack: &lastStack))
        case .pop(_, let stack, let count):
            // An anomaly leaves the state exactly as it was: a missing stack is not created.
            let held = withExistingRoutes(of: stack, lastStack: &lastStack) { routes -> Int in
                let held = routes.count
                // One route at a time when it is one: `removeLast(_:)` destroys the routes it
                // removes through their type's value witnesses, 150 instructions a pop.
                if held >= count { if count == 1 { routes.removeLast() } else { routes.removeLast(count) } }
                return held
            } ?? 0
            guard held >= count else { return (.popBeyondRoot, "pop of \(count) from stack '\(stack)', which holds \(held)") }
            edits.changedRoutes(of: stack, keeping: held - count)
        case .popToRoot(_, let stack):
            // Keeping the storage: the stack mostly grows again.
            withRoutes(of: stack, lastStack: &lastStack) { $0.removeAll(keepingCapacity: true) }
            edits.changedRoutes(of: stack, keeping: 0)
        case .replace(_, let stack, let route):
            let held = withExistingRoutes(of: stack, lastStack: &lastStack) { routes -> Int in
                guard !routes.isEmpty else { return 0 }
                routes[routes.count - 1] = route.copied
                return routes.count
            } ?? 0
            guard held > 0 else { return (.replaceOnEmptyStack, "replace on empty stack '\(stack)'") }
            edits.changedRoutes(of: stack, keeping: held - 1)
        case .setPath(_, let stack, let path, _):
            withRoutes(of: stack, lastStack: &lastStack) { $0 = path }
            edits.changedRoutes(of: stack, keeping: 0)
        case .sheetPresent(_, let id, let route, let style):
            guard !sheets.contains(where: { $0.id == id }) else { return (.sheetAlreadyPresented, "sheet '\(id)' is already presented") }
            sheets.append(Sheet(id: id, style: style ?? .sheet, root: route.copied))
            edits.changedSheets(keeping: sheets.count - 1)
        case .sheetDismiss(_, let id):
            if let id {
                guard let index = sheets.firstIndex(where: { $0.id == id }) else { return (.noSheet, "sheet '\(id)' is not presented") }
                sheets.removeSubrange(index...)
            } else {
                guard !sheets.isEmpty else { return (.noSheet, "dismiss with no sheet presented") }
                sheets.removeLast()
            }
            edits.changedSheets(keeping: sheets.count)
        case .splitSelect(_, let column, let route):
            if split == nil { split = SplitState() }
            switch column {
            case .sidebar: split!.sidebar = route
            case .content: split!.content = route
            }
        case .splitVisibility(_, let visibility):
            if split == nil { split = SplitState() }
            split!.visibility = visibility
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .sceneActivate, .scenePhase, .deeplink, .snapshot, .restore, .unknown:
            // Not scene-scoped in the sense of this function: ``Projection`` folds them itself.
            break
        }
        return nil
    }
}
