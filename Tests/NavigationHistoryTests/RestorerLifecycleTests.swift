import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// The restorer and its crash-loop guard with sessions terminated in the background, and
/// snapshots of states with scenes in the background.
@Suite struct RestorerLifecycleTests {
    static let start = RestorerTests.start

    /// Appends sessions to a log: each a start, a restore (of the state before, every scene active
    /// again, as a launch records it) or a `scene.open`, a push halfway, then, at `seconds`, a
    /// `session.end` (clean), the scene going to the background (background), or nothing more: the
    /// push is its last event (unclean).
    static func write(_ path: String, sessions: [(id: String, restored: Bool, end: SessionEnd, seconds: Int64)],
                      options: EventLog.Options = .init(durability: .none)) throws {
        let log = try EventLog(directory: path, options: options)
        var clock = start.millisecondsSince1970
        for session in sessions {
            func at(_ ms: Int64) -> Timestamp { Timestamp(millisecondsSince1970: clock + ms) }
            var drafts = [EventDraft(action: .sessionStart(app: "1", launch: .cold, meta: nil), session: session.id, timestamp: at(0))]
            if session.restored {
                let restored = Restorer().resolved(log.state).0
                drafts.append(EventDraft(action: .restore(state: restored, from: max(1, log.nextSeq - 1), dropped: []), session: session.id, timestamp: at(0)))
            } else {
                drafts.append(EventDraft(action: .sceneOpen(scene: "main", kind: nil), session: session.id, timestamp: at(0)))
            }
            drafts.append(EventDraft(action: .push(scene: "main", stack: "main", route: Route(screen: "recipe", id: session.id)),
                                     session: session.id, timestamp: at(session.seconds * 1000 / 2)))
            switch session.end {
            case .clean: drafts.append(EventDraft(action: .sessionEnd(reason: nil), session: session.id, timestamp: at(session.seconds * 1000)))
            case .background:
                drafts.append(EventDraft(action: .scenePhase(scene: "main", phase: .inactive), session: session.id, timestamp: at(session.seconds * 1000)))
                drafts.append(EventDraft(action: .scenePhase(scene: "main", phase: .background), session: session.id, timestamp: at(session.seconds * 1000)))
            case .unclean, .open: break
            }
            try log.append(contentsOf: drafts)
            clock += session.seconds * 1000 + 60_000
        }
        try log.close()
    }

