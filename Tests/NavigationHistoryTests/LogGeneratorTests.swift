import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

@Suite struct LogGeneratorTests {
    @Test func theSameSeedGivesTheSameEventsAndAnotherSeedDoesNot() {
        #expect(generatedEvents(2000, seed: 42) == generatedEvents(2000, seed: 42))
        #expect(generatedEvents(2000, seed: 42) != generatedEvents(2000, seed: 43))
    }

    @Test func theSyntheticAppUsesEveryPartOfTheFormatWithoutAnomalies() {
        let events = generatedEvents(30_000, seed: 1, crashRate: 0.2)
        var state = NavigationState()
        var types = Set<String>()
        var outcomes = Set<DeepLinkOutcome>()
        var sawSheetStack = false, sawSplit = false, sawSecondScene = false
        for event in events {
            #expect(Projection.fold(&state, event) == nil, "anomaly at \(event.seq)")
            types.insert(event.type)
            if case .deeplink(_, _, let outcome, _, _, _) = event.action { outcomes.insert(outcome) }
            for scene in state.scenes.values {
                if scene.sheets.contains(where: { !$0.stack.isEmpty }) { sawSheetStack = true }
                if scene.split != nil { sawSplit = true }
            }
            if state.scenes.count > 1 { sawSecondScene = true }
        }
        // Every type an app writes; the store writes snapshots, the restorer restores.
        let expected = Set(EventType.allCases.filter { $0.descriptor.origin == .app }.map(\.rawValue))
        #expect(expected.isSubset(of: types), "missing: \(expected.subtracting(types))")
        #expect(types.contains("scene.phase"))
        #expect(outcomes == Set(DeepLinkOutcome.allCases))
        #expect(sawSheetStack && sawSplit && sawSecondScene)
    }

    /// How each session of `events` ended, by ``SessionEnding`` over the folded events, in order.
    static func endings(_ events: [NavigationEvent]) -> [(session: String, end: SessionEnd)] {
        var endings: [(session: String, end: SessionEnd)] = []
        var state = NavigationState()
        var ending = SessionEnding()
        var session: String?
        for event in events {
            if case .sessionStart = event.action, let current = session {
                endings.append((current, ending.end(over: true)))
                ending = SessionEnding()
            }
            session = event.session
            Projection.fold(&state, event)
            ending.see(event, stateAfter: state)
        }
        if let session { endings.append((session, ending.end(over: false))) }
        return endings
    }

