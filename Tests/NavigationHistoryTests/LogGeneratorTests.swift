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
        #expect(outcomes == Set(DeepLinkOutcome.allCases))
        #expect(sawSheetStack && sawSplit && sawSecondScene)
    }

    @Test func someSessionsEndUncleanlyAtTheCrashRate() {
        let events = generatedEvents(50_000, seed: 2, crashRate: 0.3)
        var sessions = [String: Bool]()  // session → ended cleanly
        for event in events {
            if case .sessionEnd = event.action { sessions[event.session] = true } else if sessions[event.session] == nil { sessions[event.session] = false }
        }
        let unclean = Double(sessions.values.filter { !$0 }.count) / Double(sessions.count)
        #expect(unclean > 0.2 && unclean < 0.4, "unclean share \(unclean)")
        #expect(sessions.count > 300)
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