    @Test func aSessionKilledInTheBackgroundIsRestoredAndSaysItEndedInTheBackground() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        try Self.write(path, sessions: [("a", false, .clean, 60), ("b", true, .background, 30)])
        let result = try Restorer().restore(from: path, now: Self.start)
        #expect(result.guardFired == nil)
        #expect(result.session == "b" && result.sessionEnding == .background)
        let main = try #require(result.state.scenes["main"])
        #expect(main.stacks["main"] == [Route(screen: "recipe", id: "a"), Route(screen: "recipe", id: "b")])
        #expect(main.phase == .active, "a restored state begins a new launch")
        // The same session without its phases: a crash, as before phases.
        let crashed = dir.path + "/crashed"
        try Self.write(crashed, sessions: [("a", false, .clean, 60), ("b", true, .unclean, 30)])
        #expect(try Restorer().restore(from: crashed, now: Self.start).sessionEnding == .unclean)
    }

    @Test func theCrashLoopGuardCountsOnlyUncleanEndsABackgroundEndBreaksALoop() throws {
        let dir = try ScratchDirectory()
        let cases: [(sessions: [(String, Bool, SessionEnd, Int64)], firesFor: [String]?)] = [
            // Killed in the background soon after a restore, then a crash: one crash, no loop.
            ([("a", false, .clean, 60), ("b", true, .background, 4), ("c", true, .unclean, 3)], nil),
            // A background end between two restored crashes: no loop.
            ([("a", false, .clean, 60), ("b", true, .unclean, 4), ("c", true, .background, 3), ("d", true, .unclean, 3)], nil),
            // The last session ended in the background: no loop, whatever came before.
            ([("a", false, .clean, 60), ("b", true, .unclean, 4), ("c", true, .unclean, 3), ("d", true, .background, 3)], nil),
            // Two restored unclean ends in the window, after a background end: a loop.
            ([("a", false, .clean, 60), ("b", true, .background, 4), ("c", true, .unclean, 4), ("d", true, .unclean, 3)], ["d", "c"]),
            ([("a", false, .background, 60), ("b", true, .unclean, 4), ("c", true, .unclean, 3)], ["c", "b"]),
        ]
        for (k, (sessions, firesFor)) in cases.enumerated() {
            let path = dir.path + "/log\(k)"
            try Self.write(path, sessions: sessions.map { ($0.0, $0.1, $0.2, $0.3) })
            let result = try Restorer().restore(from: path, now: Self.start)
            #expect(result.guardFired == firesFor.map { .crashLoop(sessions: $0) }, "case \(k)")
            #expect(result.sessionEnding == sessions.last!.2, "case \(k)")
            if firesFor != nil { #expect(result.state == NavigationState() && result.action == nil) }
        }
    }

    /// A log of one session that closes its only scene after phases, the store writing a snapshot
    /// every 2 events: the restore's fold begins at a snapshot after the phases.
    static func closingLog(_ path: String, phases: Bool) throws -> [NavigationEvent] {
        let log = try EventLog(directory: path, options: .init(durability: .none, snapshotInterval: 2))
        var actions: [NavigationAction] = [.sessionStart(app: "1", launch: .cold, meta: nil), .sceneOpen(scene: "main", kind: nil)]
        if phases { actions += [.scenePhase(scene: "main", phase: .background), .scenePhase(scene: "main", phase: .active)] }
        actions += (1...5).map { .push(scene: "main", stack: "main", route: Route(screen: "recipe", id: "\($0)")) }
        actions.append(.sceneClose(scene: "main", kind: nil))
        for (k, action) in actions.enumerated() {
            _ = try log.append(action, session: "s", at: Timestamp(millisecondsSince1970: Self.start.millisecondsSince1970 + Int64(k) * 1000))
        }
        try log.close()
        var events: [NavigationEvent] = []
        try LogReader(path: path).read { events.append($0) }
        return events
    }

    @Test func aSessionThatClosedItsScenesAfterPhasesBeforeTheLastSnapshotEndedInTheBackground() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/phases"
        let events = try Self.closingLog(path, phases: true)
        let lastPhase = try #require(events.lastIndex { if case .scenePhase = $0.action { true } else { false } })
        #expect(events[(lastPhase + 1)...].contains { $0.isSnapshot }, "the restore folds from a snapshot after the phases")
        let result = try Restorer().restore(from: path, now: Self.start)
        #expect(result.sessionEnding == .background)
        #expect(try Timeline(path: path).sessions.map(\.ending) == [.open])
        // Without phases: a crash.
        let plain = dir.path + "/plain"
        _ = try Self.closingLog(plain, phases: false)
        #expect(try Restorer().restore(from: plain, now: Self.start).sessionEnding == .unclean)
    }

    @Test func aSnapshotTakenWhileASceneIsInTheBackgroundFoldsToTheSameState() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        // Small segments and snapshots: many are taken while `main` or `w2` is in the background.
        let log = try EventLog(directory: path, options: .init(segmentSize: 700, durability: .none, snapshotInterval: 3))
        var clock = Self.start.millisecondsSince1970
        func append(_ action: NavigationAction, _ session: String) throws {
            clock += 1000
            _ = try log.append(action, session: session, at: Timestamp(millisecondsSince1970: clock))
        }
        for session in ["a", "b", "c"] {
            try append(.sessionStart(app: "1", launch: .cold, meta: nil), session)
            try append(.sceneOpen(scene: "main", kind: nil), session)
            try append(.sceneOpen(scene: "w2", kind: nil), session)
            for k in 1...6 {
                try append(.push(scene: "main", stack: "main", route: Route(screen: "recipe", id: "\(session)\(k)")), session)
                try append(.scenePhase(scene: k.isMultiple(of: 2) ? "w2" : "main", phase: k.isMultiple(of: 3) ? .inactive : .background), session)
                try append(.scenePhase(scene: "main", phase: .active), session)
            }
            try append(.scenePhase(scene: "main", phase: .background), session)
            try append(.scenePhase(scene: "w2", phase: .background), session)
        }
        try log.close()
        #expect(try LogFiles.resolve(path).files.count > 3, "the log rotated")
        var events: [NavigationEvent] = []
        var reader = LogReader(path: path, mode: .absolute)
        reader.checksSnapshots = true
        let report = try reader.read { events.append($0) }
        #expect(report.isClean, "\(report.defects.prefix(3))")
        let backgroundSnapshots = events.indices.filter { k in
            if case .snapshot(let state) = events[k].action { state.scenes.values.contains { $0.phase == .background } } else { false }
        }
        #expect(backgroundSnapshots.count > 3)
        var whole = NavigationState()
        for event in events { Projection.fold(&whole, event) }
        for k in backgroundSnapshots {
            var state = NavigationState()
            for event in events[k...] { Projection.fold(&state, event) }
            #expect(state == whole, "folded from the snapshot at seq \(events[k].seq)")
        }
        // Every session was killed in the background, the last one's end unknown.
        #expect(try Timeline(path: path).sessions.map(\.ending) == [.background, .background, .open])
        #expect(try Restorer().restore(from: path, now: Self.start).sessionEnding == .background)
    }

    @Test func aSnapshotThatForgetsAScenesPhaseIsAMismatchAndTheStateJSONKeepsPhaseUnlessActive() throws {
        var state = NavigationState(active: "main", scenes: ["main": SceneState(phase: .background), "w2": SceneState(phase: .inactive),
                                                            "w3": SceneState()])
        let line = LineEncoder.encode(NavigationEvent(seq: 1, timestamp: Self.start, session: "s", action: .snapshot(state: state)))
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains(#""phase":"background""#) && text.contains(#""phase":"inactive""#))
        #expect(!text.contains(#""phase":"active""#), "omitted when active")
        #expect(try decode(String(text.dropLast())).action == .snapshot(state: state))

        let dir = try ScratchDirectory()
        let events = [
            NavigationEvent(seq: 1, timestamp: Self.start, session: "s", action: .sessionStart(app: nil, launch: .cold, meta: nil)),
            NavigationEvent(seq: 2, timestamp: Self.start, session: "s", action: .sceneOpen(scene: "main", kind: nil)),
            NavigationEvent(seq: 3, timestamp: Self.start, session: "s", action: .scenePhase(scene: "main", phase: .background)),
        ]
        var folded = NavigationState()
        for event in events { Projection.fold(&folded, event) }
        state = folded
        state.scenes["main"]!.phase = .active
        let wrong = NavigationEvent(seq: 4, timestamp: Self.start, session: "s", action: .snapshot(state: state))
        var reader = LogReader(path: dir.file("log.jsonl", logBytes(events + [wrong])), mode: .salvage)
        reader.checksSnapshots = true
        #expect(try reader.read { _ in }.defects.map(\.kind) == [.snapshotMismatch])
        let right = NavigationEvent(seq: 4, timestamp: Self.start, session: "s", action: .snapshot(state: folded))
        var clean = LogReader(path: dir.file("right.jsonl", logBytes(events + [right])), mode: .absolute)
        clean.checksSnapshots = true
        #expect(try clean.read { _ in }.isClean)
    }
}
