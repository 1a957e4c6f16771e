import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// How sessions ended — clean, background, unclean, open — as ``SessionEnding`` says, and as every
/// place that says it (the tracker, the snapshot index, sequential or in chunks) agrees.
@Suite struct SessionEndingTests {
    static let t0 = Timestamp("2026-11-29T12:00:00.000Z")!
    static let start = NavigationAction.sessionStart(app: "1.0", launch: .cold, meta: nil)
    static func open(_ scene: String) -> NavigationAction { .sceneOpen(scene: scene, kind: nil) }
    static func close(_ scene: String) -> NavigationAction { .sceneClose(scene: scene, kind: nil) }
    static func phase(_ scene: String, _ phase: ScenePhase) -> NavigationAction { .scenePhase(scene: scene, phase: phase) }
    static let push = NavigationAction.push(scene: "main", stack: "main", route: Route(screen: "recipe", id: "1"))

    /// Hand-written sessions, each with how it ended when another session began after it.
    static let cases: [(id: String, actions: [NavigationAction], ending: SessionEnd)] = [
        ("clean", [start, open("main"), push, .sessionEnd(reason: nil)], .clean),
        ("background-one-scene", [start, open("main"), push, phase("main", .background)], .background),
        ("background-several-scenes", [start, open("main"), open("w2"), phase("main", .inactive), phase("main", .background),
                                       phase("w2", .background)], .background),
        ("one-scene-still-active", [start, open("main"), open("w2"), phase("main", .background)], .unclean),
        ("inactive-at-the-end", [start, open("main"), phase("main", .inactive)], .unclean),
        ("all-scenes-closed-after-a-phase", [start, open("main"), phase("main", .background), phase("main", .active), push,
                                             phase("main", .inactive), phase("main", .active), close("main")], .background),
        ("no-phases", [start, open("main"), push], .unclean),
        ("no-phases-all-closed", [start, open("main"), close("main")], .unclean),
        ("crash-after-coming-back", [start, open("main"), phase("main", .background), phase("main", .active), push], .unclean),
        ("end-after-backgrounding", [start, open("main"), phase("main", .background), .sessionEnd(reason: nil)], .clean),
    ]

    /// The cases one after the other, each its own session, then a last session killed in the
    /// background: open, since the log ends during it.
    static let log: [NavigationEvent] = {
        let sessions = cases.map { ($0.id, $0.actions) } + [("last", [start, open("main"), phase("main", .background)])]
        var events: [NavigationEvent] = []
        for (id, actions) in sessions {
            for action in actions {
                events.append(NavigationEvent(seq: events.count + 1, timestamp: Timestamp(millisecondsSince1970: t0.millisecondsSince1970 + Int64(events.count) * 1000),
                                              session: id, action: action))
            }
        }
        return events
    }()
    static let expected: [SessionEnd] = cases.map(\.ending) + [.open]

    @Test func eachHandWrittenSessionEndsAsTheFormatSays() {
        for (id, actions, ending) in Self.cases {
            var state = NavigationState()
            var seen = SessionEnding()
            for (k, action) in actions.enumerated() {
                let event = NavigationEvent(seq: k + 1, timestamp: Self.t0, session: id, action: action)
                #expect(Projection.fold(&state, event) == nil, "\(id): \(action.type)")
                seen.see(event, stateAfter: state)
            }
            #expect(seen.end(over: true) == ending, "\(id)")
            // The log's last session: open unless it ended with a session.end.
            #expect(seen.end(over: false) == (ending == .clean ? .clean : .open), "\(id)")
        }
    }

    @Test func aSessionThatBeganAtASnapshotOfAStateInTheBackgroundRecordedAPhase() {
        let state = NavigationState(active: "main", scenes: ["main": SceneState(phase: .background)])
        var seen = SessionEnding()
        seen.see(NavigationEvent(seq: 1, timestamp: Self.t0, session: "s", action: .snapshot(state: state)), stateAfter: state)
        #expect(seen.sawPhase && seen.end(over: true) == .background)
        var active = SessionEnding()
        let activeState = NavigationState(active: "main", scenes: ["main": SceneState()])
        active.see(NavigationEvent(seq: 1, timestamp: Self.t0, session: "s", action: .snapshot(state: activeState)), stateAfter: activeState)
        #expect(!active.sawPhase && active.end(over: true) == .unclean)
    }

    /// The sessions a tracker fed `events` (from `from` on, after `tracker`'s) counts.
    static func tracked(_ events: some Sequence<NavigationEvent>, by tracker: SessionTracker = SessionTracker(),
                        state: NavigationState = NavigationState()) -> (tracker: SessionTracker, state: NavigationState) {
        var (tracker, state) = (tracker, state)
        for event in events {
            Projection.fold(&state, event)
            tracker.consume(event, stateAfter: state)
        }
        return (tracker, state)
    }

    @Test func theTrackerSaysEachSessionsEndingTheLastOneOpen() {
        let sessions = Self.tracked(Self.log).tracker.sessions
        #expect(sessions.map(\.id) == Self.cases.map(\.id) + ["last"])
        #expect(sessions.map(\.ending) == Self.expected)
    }

