/// Follows a log in seq order and sums up its sessions: what `navlog sessions` lists.
///
/// A session is a run of events with the same `session` member; a `session.start` always begins a
/// new one. How it ended — clean, background, unclean, or open when the log ends during it — is
/// ``SessionEnding``'s to say, fed each of its events with the state the fold made of it. Store
/// snapshots are not counted as events, and a run of nothing but snapshots is not a session.
package struct SessionTracker: Sendable {
    /// What the tracker knows at one point, so that a later reading can go on from there.
    package struct Checkpoint: Sendable, Hashable {
        /// How many sessions were complete.
        package var completed: Int
        /// The session going on, with the scenes its events named and what tells how it ended.
        package var current: SessionSummary?
        package var scenes: [String]
        package var ending: SessionEnding
    }

    /// The sessions completed since the tracker began (or resumed, see ``init(resumingFrom:)``).
    package private(set) var completed: [SessionSummary] = []
    /// How many sessions were complete before those, when it resumed without them.
    package private(set) var completedBefore = 0
    /// The session going on, when `inSession`. Not an optional, which was copied whole wherever
    /// it was unwrapped.
    private var current = SessionSummary(id: "", app: nil, firstSeq: 0, lastSeq: 0, start: Timestamp(millisecondsSince1970: 0),
                                         end: Timestamp(millisecondsSince1970: 0), ending: .open, events: 0, scenes: 0)
    private var inSession = false
    private var scenes = NamedScenes()
    private var ending = SessionEnding()
    private var lastScene: String?

    package init() {}

    /// Goes on from `checkpoint`, the sessions before it being the first ones of `sessions`.
    package init(resumingFrom checkpoint: Checkpoint, sessions: [SessionSummary]) {
        completed = Array(sessions.prefix(checkpoint.completed))
        if let session = checkpoint.current {
            current = session
            inSession = true
        }
        for scene in checkpoint.scenes { scenes.insert(scene) }
        ending = checkpoint.ending
    }

    /// Goes on from `checkpoint` without the sessions before it: ``sessions`` then lists only those
    /// from the checkpoint on, and the checkpoints it makes still count the ones before.
    package init(resumingFrom checkpoint: Checkpoint) {
        self.init(resumingFrom: Checkpoint(completed: 0, current: checkpoint.current, scenes: checkpoint.scenes, ending: checkpoint.ending),
                  sessions: [])
        completedBefore = checkpoint.completed
    }

    /// How many distinct scenes the session going on named: the size of its ``checkpoint``.
    package var sceneCount: Int { scenes.count }

    package var checkpoint: Checkpoint {
        Checkpoint(completed: completedBefore + completed.count, current: inSession ? current : nil, scenes: scenes.sorted, ending: ending)
    }

    /// Every session so far (from the checkpoint on, when it resumed without the ones before); the
    /// last one is open unless it ended.
    package var sessions: [SessionSummary] {
        guard inSession, current.events > 0 else { return completed }
        var last = current
        last.ending = ending.end(over: false)
        return completed + [last]
    }

    /// Joins the sessions `later` tracked: a tracker that began at the `session.start` this one
    /// consumed last, which ended this one's session before it, and begins the one `later` goes on.
    package mutating func append(_ later: SessionTracker) {
        completed += later.completed
        current = later.current
        inSession = later.inSession
        scenes = later.scenes
        ending = later.ending
        lastScene = later.lastScene
    }

    /// Takes in `event`, the next of the log, with `state`, the state the fold made of it, and
    /// whether the fold `applied` it cleanly (returned no anomaly), when the caller knows.
    package mutating func consume(_ event: NavigationEvent, stateAfter state: NavigationState, applied: Bool? = nil) {
        // Most events neither begin a session nor restate the state nor tell how it ended: one
        // switch sends them the short way, which only counts them (`NavlogBench timeline`, the
        // index build).
        switch event.action {
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .scenePhase, .snapshot, .restore:
            consumeTelling(event, stateAfter: state, applied: applied)
        default:
            if !inSession || event.session != current.id { begin(event) }
            count(event)
        }
    }

    /// ``consume(_:stateAfter:applied:)`` of an event that may begin a session, restate the
    /// state, or tell how the session ended.
    private mutating func consumeTelling(_ event: NavigationEvent, stateAfter state: NavigationState, applied: Bool?) {
        let kind = Kind.of(event.action)
        if !inSession || kind == .start || event.session != current.id { begin(event) }
        ending.see(event, stateAfter: state, applied: applied)
        switch kind {
        case .snapshot:
            current.lastSeq = event.seq
            current.end = event.timestamp
            return
        case .start: current.app = Self.app(of: event.action)
        case .other: break
        }
        count(event)
    }

    /// Counts `event` in the session going on, which it ends for now, with the scene it names.
    @inline(__always)
    private mutating func count(_ event: NavigationEvent) {
        current.lastSeq = event.seq
        current.end = event.timestamp
        current.events += 1
        // Events mostly name the scene the one before named: hash it only when it changes.
        if event.action.namesScene(otherThan: lastScene), let scene = event.action.scene {
            lastScene = scene
            if scenes.insert(scene) { current.scenes = scenes.count }
        }
    }

    /// Ends the session going on, if any, and begins the one `event` belongs to.
    private mutating func begin(_ event: NavigationEvent) {
        // A run of nothing but store snapshots (the one starting a segment before a
        // `session.start`) is not a session.
        if inSession, current.events > 0 {
            current.ending = ending.end(over: true)
            completed.append(current)
        }
        current = SessionSummary(id: event.session, app: nil, firstSeq: event.seq, lastSeq: event.seq,
                                 start: event.timestamp, end: event.timestamp, ending: .open, events: 0, scenes: 0)
        inSession = true
        scenes.removeAll()
        lastScene = nil
        ending = SessionEnding()
    }

    private enum Kind {
        case start, snapshot, other

        /// Which kind of event, by its type's descriptor.
        static func of(_ action: NavigationAction) -> Kind {
            guard let type = action.eventType else { return .other }
            if type.restatesState { return .snapshot }
            if type.beginsSession { return .start }
            return .other
        }
    }

    @inline(never) private static func app(of action: NavigationAction) -> String? {
        if case .sessionStart(let app, _, _) = action { app } else { nil }
    }
}

/// The distinct scenes a session named. A session names a few: each is compared with those named
/// before (equal short strings compare as two words), which costs less than hashing it, and their
/// storage is kept from one session to the next; beyond ``linearLimit`` of them they are hashed
/// too, so that a session naming thousands of scenes stays linear (`NavlogBench timeline`, the
/// index build).
private struct NamedScenes: Sendable {
    /// How many scenes are compared one by one before they are hashed.
    static let linearLimit = 8

    /// The scenes, in the order they were first named.
    private var names: [String] = []
    /// The same scenes, once there are more than ``linearLimit`` of them.
    private var hashed: Set<String>?

    var count: Int { names.count }

    var sorted: [String] { names.sorted() }

    /// Inserts `name` unless it is here; returns whether it was inserted.
    @discardableResult mutating func insert(_ name: String) -> Bool {
        if hashed != nil {
            guard hashed!.insert(name).inserted else { return false }
        } else {
            guard !names.contains(name) else { return false }
            if names.count == Self.linearLimit { hashed = Set(names + [name]) }
        }
        names.append(name)
        return true
    }

    /// Forgets every scene, keeping the storage for the next session's.
    mutating func removeAll() {
        names.removeAll(keepingCapacity: true)
        hashed = nil
    }
}