    @Test func mostSessionsEndInTheBackgroundFewerCleanlyAndCrashesAtTheCrashRate() {
        let endings = Self.endings(generatedEvents(50_000, seed: 2, crashRate: 0.3))
        #expect(endings.count > 300)
        #expect(endings.last?.end == .open && endings.dropLast().allSatisfy { $0.end != .open })
        let over = Double(endings.count - 1)
        func share(_ end: SessionEnd) -> Double { Double(endings.filter { $0.end == end }.count) / over }
        #expect(share(.unclean) > 0.2 && share(.unclean) < 0.4, "unclean share \(share(.unclean))")
        #expect(share(.background) > 0.4 && share(.clean) > 0.1 && share(.background) > share(.clean),
                "background \(share(.background)), clean \(share(.clean))")
    }

    @Test func byDefaultFewSessionsCrashAndMostEndInTheBackground() {
        let endings = Self.endings(generatedEvents(50_000, seed: 4, crashRate: 0.02)).dropLast()
        func share(_ end: SessionEnd) -> Double { Double(endings.filter { $0.end == end }.count) / Double(endings.count) }
        #expect(share(.unclean) < 0.06, "unclean share \(share(.unclean))")
        #expect(share(.background) > 0.6 && share(.background) < 0.85, "background share \(share(.background))")
        #expect(share(.clean) > 0.15 && share(.clean) < 0.35, "clean share \(share(.clean))")
    }

    @Test func theAppGoesToTheBackgroundAndComesBackAfterSecondsToHours() {
        let events = generatedEvents(50_000, seed: 6)
        var gaps: [Int64] = []   // from going to the background to coming back, in one session
        var state = NavigationState()
        var since: Timestamp?
        for event in events {
            Projection.fold(&state, event)
            if case .sessionStart = event.action { since = nil }
            guard case .scenePhase(_, let phase) = event.action else { continue }
            let allInBackground = state.scenes.values.allSatisfy { $0.phase == .background }
            if phase == .background, allInBackground, since == nil { since = event.timestamp }
            if phase != .background, let start = since {
                gaps.append(event.timestamp.millisecondsSince1970 - start.millisecondsSince1970)
                since = nil
            }
        }
        gaps.sort()
        #expect(gaps.count > 300, "\(gaps.count) returns from the background")
        #expect(gaps.first! >= 1_000 && gaps.last! <= 7 * 3_600_000)
        #expect(gaps.contains { $0 < 60_000 } && gaps.contains { $0 > 3_600_000 }, "seconds and hours")
    }

    @Test func phasesAreRecordedOnlyForOpenScenesAndOnlyWhenTheyChange() {
        let events = generatedEvents(50_000, seed: 7, crashRate: 0.2)
        var state = NavigationState()
        var phases = Set<ScenePhase>()
        for event in events {
            if case .scenePhase(let scene, let phase) = event.action {
                #expect(state.scenes[scene] != nil, "a phase for a scene not open at \(event.seq)")
                #expect(state.scenes[scene]?.phase != phase, "the same phase again at \(event.seq)")
                phases.insert(phase)
            }
            #expect(Projection.fold(&state, event) == nil, "anomaly at \(event.seq)")
        }
        #expect(phases == Set(ScenePhase.allCases))
    }

    @Test func aCrashedSessionEndsWithItsScenesActiveAndABackgroundOneWithAllInTheBackground() {
        let events = generatedEvents(30_000, seed: 8, crashRate: 0.3)
        let endings = Dictionary(Self.endings(events).map { ($0.session, $0.end) }, uniquingKeysWith: { a, _ in a })
        var state = NavigationState()
        for (event, next) in zip(events, events.dropFirst()) {
            Projection.fold(&state, event)
            guard next.session != event.session else { continue }
            switch endings[event.session] {
            case .unclean?: #expect(state.scenes.values.allSatisfy { $0.phase == .active }, "session \(event.session)")
            case .background?: #expect(!state.scenes.isEmpty && state.scenes.values.allSatisfy { $0.phase == .background })
            case .clean?: #expect(event.action == .sessionEnd(reason: "terminate"))
            default: Issue.record("session \(event.session) ended \(String(describing: endings[event.session]))")
            }
        }
    }

    @Test func timeMovesForwardWithPlausibleDwellTimes() {
        let events = generatedEvents(20_000, seed: 3)
        var gaps = [Int64]()
        for (a, b) in zip(events, events.dropFirst()) {
            let gap = b.timestamp.millisecondsSince1970 - a.timestamp.millisecondsSince1970
            #expect(gap >= 0)
            if a.session == b.session, case .push = b.action { gaps.append(gap) }
        }
        gaps.sort()
        let median = gaps[gaps.count / 2]
        #expect(median > 1_000 && median < 15_000, "median dwell \(median) ms")
    }

    @Test func writtenLogsVerifyAndSegmentsStartWithTheFoldedState() throws {
        let dir = try ScratchDirectory()
        var generator = LogGenerator(seed: 5)
        let log = dir.path + "/log"
        try generator.writeLog(to: log, events: 8000, segmentSize: 150_000)
        var state = NavigationState()
        var checkedSnapshots = 0
        let report = try LogReader(path: log).read { event in
            if case .snapshot(let snapshot) = event.action {
                #expect(snapshot == state, "snapshot at \(event.seq)")
                checkedSnapshots += 1
            }
            Projection.fold(&state, event)
        }
        #expect(report.isClean && report.events == 8000)
        #expect(checkedSnapshots == report.segments && checkedSnapshots > 3)
        let attributes = try FileManager.default.attributesOfItem(atPath: log + "/00000001.jsonl")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
