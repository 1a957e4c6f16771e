import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

/// A `restore` begins a new launch: a phase another writer restated in its state is not the new
/// session's. The fold starts every restored scene `active`, so the session ends by the phases it
/// recorded itself — the fold, the session ends, the restorer's guard and `verify` agree — and the
/// store refuses to write such a restore.
@Suite struct RestoredPhaseTests {
    static let t0 = Timestamp("2026-11-29T12:00:00.000Z")!

    /// A state with scene `main` on recipe 1, in `phase`.
    static func state(_ phase: ScenePhase) -> NavigationState {
        NavigationState(active: "main", scenes: ["main": SceneState(stacks: ["main": [Route(screen: "recipe", id: "1")]], phase: phase)])
    }

    /// Session `a` opens main on recipe 1; `b` and `c` each restore it, restated in the background
    /// as another writer wrote it, push reviews and stop two seconds later without a phase: two
    /// crashes soon after a restore.
    static let events: [NavigationEvent] = {
        let start = NavigationAction.sessionStart(app: "1", launch: .cold, meta: nil)
        let sessions: [(String, [NavigationAction])] = [
            ("a", [start, .sceneOpen(scene: "main", kind: nil), .push(scene: "main", stack: "main", route: Route(screen: "recipe", id: "1"))]),
            ("b", [start, .restore(state: state(.background), from: 3, dropped: []),
                   .push(scene: "main", stack: "main", route: Route(screen: "reviews", id: "b"))]),
            ("c", [start, .restore(state: state(.background), from: 6, dropped: []),
                   .push(scene: "main", stack: "main", route: Route(screen: "reviews", id: "c"))]),
        ]
        var events: [NavigationEvent] = []
        for (k, (session, actions)) in sessions.enumerated() {
            for (j, action) in actions.enumerated() {
                let ms = t0.millisecondsSince1970 + Int64(k) * 60_000 + Int64(j) * 1_000
                events.append(NavigationEvent(seq: events.count + 1, timestamp: Timestamp(millisecondsSince1970: ms), session: session, action: action))
            }
        }
        return events
    }()

    /// The events as a single file another writer wrote (no `crc`, which a single file may leave out).
    static func foreignLog(in scratch: ScratchDirectory) -> String {
        let lines = events.map { event -> [UInt8] in
            var line = LineEncoder.encode(event)
            let crc = Array(#","crc":""#.utf8)
            let at = line.indices.first { line[$0...].starts(with: crc) }!
            line.replaceSubrange(at..<(line.count - 2), with: [])
            return line
        }
        return scratch.file("foreign.jsonl", lines.flatMap { $0 })
    }

    @Test func aRestoreStartsItsScenesActiveWhateverPhaseItsStateRestates() {
        var state = NavigationState()
        for event in Self.events.prefix(5) { #expect(Projection.fold(&state, event) == nil) }
        #expect(state.scenes["main"]?.phase == .active)
        #expect(state.scenes["main"]?.stacks["main"] == [Route(screen: "recipe", id: "1")])
    }

    @Test func aSessionThatRecordedNoPhaseAfterARestoreInTheBackgroundEndsUnclean() {
        var state = NavigationState()
        var ending = SessionEnding()
        for event in Self.events where event.session == "b" {
            Projection.fold(&state, event)
            ending.see(event, stateAfter: state)
        }
        #expect(!ending.sawPhase)
        #expect(ending.end(over: true) == .unclean)
        // The session's own phase still counts.
        ending.see(NavigationEvent(seq: 99, timestamp: Self.t0, session: "b", action: .scenePhase(scene: "main", phase: .background)),
                   stateAfter: Self.state(.background))
        #expect(ending.end(over: true) == .background)
    }

    @Test func theSessionsOfALogWithRestoredPhasesEndAsTheirOwnPhasesSay() throws {
        let scratch = try ScratchDirectory()
        let timeline = try Timeline(path: Self.foreignLog(in: scratch))
        #expect(timeline.sessions.map(\.ending) == [.unclean, .unclean, .open])
    }

    @Test func theCrashLoopGuardCountsCrashesAfterARestoreRestatingTheBackground() throws {
        let scratch = try ScratchDirectory()
        let path = Self.foreignLog(in: scratch)
        let result = try Restorer().restore(from: path, now: Self.events.last!.timestamp)
        #expect(result.sessionEnding == .unclean)
        #expect(result.guardFired == .crashLoop(sessions: ["c", "b"]))
    }

    @Test func verifyWarnsOfAPhaseInARestoredStateAndReadsItAsActive() throws {
        let scratch = try ScratchDirectory()
        let path = Self.foreignLog(in: scratch)
        var reader = LogReader(path: path)
        reader.checksSnapshots = true
        let report = try reader.read { _ in }
        #expect(report.isClean)
        #expect(report.warnings.map(\.kind) == [.restoredPhase, .restoredPhase])
        #expect(report.warnings.map(\.line) == [5, 8])
        #expect(report.warnings.first?.detail.contains("scene 'main' as 'background'") == true)
        // An ordinary reading does not look.
        #expect(try LogReader(path: path).read { _ in }.warnings.isEmpty)
    }

    @Test func theStoreRefusesARestoreWhoseStateIsNotActiveAndWritesNothing() throws {
        let scratch = try ScratchDirectory()
        let log = try EventLog(directory: scratch.path + "/log", options: .init(durability: .none))
        defer { try? log.close() }
        _ = try log.append(.sessionStart(app: "1", launch: .cold, meta: nil), session: "s", at: Self.t0)
        let before = log.nextSeq
        for phase in [ScenePhase.background, .inactive] {
            #expect {
                try log.append(.restore(state: Self.state(phase), from: 1, dropped: []), session: "s", at: Self.t0)
            } throws: { error in
                let error = error as? NavigationHistoryError
                return error?.code == .invalidEvent && error?.message.contains("scene 'main' is '\(phase.rawValue)'") == true
            }
        }
        #expect(log.nextSeq == before)
        #expect(throws: Never.self) { try EventLog.check(EventDraft(action: .restore(state: Self.state(.active), from: 1, dropped: []), session: "s")) }
        _ = try log.append(.restore(state: Self.state(.active), from: 1, dropped: []), session: "s", at: Self.t0)
        #expect(log.nextSeq == before + 1)
    }
}
