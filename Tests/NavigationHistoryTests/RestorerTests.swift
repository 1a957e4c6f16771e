import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct RestorerTests {
    static let start = Timestamp("2026-11-20T09:00:00.000Z")!

    /// Appends sessions to a log: each a start, an optional restore, a push, and maybe an end,
    /// lasting `seconds`.
    static func write(_ path: String, sessions: [(id: String, restored: Bool, ended: Bool, seconds: Int64)]) throws {
        let log = try EventLog(directory: path, options: .init(durability: .none))
        var clock = start.millisecondsSince1970
        var state = NavigationState()
        for session in sessions {
            func at(_ ms: Int64) -> Timestamp { Timestamp(millisecondsSince1970: clock + ms) }
            var drafts = [EventDraft(action: .sessionStart(app: "1", launch: .cold, meta: nil), session: session.id, timestamp: at(0))]
            if session.restored {
                drafts.append(EventDraft(action: .restore(state: state, from: max(1, log.nextSeq - 1), dropped: []), session: session.id, timestamp: at(0)))
            } else {
                drafts.append(EventDraft(action: .sceneOpen(scene: "main", kind: nil), session: session.id, timestamp: at(0)))
            }
            drafts.append(EventDraft(action: .push(scene: "main", stack: "main", route: Route(screen: "recipe", id: session.id)),
                                     session: session.id, timestamp: at(session.seconds * 1000 / 2)))
            if session.ended { drafts.append(EventDraft(action: .sessionEnd(reason: nil), session: session.id, timestamp: at(session.seconds * 1000))) }
            try log.append(contentsOf: drafts)
            state = log.state
            clock += session.seconds * 1000 + 60_000
        }
        try log.close()
    }

    @Test func theLastSessionsStateIsRestoredWhetherItEndedCleanlyOrNot() throws {
        let dir = try ScratchDirectory()
        for ended in [true, false] {
            let path = dir.path + "/log-\(ended)"
            try Self.write(path, sessions: [("a", false, true, 30), ("b", true, ended, 30)])
            let result = try Restorer().restore(from: path, now: Self.start)
            #expect(result.guardFired == nil)
            #expect(result.session == "b" && result.sessionEnding == (ended ? .clean : .unclean))
            #expect(result.state.scenes["main"]?.stacks["main"] == [Route(screen: "recipe", id: "a"), Route(screen: "recipe", id: "b")])
            #expect(result.action == .restore(state: result.state, from: result.from, dropped: []))
        }
        #expect(try Restorer().restore(from: dir.path + "/empty").guardFired == .nothingToRestore)
    }

    @Test func theCrashLoopGuardFiresOnlyWhenTheLastSessionsEachCrashedSoonAfterARestore() throws {
        let dir = try ScratchDirectory()
        let cases: [([(String, Bool, Bool, Int64)], Bool)] = [
            ([("a", false, true, 60), ("b", true, false, 4), ("c", true, false, 3)], true),
            ([("a", false, true, 60), ("b", true, false, 4), ("c", true, false, 30)], false),   // the last one lasted too long
            ([("a", false, true, 60), ("b", false, false, 4), ("c", true, false, 3)], false),   // b did not start from a restore
            ([("a", false, true, 60), ("b", true, true, 4), ("c", true, false, 3)], false),     // b ended cleanly
            ([("a", false, true, 60), ("c", true, false, 3)], false),                           // only one crash
        ]
        for (k, (sessions, fires)) in cases.enumerated() {
            let path = dir.path + "/log\(k)"
            try Self.write(path, sessions: sessions.map { ($0.0, $0.1, $0.2, $0.3) })
            let result = try Restorer().restore(from: path, now: Self.start)
            #expect((result.guardFired != nil) == fires, "case \(k)")
            if fires {
                #expect(result.guardFired == .crashLoop(sessions: ["c", "b"]))
                #expect(result.state == NavigationState() && result.action == nil, "start at the root")
            }
        }
        let three = Restorer(options: .init(crashLoopSessions: 3))
        let path = dir.path + "/log0"
        #expect(try three.restore(from: path, now: Self.start).guardFired == nil, "three crashes needed, two happened")
    }

    @Test func aStateOlderThanTheMaximumAgeIsNotRestored() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        try Self.write(path, sessions: [("a", false, false, 30)])
        let eightDays = Timestamp(millisecondsSince1970: Self.start.millisecondsSince1970 + 8 * 86_400_000)
        let result = try Restorer().restore(from: path, now: eightDays)
        guard case .stale? = result.guardFired else { Issue.record("expected stale, got \(String(describing: result.guardFired))"); return }
        #expect(try Restorer(options: .init(maximumAge: .seconds(30 * 86_400))).restore(from: path, now: eightDays).guardFired == nil)
    }

    @Test func routesOfScreensTheAppNoLongerKnowsAreDropped() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        try Self.write(path, sessions: [("a", false, false, 30)])
        let result = try Restorer(options: .init(knowsScreen: { $0 != "recipe" })).restore(from: path, now: Self.start)
        #expect(result.state.scenes["main"]?.stacks["main"] == [])
        #expect(result.dropped == [Route(screen: "recipe", id: "a")])
    }

    @Test func theRestoreReadsOnlyBackToTheNearestSnapshotAndEqualsAFullFold() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        var generator = LogGenerator(seed: 31, crashRate: 0)
        try generator.writeLog(to: path, events: 30_000, segmentSize: 1 << 20, snapshotInterval: 500)
        var state = NavigationState()
        var last: NavigationEvent?
        try LogReader(path: path).read { event in
            Projection.fold(&state, event)
            last = event
        }
        let result = try Restorer(options: .init(crashLoopSessions: 1_000_000)).restore(from: path, now: last!.timestamp)
        #expect(result.from == last!.seq)
        if result.guardFired == nil { #expect(result.state == state) }
        // A log whose early part is garbage still restores: only its end is read.
        var bytes = try #require(FileManager.default.contents(atPath: path + "/00000001.jsonl"))
        bytes[100] = 0
        try bytes.write(to: URL(fileURLWithPath: path + "/00000001.jsonl"))
        let again = try Restorer(options: .init(crashLoopSessions: 1_000_000)).restore(from: path, now: last!.timestamp)
        #expect(again.state == result.state)
    }

    @Test func aTornLastLineOfAFullBlockOrANewlinelessTailIsSkippedLikeTheForwardReaderDoes() throws {
        let dir = try ScratchDirectory()
        var events = generatedEvents(200, seed: 19, crashRate: 0)
        var state = NavigationState()
        for event in events { Projection.fold(&state, event) }
        let now = events.last!.timestamp
        // A last line of exactly 64 KiB with a bad crc: torn, as the forward reader says.
        var long = LineEncoder.encode(NavigationEvent(seq: 201, timestamp: now, session: events.last!.session,
                                                      action: .pop(scene: "main", stack: "main", count: 1)))
        long.removeLast()
        long.insert(contentsOf: Array(#""pad":""#.utf8) + [UInt8](repeating: 0x61, count: 65_536 - long.count - 9) + Array(#"","#.utf8), at: 1)
        long[10] ^= 0x01
        let path = dir.file("log.jsonl", logBytes(events) + long + [0x0A])
        #expect(readAll(path).report?.tornTail != nil)
        let restorer = Restorer(options: .init(crashLoopSessions: 1000))
        #expect(try restorer.restore(from: path, now: now).state == state)
        // Zeros without a newline after the last line (a preallocated block): skipped too.
        let zeros = dir.file("zeros.jsonl", logBytes(events) + [UInt8](repeating: 0, count: 200_000))
        #expect(try restorer.restore(from: zeros, now: now).state == state)
        _ = events.removeLast()
    }
}
