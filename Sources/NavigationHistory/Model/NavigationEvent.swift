/// One line of the log: a navigation action with its sequence number, time and session.
///
/// ```swift
/// let event = NavigationEvent(seq: 7, timestamp: Timestamp("2026-11-29T12:00:00.123Z")!,
///                             session: "s1", action: .push(scene: "main", stack: "home",
///                                                          route: Route(screen: "recipe", id: "apple-pie")))
/// ```
public struct NavigationEvent: Sendable, Hashable {
    /// The 1-based position in the whole log: +1 per event, gapless.
    public var seq: Int
    /// When the action happened.
    public var timestamp: Timestamp
    /// The app launch (process lifetime) the action belongs to.
    public var session: String
    /// What happened.
    public var action: NavigationAction

    /// Creates an event.
    public init(seq: Int, timestamp: Timestamp, session: String, action: NavigationAction) {
        self.seq = seq
        self.timestamp = timestamp
        self.session = session
        self.action = action
    }

    /// The `type` member: `push`, `session.start`, or the unknown type's name.
    public var type: String { action.type }

    /// Whether this is a store snapshot, which restates the state rather than navigating.
    public var isSnapshot: Bool {
        if case .snapshot = action { return true }
        return false
    }

    /// Whether this event sets the whole state, whatever came before it: a `snapshot`, a `restore`
    /// or a `session.start`. A fold may begin at such an event.
    public var setsWholeState: Bool { action.setsWholeState }

    /// Whether this is a `session.start`, which clears the state.
    public var isSessionStart: Bool {
        if case .sessionStart = action { return true }
        return false
    }

    /// Whether this event begins a session after events of the session `current` (nil at the
    /// start of a log): a type whose descriptor says so (`session.start`) does, and so does an
    /// event of another session, unless it only restates the state (a store snapshot is stamped
    /// with the session of the event after it, which may be the next session's start).
    @inline(__always)
    public func beginsSession(after current: String?) -> Bool {
        if let type = action.eventType {
            if type.restatesState { return false }
            if type.beginsSession { return true }
        }
        return session != current
    }
}

/// What a navigation event did: one case per `type` of event format v1.
public enum NavigationAction: Sendable, Hashable {
    /// A new session (app launch); scenes of an earlier session are gone unless a `restore` follows.
    case sessionStart(app: String?, launch: LaunchKind, meta: [String: String]?)
    /// A clean end of the session.
    case sessionEnd(reason: String?)
    /// A scene (window) opened.
    case sceneOpen(scene: String, kind: String?)
    /// A scene closed.
    case sceneClose(scene: String, kind: String?)
    /// A scene became the active (foreground) one.
    case sceneActivate(scene: String)
    /// A scene's lifecycle phase changed; a scene opens `active`.
    case scenePhase(scene: String, phase: ScenePhase)
    /// A tab was selected; each tab keeps its own stack.
    case tabSelect(scene: String, tab: String)
    /// A route was pushed on a stack.
    case push(scene: String, stack: String, route: Route)
    /// The last `count` routes were popped.
    case pop(scene: String, stack: String, count: Int)
    /// A stack was emptied.
    case popToRoot(scene: String, stack: String)
    /// The top route of a stack was replaced.
    case replace(scene: String, stack: String, route: Route)
    /// A whole stack was replaced.
    case setPath(scene: String, stack: String, path: [Route], cause: PathCause)
    /// A deep link was opened: selects `tab` if given and sets `stack` to `path` if given.
    case deeplink(scene: String, url: String, outcome: DeepLinkOutcome, tab: String?, stack: String?, path: [Route]?)
    /// A sheet was presented over whatever is on top.
    case sheetPresent(scene: String, sheet: String, route: Route, style: SheetStyle?)
    /// A sheet and every sheet above it were dismissed (the topmost when `sheet` is nil).
    case sheetDismiss(scene: String, sheet: String?)
    /// A split view column's selection changed.
    case splitSelect(scene: String, column: SplitColumn, route: Route?)
    /// A split view's column visibility changed.
    case splitVisibility(scene: String, visibility: SplitVisibility)
    /// The full state at this point.
    case snapshot(state: NavigationState)
    /// The new session starts from a restored state.
    case restore(state: NavigationState, from: Int, dropped: [Route])
    /// A type this version does not know, kept with its other members in their original order.
    case unknown(type: String, members: [JSONMember])

    /// Whether the action sets the whole state, whatever came before it, and so may change any
    /// scene, not just one it names (an unknown type changes nothing).
    public var setsWholeState: Bool { eventType?.setsWholeState ?? false }

    /// The `type` member for this action.
    public var type: String {
        if case .unknown(let type, _) = self { return type }
        return eventType?.rawValue ?? ""
    }

    /// The scene the action happened in, for scene-scoped actions.
    public var scene: String? {
        switch self {
        case .sceneOpen(let scene, _), .sceneClose(let scene, _), .sceneActivate(let scene), .scenePhase(let scene, _),
             .tabSelect(let scene, _), .push(let scene, _, _), .pop(let scene, _, _),
             .popToRoot(let scene, _), .replace(let scene, _, _), .setPath(let scene, _, _, _),
             .deeplink(let scene, _, _, _, _, _), .sheetPresent(let scene, _, _, _),
             .sheetDismiss(let scene, _), .splitSelect(let scene, _, _), .splitVisibility(let scene, _):
            scene
        case .sessionStart, .sessionEnd, .snapshot, .restore:
            nil
        case .unknown(_, let members):
            members.first { $0.key == "scene" }.flatMap { if case .string(let s) = $0.value { s } else { nil } }
        }
    }

    /// Whether the action names a scene, and one other than `scene`: asked where the name lies,
    /// one case per pattern, as ``scene`` copies it, a retain and a release (`NavlogBench
    /// timeline`, the index build, which asks at every event).
    package func namesScene(otherThan scene: String?) -> Bool {
        switch self {
        case .sceneOpen(let named, _): named != scene
        case .sceneClose(let named, _): named != scene
        case .sceneActivate(let named): named != scene
        case .scenePhase(let named, _): named != scene
        case .tabSelect(let named, _): named != scene
        case .push(let named, _, _): named != scene
        case .pop(let named, _, _): named != scene
        case .popToRoot(let named, _): named != scene
        case .replace(let named, _, _): named != scene
        case .setPath(let named, _, _, _): named != scene
        case .deeplink(let named, _, _, _, _, _): named != scene
        case .sheetPresent(let named, _, _, _): named != scene
        case .sheetDismiss(let named, _): named != scene
        case .splitSelect(let named, _, _): named != scene
        case .splitVisibility(let named, _): named != scene
        case .sessionStart, .sessionEnd, .snapshot, .restore: false
        case .unknown: self.scene.map { $0 != scene } ?? false
        }
    }

    /// The types of event format v1, in the order of its table.
    public static let knownTypes: [String] = EventType.allCases.map(\.rawValue)
}
