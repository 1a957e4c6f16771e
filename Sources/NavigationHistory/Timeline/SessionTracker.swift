/// Follows a log in seq order and sums up its sessions: what `navlog sessions` lists.
///
/// A session is a run of events with the same `session` member; a `session.start` always begins a
/// new one. It ended cleanly with a `session.end`, uncleanly when another session began without
/// one, and is open when the log ends during it. Store snapshots are not counted as events, and a
/// run of nothing but snapshots is not a session.
package struct SessionTracker: Sendable {
    /// What the tracker knows at one point, so that a later reading can go on from there.
    package struct Checkpoint: Sendable, Hashable {
        /// How many sessions were complete.
        package var completed: Int
        /// The session going on, with the scenes its events named and whether it has ended.
        package var current: SessionSummary?
        package var scenes: [String]
        package var ended: Bool
    }

    package private(set) var completed: [SessionSummary] = []
    private var current: SessionSummary?
    private var scenes: Set<String> = []
    private var ended = false
    private var lastScene: String?

    package init() {}

    /// Goes on from `checkpoint`, the sessions before it being the first ones of `sessions`.
    package init(resumingFrom checkpoint: Checkpoint, sessions: [SessionSummary]) {
        completed = Array(sessions.prefix(checkpoint.completed))
        current = checkpoint.current
        scenes = Set(checkpoint.scenes)
        ended = checkpoint.ended
    }

    package var checkpoint: Checkpoint {
        Checkpoint(completed: completed.count, current: current, scenes: scenes.sorted(), ended: ended)
    }

    /// Every session so far; the last one is open unless it ended.
    package var sessions: [SessionSummary] {
        guard var last = current, last.events > 0 else { return completed }
        last.ending = ended ? .clean : .open
        return completed + [last]
    }

    package mutating func consume(_ event: NavigationEvent) {
        let isStart: Bool
        if case .sessionStart = event.action { isStart = true } else { isStart = false }
        if var session = current, isStart || event.session != session.id {
            // A run of nothing but store snapshots (the one starting a segment before a
            // `session.start`) is not a session.
            if session.events > 0 {
                session.ending = ended ? .clean : .unclean
                completed.append(session)
            }
            current = nil
        }
        if current == nil {
            current = SessionSummary(id: event.session, app: nil, firstSeq: event.seq, lastSeq: event.seq,
                                     start: event.timestamp, end: event.timestamp, ending: .open, events: 0, scenes: 0)
            scenes = []
            lastScene = nil
            ended = false
        }
        current!.lastSeq = event.seq
        current!.end = event.timestamp
        switch event.action {
        case .snapshot: return
        case .sessionStart(let app, _, _): current!.app = app
        case .sessionEnd: ended = true
        default: break
        }
        current!.events += 1
        // Events mostly name the scene the one before named: hash it only when it changes.
        if let scene = event.action.scene, scene != lastScene {
            lastScene = scene
            if scenes.insert(scene).inserted { current!.scenes = scenes.count }
        }
    }
}
