/// A span of time during which one scene showed one route: the unit of every analytics query.
///
/// As event format v1 defines it: a view begins whenever a scene's visible route (screen and id)
/// changes, and ends at the scene's next change, the scene's close, or the session's end; when the
/// session ended ``SessionEnd/unclean`` it ends at the session's last event and is marked
/// ``crashed``; when it ended ``SessionEnd/background``, a view whose scene was in the background
/// ends when the scene went there, not crashed. Going to the background and back does not begin a
/// new view: the view pauses, and its time in the background is ``backgroundMilliseconds``, apart
/// from its ``dwellMilliseconds``. A view with no foreground time is transient and not reported,
/// unless it crashed. A view that ends before it began — the device's clock went back while it was
/// visible — is reported, with a dwell of 0 and ``clockWentBack`` set: it was seen, for how long
/// is not known.
public struct ScreenView: Sendable, Hashable {
    /// The session.
    public var session: String
    /// The scene.
    public var scene: String
    /// The scene's selected tab when the view began.
    public var tab: String?
    /// What was visible: the route, its stack, its depth and the sheets over the stacks.
    public var screen: VisibleScreen
    /// The `type` of the event that began the view (`push`, `pop`, `tab.select`, ...).
    public var enteredBy: String
    /// The seq of the event that began the view.
    public var startSeq: Int
    /// When the view began.
    public var start: Timestamp
    /// The seq of the event that ended the view.
    public var endSeq: Int
    /// When the view ended.
    public var end: Timestamp
    /// Whether the session ended uncleanly while this was visible.
    public var crashed: Bool
    /// How long, of its time, its scene was in the `background` phase, in milliseconds.
    public var backgroundMilliseconds: Int64 = 0

    /// How long the view was seen, in milliseconds: its time less ``backgroundMilliseconds`` (an
    /// `inactive` scene is still seen); 0 when it ended before it began.
    public var dwellMilliseconds: Int64 { max(0, foregroundMilliseconds) }

    /// Its time less its time in the background, negative when the clock went back.
    var foregroundMilliseconds: Int64 { end.millisecondsSince1970 - start.millisecondsSince1970 - backgroundMilliseconds }

    /// Whether the view ended before it began: the clock went back while it was visible.
    public var clockWentBack: Bool { end.millisecondsSince1970 < start.millisecondsSince1970 }
}

/// Follows a log in seq order, folding each event, and reports the screen views as they end.
///
/// ```swift
/// var views = ScreenViewTracker()
/// try LogReader(path: path).read { event in
///     for view in views.consume(event).ended { print(view.screen.route.screen, view.dwellMilliseconds) }
/// }
/// for view in views.finish() { print(view.screen.route.screen, "open at the end of the log") }
/// ```
public struct ScreenViewTracker: Sendable {
    /// The state after the last event consumed.
    public var state: NavigationState { folding.state }
    /// The state and the fold's lookup memory.
    private var folding = StateFolding()
    /// The open view of each scene that has one, changed in place.
    private var open = OpenViews()
    /// The session of the last event that began one.
    package private(set) var session: String?
    /// What tells how that session ended.
    private var ending = SessionEnding()
    /// The scenes in the background with a view open, and since which event: a few, asked only
    /// while some scene is there.
    private var paused: [(scene: String, seq: Int, since: Timestamp)] = []
    /// The session the last event consumed ended, with how it ended: one that another began
    /// after. Nil when that event ended none.
    package private(set) var endedSession: (id: String, ending: SessionEnd)?
    /// How the part of the session so far would have ended, were an idle gap to end it now
    /// (``SessionEnding/endOfPart``).
    package var endOfPart: SessionEnd { ending.endOfPart }
    private var last: (seq: Int, timestamp: Timestamp)?
    /// Whether views carry their details: see ``init(detailed:)``.
    private let detailed: Bool

    /// Creates a tracker at the start of a log.
    public init() { detailed = true }

    /// Creates a tracker at the start of a log whose views, unless `detailed`, leave out the
    /// members that cost most to copy and that some queries never read: the tab (nil), how the
    /// view was entered (`""`), and the route's stack and params (nil). Views begin and end as
    /// detailed ones do: the screen and id that decide it are kept.
    package init(detailed: Bool) { self.detailed = detailed }

    /// Folds `event` into the state and returns the fold's anomaly, if any, and the views that
    /// ended with it (sorted by scene).
    public mutating func consume(_ event: NavigationEvent) -> (anomaly: Projection.Anomaly?, ended: [ScreenView]) {
        let ended = EndedViews()
        let anomaly = consume(event, into: ended)
        return (anomaly, ended.takeAll())
    }

