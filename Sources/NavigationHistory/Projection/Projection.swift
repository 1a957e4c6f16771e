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
    /// - Returns: The anomaly, or nil when the event applied cleanly.
    /// - Complexity: O(1) for most actions; O(n) in the size of the routes or state it replaces.
    @discardableResult
    public static func fold(_ state: inout NavigationState, _ event: NavigationEvent) -> Anomaly? {
        func anomaly(_ kind: Anomaly.Kind, _ detail: String) -> Anomaly {
            Anomaly(seq: event.seq, kind: kind, detail: detail)
        }
        switch event.action {
        case .sessionStart:
            state = NavigationState()
        case .sessionEnd, .unknown:
            break
        case .snapshot(let snapshot), .restore(let snapshot, _, _):
            state = snapshot
        case .sceneOpen(let scene, _):
            guard state.scenes[scene] == nil else { return anomaly(.sceneAlreadyOpen, "scene '\(scene)' is already open") }
            state.scenes[scene] = SceneState()
            state.active = scene
        case .sceneClose(let scene, _):
            guard state.scenes.removeValue(forKey: scene) != nil else { return anomaly(.sceneNotOpen, "scene '\(scene)' is not open") }
            if state.active == scene { state.active = nil }
        case .sceneActivate(let scene):
            guard state.scenes[scene] != nil else { return anomaly(.sceneNotOpen, "scene '\(scene)' is not open") }
            state.active = scene
        case .deeplink(let scene, _, let outcome, let tab, let stack, let path):
            guard outcome != .unmatched else { return nil }
            guard var s = state.scenes[scene] else { return anomaly(.sceneNotOpen, "scene '\(scene)' is not open") }
            if let tab {
                s.tab = tab
                if s.stacks[tab] == nil { s.stacks[tab] = [] }
            }
            if let path { s.setRoutes(path, of: stack ?? s.tab ?? "main") }
            state.scenes[scene] = s
        default:
            guard let scene = event.action.scene else { return nil }
            guard var s = state.scenes[scene] else { return anomaly(.sceneNotOpen, "scene '\(scene)' is not open") }
            if let found = s.apply(event.action) { return anomaly(found.0, found.1) }
            state.scenes[scene] = s
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
            case sceneNotOpen, sceneAlreadyOpen, popBeyondRoot, replaceOnEmptyStack, noSheet, sheetAlreadyPresented
        }
    }
}

extension SceneState {
    /// The routes of the stack `id`: a presented sheet's stack when a sheet has that id.
    func routes(of id: String) -> [Route] {
        if let sheet = sheets.lastIndex(where: { $0.id == id }) { return sheets[sheet].stack }
        return stacks[id] ?? []
    }

    mutating func setRoutes(_ routes: [Route], of id: String) {
        if let sheet = sheets.lastIndex(where: { $0.id == id }) {
            sheets[sheet].stack = routes
        } else {
            stacks[id] = routes
        }
    }

    /// Applies a scene-scoped action; returns the anomaly kind and detail when it does not fit.
    mutating func apply(_ action: NavigationAction) -> (Projection.Anomaly.Kind, String)? {
        switch action {
        case .tabSelect(_, let tab):
            self.tab = tab
            if stacks[tab] == nil { stacks[tab] = [] }
        case .push(_, let stack, let route):
            var routes = routes(of: stack)
            routes.append(route)
            setRoutes(routes, of: stack)
        case .pop(_, let stack, let count):
            var routes = routes(of: stack)
            guard routes.count >= count else {
                return (.popBeyondRoot, "pop of \(count) from stack '\(stack)', which holds \(routes.count)")
            }
            routes.removeLast(count)
            setRoutes(routes, of: stack)
        case .popToRoot(_, let stack):
            setRoutes([], of: stack)
        case .replace(_, let stack, let route):
            var routes = routes(of: stack)
            guard !routes.isEmpty else { return (.replaceOnEmptyStack, "replace on empty stack '\(stack)'") }
            routes[routes.count - 1] = route
            setRoutes(routes, of: stack)
        case .setPath(_, let stack, let path, _):
            setRoutes(path, of: stack)
        case .sheetPresent(_, let id, let route, let style):
            guard !sheets.contains(where: { $0.id == id }) else { return (.sheetAlreadyPresented, "sheet '\(id)' is already presented") }
            sheets.append(Sheet(id: id, style: style ?? .sheet, root: route))
        case .sheetDismiss(_, let id):
            if let id {
                guard let index = sheets.firstIndex(where: { $0.id == id }) else { return (.noSheet, "sheet '\(id)' is not presented") }
                sheets.removeSubrange(index...)
            } else {
                guard !sheets.isEmpty else { return (.noSheet, "dismiss with no sheet presented") }
                sheets.removeLast()
            }
        case .splitSelect(_, let column, let route):
            var split = self.split ?? SplitState()
            switch column {
            case .sidebar: split.sidebar = route
            case .content: split.content = route
            }
            self.split = split
        case .splitVisibility(_, let visibility):
            var split = self.split ?? SplitState()
            split.visibility = visibility
            self.split = split
        default:
            break
        }
        return nil
    }
}