    @Test func aTrackerResumedFromItsCheckpointAtAnyEventEndsTheSessionsAlike() {
        let whole = Self.tracked(Self.log).tracker.sessions
        for cut in 0...Self.log.count {
            let (before, state) = Self.tracked(Self.log[..<cut])
            let resumed = SessionTracker(resumingFrom: before.checkpoint, sessions: before.sessions)
            let sessions = Self.tracked(Self.log[cut...], by: resumed, state: state).tracker.sessions
            #expect(sessions == whole, "resumed at event \(cut)")
        }
    }

    @Test func trackersOfChunksBegunAtSessionStartsAppendToTheSessionsOfOne() {
        let whole = Self.tracked(Self.log).tracker.sessions
        let starts = Self.log.indices.filter { Self.log[$0].isSessionStart }
        // Chunks as the reader makes them: each from a session.start to the next chunk's first
        // event, which ends its last session.
        for every in 1...3 {
            let bounds = stride(from: 0, to: starts.count, by: every).map { starts[$0] } + [Self.log.count]
            var joined = SessionTracker()
            for (from, to) in zip(bounds, bounds.dropFirst()) {
                joined.append(Self.tracked(Self.log[from..<min(to + 1, Self.log.count)]).tracker)
            }
            #expect(joined.sessions == whole, "chunks of \(every) sessions")
        }
    }

    @Test(arguments: [1, 4])
    func theIndexSessionsAreTheTrackersInOrderAndInChunks(interval: Int) throws {
        let dir = try ScratchDirectory()
        let path = dir.file("log.jsonl", logBytes(Self.log))
        let source = try LogSource(path: path)
        let inOrder = try SnapshotIndex.updated(source, interval: interval, save: false, threads: 1)
        let chunked = try SnapshotIndex.updated(source, interval: interval, save: false, threads: 4, chunkedFrom: 0)
        #expect(chunked.chunks > 1)
        #expect(inOrder.index.sessions()?.map(\.ending) == Self.expected)
        #expect(chunked.index.sessions() == inOrder.index.sessions())
        #expect(chunked.index.entries == inOrder.index.entries)
        #expect(chunked.index.encoded() == inOrder.index.encoded(), "the index files are the same bytes")
        // What `navlog sessions` lists.
        #expect(try Timeline(path: path).sessions.map(\.ending) == Self.expected)
    }

    @Test func anIndexExtendedFromASavedEntryAfterAPhaseStillSaysBackground() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log.jsonl"
        // Cut within the session that closes its scenes after phases: its end is told by the
        // phases before the last entry, read back from the index file.
        let closing = Self.log.firstIndex { $0.session == "all-scenes-closed-after-a-phase" && $0.action == Self.close("main") }!
        try TimelineTests.rewrite(path, Self.log[..<closing])
        let first = try SnapshotIndex.updated(try LogSource(path: path), interval: 1)
        let last = try #require(first.index.entries.last)
        #expect(first.saveError == nil)
        let snapshot = try #require(first.index.snapshot(of: last))
        #expect(snapshot.session == "all-scenes-closed-after-a-phase" && snapshot.sessions.ending.sawPhase)
        try TimelineTests.rewrite(path, Self.log)
        let extended = try SnapshotIndex.updated(try LogSource(path: path), interval: 1)
        #expect(!extended.rebuilt)
        #expect(extended.index.sessions()?.map(\.ending) == Self.expected)
    }

    /// An index file as versions 1 and 2 wrote it: JSON lines, each ending in its checksum, a
    /// header naming the version, then (here) no entry and an end line.
    static func jsonIndex(version: Int, interval: Int) -> [UInt8] {
        [#"{"navidx":\#(version),"interval":\#(interval),"mode":"tolerateTornTail""#, #"{"end":{"entries":0,"sessions":0}"#].flatMap { body in
            Array((body + #","crc":""# + LineDecoder.hex8(CRC32C.checksum(Array(body.utf8))) + "\"}\n").utf8)
        }
    }

    @Test(arguments: [1, 2])
    func anIndexFileOfAnEarlierJSONVersionIsRebuiltNotMisread(version: Int) throws {
        let dir = try ScratchDirectory()
        let path = dir.file("log.jsonl", logBytes(Self.log))
        let file = SnapshotIndex.path(forLog: path, segmented: false)
        try Data(Self.jsonIndex(version: version, interval: 4)).write(to: URL(fileURLWithPath: file))
        #expect(SnapshotIndex.open(file, atMost: 1 << 20) == nil, "a JSON index is not opened")
        let update = try SnapshotIndex.updated(try LogSource(path: path), interval: 4)
        #expect(update.rebuilt && update.saveError == nil)
        #expect(update.index.sessions()?.map(\.ending) == Self.expected)
        let saved = try #require(SnapshotIndex.open(file, atMost: 1 << 20), "saved again in the new version")
        #expect(saved.entries == update.index.entries)
        let reopened = try Timeline(path: path, interval: 4)
        #expect(!reopened.indexRebuilt)
        #expect(reopened.sessions.map(\.ending) == Self.expected)
    }
}