    /// Like ``consume(_:)``, but adds the views that ended to `ended` (sorted by scene among
    /// themselves): a caller that takes them out makes no array per event.
    @discardableResult
    package mutating func consume(_ event: NavigationEvent, into ended: EndedViews) -> Projection.Anomaly? {
        let first = ended.held
        defer { ended.sortByScene(from: first) }
        if endedSession != nil { endedSession = nil }   // released only when there is one
        let begins = event.beginsSession(after: session)
        if begins {
            if let session {
                let end = ending.end(over: true)
                endAll(at: last!, ending: end, into: ended)
                endedSession = (session, end)
            }
            // What a log's first snapshot told of the session it restates is kept: only a session
            // that ends, or a start, begins the ending anew.
            if session != nil || event.isSessionStart { ending = SessionEnding() }
            session = event.session
        }
        let anomaly = folding.fold(event)
        ending.see(event, stateAfter: folding.state)
        if event.isSnapshot && session != nil { return anomaly }   // equal to the folded state: no view changes
        last = (event.seq, event.timestamp)
        if case .sessionEnd = event.action {
            endAll(at: (event.seq, event.timestamp), ending: .clean, into: ended)
            return anomaly
        }
        if case .scenePhase(let scene, _) = event.action, anomaly == nil { changePhase(of: scene, at: (event.seq, event.timestamp)) }
        // The scene the event names, the only one it can change, else every scene when the event
        // replaces the state.
        if let scene = event.setsWholeState ? nil : event.action.scene {
            if anomaly == nil { update(scene, after: event, into: ended) }   // an anomaly changed nothing
        } else if event.setsWholeState {
            // The scenes with a view or a state.
            for scene in Set(open.scenes).union(state.scenes.keys).sorted() { update(scene, after: event, into: ended) }
            followPhases(at: (event.seq, event.timestamp))
        }
        return anomaly
    }

    /// Ends the views still open at the end of the log, at the last event, and says how the last
    /// session ended (``SessionEnd/open`` unless its `session.end` was seen). In a session still
    /// open, a view the last event began is kept although it lasted 0 ms: it is the screen the
    /// state shows as visible, and the user sees it still.
    public mutating func finish() -> (views: [ScreenView], lastSession: SessionEnd?) {
        guard let last, session != nil else { return ([], nil) }
        let ended = EndedViews()
        let end = ending.end(over: false)
        endAll(at: last, ending: end, keepInstant: end == .open, into: ended)   // in the order of their scenes
        return (ended.takeAll(), end)
    }

    /// Ends every open view at the last event (not crashed) and begins each again at `event`, which
    /// is about to be consumed: what analytics do at an idle gap that splits a session. A view the
    /// gap ends is kept even when it lasted 0 ms (the user saw it; the gap is not dwell). The views
    /// begun again are entered by `"resume"`.
    public mutating func resume(before event: NavigationEvent) -> [ScreenView] {
        guard let last else { return [] }
        let scenes = open.scenes.sorted()
        let ended = EndedViews()
        endAll(at: last, ending: ending.endOfPart, keepInstant: true, into: ended)
        for scene in scenes {
            guard let now = state.scenes[scene] else { continue }
            let screen = SceneState.visibleScreen(of: now, detailed: detailed)
            open.append(ScreenView(session: event.session, scene: scene, tab: detailed ? now.tab : nil, screen: screen,
                                   enteredBy: detailed ? "resume" : "", startSeq: event.seq, start: event.timestamp, endSeq: event.seq,
                                   end: event.timestamp, crashed: false))
            pauseIfInBackground(scene, at: (event.seq, event.timestamp))
        }
        return ended.takeAll()
    }

    private mutating func update(_ scene: String, after event: NavigationEvent, into ended: EndedViews) {
        let index = open.index(of: scene)
        let now = (event.seq, event.timestamp)
        // For a scene-scoped event the fold has just found the scene: found again without hashing
        // its id, and read in place.
        guard let (screen, tab) = folding.visibleScreenAndTab(ofScene: scene, detailed: detailed) else {
            if let index {
                var view = open.remove(at: index)
                if !paused.isEmpty, let pause = unpause(scene) { view.backgroundMilliseconds += Self.milliseconds(from: pause.since, to: now.1) }
                ended.end(view, at: now, crashed: false)
            }
            return
        }
        if let index, open.views[index].screen.showsSameRoute(as: screen) { return }
        let view = ScreenView(session: event.session, scene: scene, tab: tab, screen: screen,
                              enteredBy: detailed ? event.action.type : "", startSeq: event.seq, start: event.timestamp, endSeq: event.seq,
                              end: event.timestamp, crashed: false)
        guard let index else {
            open.append(view)
            pauseIfInBackground(scene, at: now)   // a scene's first view, seldom
            return
        }
        // A view that ends in the background: its time there since it paused is background time,
        // and the view after it begins paused.
        if !paused.isEmpty, let place = paused.firstIndex(where: { $0.scene == scene }) {
            open.views[index].backgroundMilliseconds += Self.milliseconds(from: paused[place].since, to: now.1)
            (paused[place].seq, paused[place].since) = now
        }
        end(at: index, now, into: ended, beginning: view)
    }

