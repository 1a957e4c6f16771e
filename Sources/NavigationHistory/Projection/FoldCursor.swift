/// Where the fold last found a scene and, in that scene, a stack: the fold's lookup memory, kept
/// apart from the state by whoever folds many events into one state (``StateFolding``).
///
/// Nearly every event names a scene and a stack, mostly the ones the event before named; finding
/// them again by their remembered index spares hashing their ids (`Tools/bench/run --only read`,
/// the verify fold). A dictionary's index stays valid while no element is added or removed, so the
/// fold forgets a lookup whenever it adds or removes a scene or a stack, or replaces the state; a
/// cursor is only ever used with the one state it was made with, which ``StateFolding`` holds to.
package struct FoldCursor: Sendable {
    /// The scene found last.
    var scene: Lookup<SceneState>?
    /// The stack found last, in the scene `scene` names.
    var stack: Lookup<[Route]>?

    /// A cursor that remembers nothing.
    package init() {}

    /// The index of the scene `key` in `scenes`, remembered; a lookup of another scene forgets the
    /// stack found last.
    @inline(__always)
    mutating func sceneIndex(_ key: String, in scenes: [String: SceneState]) -> [String: SceneState].Index? {
        // Compared where it lies: bound with `if let`, the lookup was copied, its key retained.
        if scene?.key == key, let index = scene?.index { return index }
        stack = nil
        guard let index = scenes.index(forKey: key, after: nil) else {
            scene = nil
            return nil
        }
        scene = Lookup(key: key, index: index)
        return index
    }

    /// Forgets everything: the scenes were added to, removed from, or replaced.
    mutating func forget() {
        scene = nil
        stack = nil
    }
}

/// A key of a dictionary of scenes or stacks, and where it was found.
struct Lookup<Value>: Sendable where Value: Sendable {
    var key: String
    var index: [String: Value].Index
}

extension Dictionary where Key == String, Value: Sendable {
    /// The index of `key`, taken from `last` when it names the same key, and remembered in it.
    /// Always inlined, where `Value` is known: a merged copy for both dictionaries copied `last`
    /// through its type's value witnesses (`Tools/bench/run --only analytics`).
    @inline(__always)
    func index(forKey key: String, remembering last: inout Lookup<Value>?) -> Index? {
        if last?.key == key, let index = last?.index { return index }
        guard let index = index(forKey: key, after: nil) else { return nil }
        last = Lookup(key: key, index: index)
        return index
    }

    /// The index of `key`, taken from `last` when it names the same key; where `last` cannot be
    /// changed, as the screen-view tracker reads a scene.
    @inline(__always)
    func index(forKey key: String, after last: Lookup<Value>?) -> Index? {
        if last?.key == key, let index = last?.index { return index }
        return count <= 8 ? indexByComparing(key) : index(forKey: key)
    }

    /// The index of `key`, found by comparing it with each key: a scene's stacks and an app's
    /// scenes are a few, and comparing a key with all of them costs less than hashing it (equal
    /// short strings compare as two words).
    private func indexByComparing(_ key: String) -> Index? {
        var index = startIndex
        while index != endIndex {
            if keys[index] == key { return index }
            formIndex(after: &index)
        }
        return nil
    }
}

/// A navigation state changed one event at a time by ``Projection``'s fold, with the fold's
/// lookup memory: the way to fold many events into one state. ``Projection/fold(_:_:)`` folds one
/// event into any state, and finds its scene and stack anew each time; this remembers where it
/// found them, which the next event mostly names again (`NavlogBench timeline`, the full fold).
///
/// The state can be read and replaced, never changed on the side, so the memory always fits it.
///
/// ```swift
/// var folding = StateFolding()
/// try LogReader(path: "app.navlog").read { event in folding.fold(event) }
/// print(folding.state.scenes.keys.sorted())
/// ```
public struct StateFolding: Sendable {
    /// The state after the events folded so far.
    public private(set) var state: NavigationState
    private var cursor = FoldCursor()

    /// Begins at `state`.
    public init(_ state: NavigationState = NavigationState()) {
        self.state = state
    }

    /// Applies `event`, as ``Projection/fold(_:_:)`` does.
    ///
    /// - Returns: The anomaly, or nil when the event applied cleanly.
    @discardableResult @inline(__always)
    public mutating func fold(_ event: NavigationEvent) -> Projection.Anomaly? {
        var edits = NoFoldEdits()
        return Projection.fold(&state, event, cursor: &cursor, edits: &edits)
    }

    /// Applies `event`, telling `edits` what it changed in its scene, as
    /// ``Projection/fold(_:_:cursor:edits:)`` does.
    @inline(__always)
    package mutating func fold<Edits: FoldEditRecording>(_ event: NavigationEvent, edits: inout Edits) -> Projection.Anomaly? {
        Projection.fold(&state, event, cursor: &cursor, edits: &edits)
    }

    /// What the scene `id` shows and its tab (see ``SceneState/visibleScreenAndTab(of:detailed:lastStack:)``),
    /// the scene found as the fold last found it and read where it lies (the dictionary's getter
    /// copies a scene, a retain for each of its members; a closure to read it in cost the tracker
    /// 0.8% of `navlog funnel`'s instructions, callgrind); nil when it is not open.
    @inline(__always)
    mutating func visibleScreenAndTab(ofScene id: String, detailed: Bool) -> (VisibleScreen, String?)? {
        let found = cursor.scene?.key == id
        guard let index = found ? cursor.scene?.index : state.scenes.index(forKey: id, after: nil) else { return nil }
        return found ? SceneState.visibleScreenAndTab(of: &state.scenes.values[index], detailed: detailed, lastStack: cursor.stack)
            : SceneState.visibleScreenAndTab(of: &state.scenes.values[index], detailed: detailed, lastStack: nil)
    }

    /// Replaces the state, as a fold that begins again from `state` does.
    public mutating func reset(to state: NavigationState) {
        self.state = state
        cursor.forget()
    }
}
