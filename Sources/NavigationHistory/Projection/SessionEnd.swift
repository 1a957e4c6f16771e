/// How a session ended (event format v1, "Lifecycle: background is not a crash").
public enum SessionEnd: String, Sendable, Hashable, CaseIterable {
    /// With a `session.end` event.
    case clean
    /// Terminated in the background, without notice: no `session.end`, and every scene open at
    /// its last event was in `background` (or none was open), in a session that recorded phases.
    /// Not a crash.
    case background
    /// Terminated in the foreground — a crash, a watchdog, a kill: another `session.start` came
    /// without a `session.end`, and the session did not end in the background.
    case unclean
    /// The log ends during the session: it may still be running.
    case open
}

/// What tells how a session ended, gathered as its events are folded: the one place the format's
/// rules for a session's end are applied, by every tool that says how sessions ended.
///
/// ```swift
/// var ending = SessionEnding()
/// var state = NavigationState()
/// for event in session {
///     Projection.fold(&state, event)
///     ending.see(event, stateAfter: state)
/// }
/// print(ending.end(over: true))   // another session began after it
/// ```
public struct SessionEnding: Sendable, Hashable {
    /// Whether the session's `session.end` was seen.
    public private(set) var sawEnd = false
    /// Whether the session recorded a `scene.phase`, or a snapshot restated a scene not `active`.
    public private(set) var sawPhase = false
    /// Whether, after the last event seen, every open scene was in `background` (or none was
    /// open); kept only once a phase was seen.
    public private(set) var inBackground = false

    /// A session of which nothing was seen yet.
    public init() {}

    /// What was gathered of a session at some point, as ``sawEnd``, ``sawPhase`` and
    /// ``inBackground`` tell it: to go on from a checkpoint kept for a later reading.
    package init(sawEnd: Bool, sawPhase: Bool, inBackground: Bool) {
        self.sawEnd = sawEnd
        self.sawPhase = sawPhase
        self.inBackground = sawPhase && inBackground
    }

    /// Takes in `event`, one of the session's, and `state`, the state the fold made of it.
    ///
    /// The scenes' phases are read again only after an event that can change them or the set of
    /// open scenes, and only once the session recorded a phase: a session without phases costs a
    /// test per event (`Tools/bench`, fold).
    @inline(__always)
    public mutating func see(_ event: NavigationEvent, stateAfter state: NavigationState) {
        see(event, stateAfter: state, applied: nil)
    }

    /// ``see(_:stateAfter:)``, told by the fold whether the event `applied` cleanly, when it was
    /// told: a phase of a scene that is open, which is then not looked up again (`NavlogBench
    /// timeline`, the index build).
    @inline(__always)
    package mutating func see(_ event: NavigationEvent, stateAfter state: NavigationState, applied: Bool?) {
        switch event.action {
        case .sessionEnd:
            sawEnd = true
        case .scenePhase(let scene, let phase):
            // A phase of a scene that is not open is an anomaly, the only one a phase can be: it
            // changed nothing, and tells nothing.
            guard applied ?? (state.scenes.index(forKey: scene, after: nil) != nil) else { return }   // found, not copied
            sawPhase = true
            // The fold gave the scene this phase. The scenes are read, each copied out of the
            // state, only when it is `background`: a phase is one event in seven of a log that
            // records them (`NavlogBench timeline`, the index build).
            inBackground = phase == .background && state.isInBackground
        case .sceneOpen, .sceneClose, .sessionStart:
            if sawPhase { inBackground = state.isInBackground }
        case .snapshot:
            // A snapshot restates the session's own phases, recorded before it (in an earlier
            // segment, maybe): a scene not `active` there says the session recorded one.
            if !sawPhase { sawPhase = state.scenes.values.contains { $0.phase != .active } }
            if sawPhase { inBackground = state.isInBackground }
        case .restore:
            // A restored state's phases are not the session's: the fold starts its scenes `active`.
            if sawPhase { inBackground = state.isInBackground }
        default:
            break
        }
    }

    /// How the session ended: `over` when a later session began after it (or a later launch reads
    /// the log), else it is ``SessionEnd/open`` unless its `session.end` was seen.
    public func end(over: Bool) -> SessionEnd {
        if sawEnd { return .clean }
        if !over { return .open }
        return sawPhase && inBackground ? .background : .unclean
    }

    /// How a part of the session that an idle gap (`--idle`) ends ended: ``SessionEnd/background``
    /// when, at its last event, the session had recorded phases and every open scene was in the
    /// background, else ``SessionEnd/clean`` — the session went on after it.
    public var endOfPart: SessionEnd { sawPhase && inBackground ? .background : .clean }
}

extension NavigationState {
    /// Gives every scene the `active` phase, as a restored state begins a new launch.
    mutating func makeEverySceneActive() {
        var index = scenes.startIndex
        while index != scenes.endIndex {
            if scenes.values[index].phase != .active { scenes.values[index].phase = .active }
            scenes.formIndex(after: &index)
        }
    }

    /// The first scene, by name, whose phase is not `active`, with that phase.
    package var firstSceneNotActive: (scene: String, phase: ScenePhase)? {
        scenes.filter { $0.value.phase != .active }.min { $0.key < $1.key }.map { ($0.key, $0.value.phase) }
    }

    /// Whether every open scene is in the `background` phase, or none is open: the app is not
    /// seen. What tells a session ended in the background, and when a session's time is not
    /// foreground time.
    ///
    /// Each scene's phase is read where it lies: passed whole to a closure, a scene is copied, a
    /// retain and a release for each of its members (`NavlogBench timeline`, the index build).
    package var isInBackground: Bool {
        var index = scenes.startIndex
        while index != scenes.endIndex {
            if scenes.values[index].phase != .background { return false }
            scenes.formIndex(after: &index)
        }
        return true
    }
}