    /// Ends the open view at `index`, moved out into `ended`, and begins `next` in its place.
    private mutating func end(at index: Int, _ end: (seq: Int, timestamp: Timestamp), into ended: EndedViews,
                              beginning next: consuming ScreenView) {
        ended.end(replacing: &open.views[index], with: next, at: end, crashed: false)
    }

    /// Ends every open view at `end`, the end of a session, or of a part of one that an idle gap
    /// ends, that ended as `ending` says: crashed when it is ``SessionEnd/unclean``. A view paused in
    /// the background ends when it paused if the session ended ``SessionEnd/background``, else at
    /// `end` with its time since as background time.
    private mutating func endAll(at end: (seq: Int, timestamp: Timestamp), ending: SessionEnd, keepInstant: Bool = false,
                                 into ended: EndedViews) {
        var views = open.removeAll()
        views.sort { $0.scene > $1.scene }   // popped from the last, in the order of their scenes
        while var view = views.popLast() {
            if !paused.isEmpty, let pause = unpause(view.scene) {
                if ending == .background {
                    ended.end(view, at: (pause.seq, pause.since), crashed: false, keepInstant: keepInstant)
                    continue
                }
                view.backgroundMilliseconds += Self.milliseconds(from: pause.since, to: end.timestamp)
            }
            ended.end(view, at: end, crashed: ending == .unclean, keepInstant: keepInstant)
        }
        paused.removeAll()
    }

    /// Follows `scene`'s new phase: its open view pauses when it went to the background, and
    /// resumes, its time there counted, when it came back.
    private mutating func changePhase(of scene: String, at event: (seq: Int, timestamp: Timestamp)) {
        guard let phase = folding.state.scenes[scene]?.phase else { return }
        if phase == .background {
            pauseIfInBackground(scene, at: event)
        } else if let pause = unpause(scene), let index = open.index(of: scene) {
            open.views[index].backgroundMilliseconds += Self.milliseconds(from: pause.since, to: event.timestamp)
        }
    }

    /// Resumes the paused views of scenes that an event setting the whole state brought out of the
    /// background, and pauses those it sent there.
    private mutating func followPhases(at event: (seq: Int, timestamp: Timestamp)) {
        for (scene, _, _) in paused where folding.state.scenes[scene]?.phase != .background {
            changePhase(of: scene, at: event)
        }
        for scene in open.scenes { pauseIfInBackground(scene, at: event) }
    }

    /// Pauses the open view of `scene` from `event`, when the scene is in the background and its
    /// view is not paused already.
    private mutating func pauseIfInBackground(_ scene: String, at event: (seq: Int, timestamp: Timestamp)) {
        guard folding.state.scenes[scene]?.phase == .background, open.index(of: scene) != nil,
              !paused.contains(where: { $0.scene == scene }) else { return }
        paused.append((scene, event.seq, event.timestamp))
    }

    /// Resumes `scene`'s view, if it was paused: returns since which event.
    private mutating func unpause(_ scene: String) -> (seq: Int, since: Timestamp)? {
        guard let place = paused.firstIndex(where: { $0.scene == scene }) else { return nil }
        let pause = paused.remove(at: place)
        return (pause.seq, pause.since)
    }

    /// The time from `start` to `end`, none when the clock went back between them: time in the
    /// background is never negative, so that it never adds to a view's dwell.
    private static func milliseconds(from start: Timestamp, to end: Timestamp) -> Int64 {
        max(0, end.millisecondsSince1970 - start.millisecondsSince1970)
    }
}

/// The open view of each scene that has one, in no particular order, found by scene.
private struct OpenViews {
    /// Changed in place only: a view is added or removed through the methods below, which keep
    /// ``index`` in step.
    var views: [ScreenView] = []
    /// The scene of each view, by its place in ``views``.
    private var index = SceneIndex()

    var scenes: [String] { index.scenes }

    func index(of scene: String) -> Int? { index.index(of: scene) }

    mutating func append(_ view: consuming ScreenView) {
        index.append(view.scene)
        views.append(view)
    }

    /// Removes the view at `place`, the last view taking its place.
    mutating func remove(at place: Int) -> ScreenView {
        index.remove(at: place)
        views.swapAt(place, views.count - 1)
        return views.removeLast()
    }

    /// Removes every view, and returns them.
    mutating func removeAll() -> [ScreenView] {
        index.removeAll()
        var all: [ScreenView] = []
        swap(&all, &views)
        return all
    }
}
