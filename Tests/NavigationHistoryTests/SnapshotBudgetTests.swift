import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// The store can write the state as a snapshot at any moment: every line it writes is one its
/// reader accepts, whatever the app navigates to.
@Suite struct SnapshotBudgetTests {
    /// A route whose params take about `bytes` bytes.
    func heavyRoute(_ n: Int, bytes: Int = 900) -> Route {
        Route(screen: "recipe", id: "recipe-\(n)", params: ["notes": String(repeating: "x", count: bytes)])
    }

    /// Reads `path` strictly, checking every snapshot against the fold, and returns its events.
    func readStrictly(_ path: String) throws -> [NavigationEvent] {
        var events: [NavigationEvent] = []
        var reader = LogReader(path: path, mode: .absolute)
        reader.checksSnapshots = true
        let report = try reader.read { events.append($0) }
        #expect(report.isClean, "\(report.defects.prefix(3))")
        return events
    }

    /// The lengths of every line in the log's files.
    func lineLengths(_ path: String) throws -> [Int] {
        try LogFiles.resolve(path).files.flatMap { file in
            try Data(contentsOf: URL(fileURLWithPath: file)).split(separator: 0x0A).map(\.count)
        }
    }

    @Test(arguments: [(segmentSize: 8 << 20, interval: 2048), (segmentSize: 96 << 10, interval: 7)])
    func anAppWhoseStateOutgrowsALineHasTheEventThatWouldOverflowItRefusedAndEveryLineReadable(segmentSize: Int, interval: Int) throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let log = try EventLog(directory: path, options: .init(segmentSize: segmentSize, durability: .none, snapshotInterval: interval))
        try log.append(.sessionStart(app: "1", launch: .cold, meta: nil), session: "s")
        try log.append(.sceneOpen(scene: "main", kind: nil), session: "s")
        // Four tabs of twenty routes with 900-byte params: a state of about 76 KB, were it let grow.
        var accepted = 2, refused = 0
        func append(_ action: NavigationAction) throws {
            do {
                try log.append(action, session: "s")
                accepted += 1
            } catch let error as NavigationHistoryError where error.code == .invalidEvent {
                #expect(error.message.contains("snapshot"), "\(error.message)")
                refused += 1
            }
        }
        for n in 0..<80 {
            let tab = ["home", "search", "favorites", "profile"][n % 4]
            try append(.tabSelect(scene: "main", tab: tab))
            try append(.push(scene: "main", stack: tab, route: heavyRoute(n)))
        }
        #expect(refused > 0, "the state reached the limit")
        #expect(SnapshotBudget.snapshotLength(of: log.state, session: "s") <= LineDecoder.maximumLineLength)
        // Pops make room again, and pushes fill it, over segment rotations and snapshots.
        for n in 0..<200 {
            let tab = ["home", "search", "favorites", "profile"][n % 4]
            try append(.tabSelect(scene: "main", tab: tab))
            try append(n % 8 < 3 ? .pop(scene: "main", stack: tab, count: 1) : .push(scene: "main", stack: tab, route: heavyRoute(n)))
        }
        try log.close()
        #expect(try lineLengths(path).allSatisfy { $0 <= LineDecoder.maximumLineLength })
        let events = try readStrictly(path)
        #expect(events.filter { !$0.isSnapshot }.count == accepted, "every acknowledged event is read back")
        let reopened = try EventLog(directory: path, options: .init(segmentSize: segmentSize, durability: .none))
        #expect(reopened.recovery.isClean)
        #expect(reopened.state == log.state)
        try reopened.append(.sessionStart(app: "1", launch: .warm, meta: nil), session: "t")
        try reopened.close()
        _ = try readStrictly(path)
    }

    @Test func aRestoredStateNearTheLimitTakesOnlyTheEventsThatKeepItWritable() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        var state = NavigationState(active: "main", scenes: ["main": SceneState(tab: "home")])
        state.scenes["main"]!.stacks["home"] = (0..<66).map { heavyRoute($0) }
        let log = try EventLog(directory: path, options: .init(segmentSize: 32 << 10, durability: .none, snapshotInterval: 3))
        try log.append(.sessionStart(app: "1", launch: .cold, meta: nil), session: "s")
        try log.append(.restore(state: state, from: 1, dropped: []), session: "s")
        var refusals = 0
        for n in 0..<20 {
            do { try log.append(.push(scene: "main", stack: "home", route: heavyRoute(100 + n)), session: "s") } catch { refusals += 1 }
            try log.append(.tabSelect(scene: "main", tab: n % 2 == 0 ? "search" : "home"), session: "s")
        }
        #expect(refusals > 0)
        try log.close()
        #expect(try lineLengths(path).allSatisfy { $0 <= LineDecoder.maximumLineLength })
        _ = try readStrictly(path)
        _ = try EventLog(directory: path)
    }

    @Test func aSegmentIsRotatedOnlyOnceItsEventsTakeAsManyBytesAsItsOpeningSnapshot() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let log = try EventLog(directory: path, options: .init(segmentSize: 1024, durability: .none, snapshotInterval: nil))
        try log.append(.sceneOpen(scene: "main", kind: nil), session: "s")
        try log.append(.setPath(scene: "main", stack: "main", path: (0..<20).map { heavyRoute($0) }, cause: .programmatic), session: "s")
        for n in 0..<400 { try log.append(.tabSelect(scene: "main", tab: "tab\(n % 3)"), session: "s") }
        try log.close()
        // The state takes about 19 KB and each event about 100 bytes: 40 KB of events in all.
        let segments = try Opening.segmentNumbers(path).count
        #expect(segments >= 2 && segments <= 4, "\(segments) segments")
        _ = try readStrictly(path)
    }

    @Test func aSegmentWhoseSnapshotWouldNotFitTheNextEventsSessionWaitsForTheNextEvent() throws {
        let dir = try ScratchDirectory()
        let path = dir.path + "/log"
        let log = try EventLog(directory: path, options: .init(segmentSize: 4096, durability: .none, snapshotInterval: nil))
        try log.append(.sceneOpen(scene: "main", kind: nil), session: "s")
        var n = 0
        while true {
            do { try log.append(.push(scene: "main", stack: "main", route: heavyRoute(n, bytes: 1000)), session: "s") } catch { break }
            n += 1
        }
        // A full segment, a state close to the limit, and a new session with a long id: its
        // session.start empties the state, but the snapshot before it would be of the old state.
        let long = String(repeating: "L", count: 2000)
        try log.append(.sessionStart(app: "1", launch: .cold, meta: nil), session: long)
        try log.append(.sceneOpen(scene: "main", kind: nil), session: long)
        try log.close()
        #expect(try lineLengths(path).allSatisfy { $0 <= LineDecoder.maximumLineLength })
        _ = try readStrictly(path)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theBoundIsNeverBelowTheSnapshotsLengthAndARefusalMeansTheStateWouldNotFit(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        func id(_ random: inout SeededRandom) -> String {
            let length = [1, 8, 40, 900, 4000][Int(random.next() % 5)]
            // Escaped characters take more bytes in a line, and as many in the state.
            let characters: [Character] = ["a", "\u{1}", "\"", "é"]
            return String(repeating: characters[Int(random.next() % 4)], count: length)
        }
        func route(_ random: inout SeededRandom) -> Route {
            Route(screen: "s" + id(&random).prefix(20), id: id(&random), params: random.next() % 2 == 0 ? nil : [id(&random): id(&random)])
        }
        var state = NavigationState()
        let session = "session"
        var budget = SnapshotBudget(state, session: session)
        var refusals = 0
        for seq in 1...3000 {
            let scene = random.next() % 4 == 0 ? id(&random) : "main"
            let stack = ["main", "home", id(&random)][Int(random.next() % 3)]
            let action: NavigationAction = switch random.next() % 12 {
            case 0: .sceneOpen(scene: scene, kind: nil)
            case 1: .sceneActivate(scene: scene)
            case 2: .tabSelect(scene: "main", tab: stack)
            case 3, 4: .push(scene: "main", stack: stack, route: route(&random))
            case 5: .pop(scene: "main", stack: stack, count: Int(random.next() % 3) + 1)
            case 6: .setPath(scene: "main", stack: stack, path: [route(&random), route(&random)], cause: .programmatic)
            case 7: .deeplink(scene: "main", url: "x://" + id(&random), outcome: .resolved, tab: id(&random), stack: stack, path: [route(&random)])
            case 8: .sheetPresent(scene: "main", sheet: id(&random), route: route(&random), style: .fullScreenCover)
            case 9: .splitSelect(scene: "main", column: .content, route: route(&random))
            case 10: .sceneClose(scene: scene, kind: nil)
            default: random.next() % 20 == 0 ? .sessionStart(app: nil, launch: .cold, meta: nil) : .replace(scene: "main", stack: stack, route: route(&random))
            }
            let event = NavigationEvent(seq: seq, timestamp: Timestamp(millisecondsSince1970: 0), session: session, action: action)
            let lineLength = LineEncoder.encode(event).count - 1
            let before = state
            do {
                _ = try budget.fold(event, lineLength: lineLength, into: &state)
            } catch {
                refusals += 1
                #expect(state == before, "a refused event leaves the state as it was")
                var folded = before
                Projection.fold(&folded, event)
                #expect(SnapshotBudget.snapshotLength(of: folded, session: session) > SnapshotBudget.limit)
                continue
            }
            let exact = SnapshotBudget.snapshotLength(of: state, session: session)
            #expect(exact <= budget.bound, "seq \(seq): \(action.type) grew the state past the bound")
            #expect(exact <= SnapshotBudget.limit)
        }
        #expect(refusals > 0, "the generated states reached the limit")
    }
}
