import Foundation
import Testing
import NavigationAnalytics

/// What each step of a replay tells the page's device and transcript, on a log whose every value
/// is known.
@Suite struct ReportReplayStepTests {
    /// One session: a tab, two pushes, a sheet with a push in it, a deep link, a path restored,
    /// a pop beyond the stack (an anomaly); then a second session, named.
    static let lines = [
        #"{"v":1,"seq":1,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"session.start","launch":"cold","app":"2.1"}"#,
        #"{"v":1,"seq":2,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"scene.open","scene":"main"}"#,
        #"{"v":1,"seq":3,"ts":"2026-12-01T10:00:00.100Z","session":"a","type":"tab.select","scene":"main","tab":"home"}"#,
        #"{"v":1,"seq":4,"ts":"2026-12-01T10:00:01.000Z","session":"a","type":"push","scene":"main","stack":"home","route":{"screen":"category","id":"desserts"}}"#,
        #"{"v":1,"seq":5,"ts":"2026-12-01T10:00:02.000Z","session":"a","type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"pie"}}"#,
        #"{"v":1,"seq":6,"ts":"2026-12-01T10:00:12.000Z","session":"a","type":"sheet.present","scene":"main","sheet":"compose","route":{"screen":"composeReview"}}"#,
        #"{"v":1,"seq":7,"ts":"2026-12-01T10:00:13.000Z","session":"a","type":"push","scene":"main","stack":"compose","route":{"screen":"photoPicker"}}"#,
        #"{"v":1,"seq":8,"ts":"2026-12-01T10:00:14.000Z","session":"a","type":"deeplink","scene":"main","url":"app://r/tart","outcome":"resolved","tab":"search","path":[{"screen":"recipe","id":"tart"}]}"#,
        #"{"v":1,"seq":9,"ts":"2026-12-01T10:00:15.000Z","session":"a","type":"setPath","scene":"main","stack":"home","path":[{"screen":"category","id":"desserts"}],"cause":"restore"}"#,
        #"{"v":1,"seq":10,"ts":"2026-12-01T10:00:16.000Z","session":"a","type":"pop","scene":"main","stack":"home","count":4}"#,
        #"{"v":1,"seq":11,"ts":"2026-12-01T10:01:00.000Z","session":"b","type":"session.start","launch":"cold"}"#,
    ]

    static func steps(of lines: [String] = lines) throws -> (json: [String: Any], steps: [[String: Any]]) {
        let path = NSTemporaryDirectory() + "navlog-replay-steps-\(UUID().uuidString).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, _, _) = try ReportQuery(options: ReportQuery.Options(sessions: ["a"])).run(over: path).json(path: path, filter: AnalyticsFilter())
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let replays = try #require(json["replays"] as? [[String: Any]])
        let a = try #require(replays.first { $0["id"] as? String == "a" })
        return (json, try #require(a["steps"] as? [[String: Any]]))
    }

    @Test func eachStepSaysItsTimeSinceTheSessionsStartItsTypeFirstAndItsMark() throws {
        let (json, steps) = try Self.steps()
        #expect(json["named"] as? [String] == ["a"])
        let a = try #require((json["replays"] as? [[String: Any]])?.first { $0["id"] as? String == "a" })
        #expect(a["ts"] as? String == "2026-12-01T10:00:00.000Z")
        #expect(steps.map { $0["t"] as? Int } == [0, 0, 100, 1000, 2000, 12000, 13000, 14000, 15000, 16000])
        #expect(steps.map { ($0["event"] as? String)?.split(separator: " ").first.map(String.init) }
                == ["session.start", "scene.open", "tab.select", "push", "push", "sheet.present", "push", "deeplink", "setPath", "pop"])
        #expect(steps.map { $0["mark"] as? String } == [nil, nil, nil, nil, nil, nil, nil, "deeplink", "restore", nil])
        #expect(steps[9]["anomaly"] as? String == "popBeyondRoot")
    }

    @Test func aPathSetByADeepLinkIsMarkedAsADeepLink() throws {
        let (_, steps) = try Self.steps(of: [
            #"{"v":1,"seq":1,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"session.start","launch":"cold"}"#,
            #"{"v":1,"seq":2,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"scene.open","scene":"main"}"#,
            #"{"v":1,"seq":3,"ts":"2026-12-01T10:00:01.000Z","session":"a","type":"setPath","scene":"main","stack":"main","path":[{"screen":"recipe","id":"tart"}],"cause":"deeplink"}"#,
            #"{"v":1,"seq":4,"ts":"2026-12-01T10:00:02.000Z","session":"a","type":"setPath","scene":"main","stack":"main","path":[],"cause":"programmatic"}"#,
        ])
        #expect(steps.map { $0["mark"] as? String } == [nil, nil, "deeplink", nil])
    }

    /// popToRoot, an empty setPath and a deep link with an empty path each make an empty stack
    /// that no change in the diff names: the step names the scene's stacks, as the fold has them.
    @Test func aStepThatMakesAnEmptyStackNamesEveryStackOfItsScene() throws {
        let (_, steps) = try Self.steps(of: [
            #"{"v":1,"seq":1,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"session.start","launch":"cold"}"#,
            #"{"v":1,"seq":2,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"scene.open","scene":"main"}"#,
            #"{"v":1,"seq":3,"ts":"2026-12-01T10:00:00.100Z","session":"a","type":"tab.select","scene":"main","tab":"home"}"#,
            #"{"v":1,"seq":4,"ts":"2026-12-01T10:00:00.200Z","session":"a","type":"popToRoot","scene":"main","stack":"search"}"#,
            #"{"v":1,"seq":5,"ts":"2026-12-01T10:00:00.300Z","session":"a","type":"setPath","scene":"main","stack":"profile","path":[],"cause":"programmatic"}"#,
            #"{"v":1,"seq":6,"ts":"2026-12-01T10:00:00.400Z","session":"a","type":"deeplink","scene":"main","url":"app://x","outcome":"resolved","stack":"inbox","path":[]}"#,
            #"{"v":1,"seq":7,"ts":"2026-12-01T10:00:00.500Z","session":"a","type":"push","scene":"main","stack":"home","route":{"screen":"x"}}"#,
        ])
        let stacks = steps.map { $0["stacks"] as? [String: [String]] }
        #expect(stacks[3] == ["main": ["home", "search"]])
        #expect(stacks[4] == ["main": ["home", "profile", "search"]])
        #expect(stacks[5] == ["main": ["home", "inbox", "profile", "search"]])
        #expect(stacks.enumerated().filter { $0.element != nil }.map(\.offset) == [2, 3, 4, 5])
    }

    @Test func aStepThatSelectsATabNamesEveryStackOfItsScene() throws {
        let (_, steps) = try Self.steps()
        let stacks = steps.map { $0["stacks"] as? [String: [String]] }
        #expect(stacks[2] == ["main": ["home"]])
        #expect(stacks[7] == ["main": ["home", "search"]], "the deep link selects search, which it makes")
        #expect(stacks.enumerated().filter { $0.element != nil }.map(\.offset) == [2, 7])
    }

    @Test func eachVisibleScreenNamesTheRouteABackButtonGoesToAndTheStackUnderTheSheets() throws {
        let (_, steps) = try Self.steps()
        func visible(_ k: Int) -> [String: String] { ((steps[k]["visible"] as? [String: Any])?["main"] as? [String: Any])?.compactMapValues { $0 as? String } ?? [:] }
        // The tab's root: no going back. A tab selected names the root at a trail's head.
        #expect(visible(2) == ["source": "root", "stack": "home", "route": "home", "root": "home"])
        // A stack's first route goes back to the root, named by the tab; its second to the first.
        #expect(visible(3) == ["source": "stack", "stack": "home", "route": "category(desserts)", "back": "home"])
        #expect(visible(4) == ["source": "stack", "stack": "home", "route": "recipe(pie)", "back": "category(desserts)"])
        // A sheet's root has no back button; its first pushed route goes back to the root. The
        // stack under the sheets is the selected tab's.
        #expect(visible(5) == ["source": "sheet", "stack": "compose", "route": "composeReview", "current": "home"])
        #expect(visible(6) == ["source": "sheet", "stack": "compose", "route": "photoPicker", "back": "composeReview", "current": "home"])
        #expect(visible(7)["current"] == "search")
    }

    /// A scene's tabs are the stacks it has had selected: a step names them when they change.
    @Test func aStepThatSelectsANewTabNamesTheScenesTabs() throws {
        let (json, steps) = try Self.steps()
        let a = try #require((json["replays"] as? [[String: Any]])?.first { $0["id"] as? String == "a" })
        #expect(((a["start"] as? [String: Any])?["tabs"] as? [String: [String]]) == [:])
        let tabs = steps.map { $0["tabs"] as? [String: [String]] }
        #expect(tabs[2] == ["main": ["home"]])
        #expect(tabs[7] == ["main": ["home", "search"]], "the deep link selects search")
        // session.start sets the state whole, and so names every scene's tabs: none.
        #expect(tabs[0] == [:])
        #expect(tabs.enumerated().filter { $0.element != nil }.map(\.offset) == [0, 2, 7], "compose is a sheet's stack, not a tab")
    }

    /// Under a sheet, the page is told the title and back label of every layer it draws beneath.
    @Test func eachLayerUnderTheVisibleOneHasItsTitleAndBackLabel() throws {
        let (_, steps) = try Self.steps()
        func under(_ k: Int) -> [[String: String]]? { ((steps[k]["visible"] as? [String: Any])?["main"] as? [String: Any])?["under"] as? [[String: String]] }
        #expect(under(4) == nil, "the stack is what shows")
        #expect(under(5) == [["title": "recipe(pie)", "back": "category(desserts)"]])
        #expect(under(7) == [["title": "recipe(tart)", "back": "search"]], "the deep link's tab, under the sheet")
    }

    /// The spans a scene spent in the background, as steps: to the step it came back, and one
    /// still open at the replay's end.
    @Test func eachReplayNamesTheSpansItsScenesSpentInTheBackground() throws {
        let (json, _) = try Self.steps(of: [
            #"{"v":1,"seq":1,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"session.start","launch":"cold"}"#,
            #"{"v":1,"seq":2,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"scene.open","scene":"main"}"#,
            #"{"v":1,"seq":3,"ts":"2026-12-01T10:00:01.000Z","session":"a","type":"scene.phase","scene":"main","phase":"background"}"#,
            #"{"v":1,"seq":4,"ts":"2026-12-01T10:00:31.000Z","session":"a","type":"scene.phase","scene":"main","phase":"active"}"#,
            #"{"v":1,"seq":5,"ts":"2026-12-01T10:00:32.000Z","session":"a","type":"scene.phase","scene":"main","phase":"background"}"#,
        ])
        let a = try #require((json["replays"] as? [[String: Any]])?.first { $0["id"] as? String == "a" })
        let away = try #require(a["away"] as? [[String: Any]])
        #expect(away.map { [$0["scene"] as? String, ($0["from"] as? Int).map(String.init), ($0["to"] as? Int).map(String.init)] }
                == [["main", "2", "3"], ["main", "4", nil]])
    }

    /// A split view's columns beside its detail, each titled by its selection or its name.
    @Test func aSplitViewNamesTheColumnsItShows() throws {
        let head = [
            #"{"v":1,"seq":1,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"session.start","launch":"cold"}"#,
            #"{"v":1,"seq":2,"ts":"2026-12-01T10:00:00.000Z","session":"a","type":"scene.open","scene":"side"}"#,
            #"{"v":1,"seq":3,"ts":"2026-12-01T10:00:01.000Z","session":"a","type":"split.visibility","scene":"side","visibility":"all"}"#,
            #"{"v":1,"seq":4,"ts":"2026-12-01T10:00:02.000Z","session":"a","type":"split.select","scene":"side","column":"content","route":{"screen":"recipe","id":"1","params":{"b":"2","a":"1"}}}"#,
            #"{"v":1,"seq":5,"ts":"2026-12-01T10:00:03.000Z","session":"a","type":"split.visibility","scene":"side","visibility":"doubleColumn"}"#,
            #"{"v":1,"seq":6,"ts":"2026-12-01T10:00:04.000Z","session":"a","type":"split.visibility","scene":"side","visibility":"detailOnly"}"#,
        ]
        let (_, steps) = try Self.steps(of: head)
        func columns(_ k: Int) -> [[String: String]]? { ((steps[k]["visible"] as? [String: Any])?["side"] as? [String: Any])?["columns"] as? [[String: String]] }
        #expect(columns(1) == nil)
        #expect(columns(2) == [["column": "sidebar", "title": "sidebar"], ["column": "content", "title": "content"]])
        #expect(columns(3) == [["column": "sidebar", "title": "sidebar"], ["column": "content", "title": "recipe(1){a=1,b=2}"]])
        #expect(columns(4) == [["column": "content", "title": "recipe(1){a=1,b=2}"]])
        #expect(columns(5) == [])
    }

    /// The raw panel's lines are kept apart from the data the page reads to draw: a list for each
    /// replay, a line for each step, each its event as navlog writes its line, `crc` and all, less
    /// the `v`, `seq`, `ts` and `session` its replay says.
    @Test func eachStepsEventLineIsKeptApartFromTheDataAsNavlogWritesIt() throws {
        let path = NSTemporaryDirectory() + "navlog-replay-lines-\(UUID().uuidString).jsonl"
        try (Self.lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, lines, _) = try ReportQuery(options: ReportQuery.Options(sessions: ["a"])).run(over: path).json(path: path, filter: AnalyticsFilter())
        #expect(!String(decoding: bytes, as: UTF8.self).contains(#""line""#), "the data holds no line")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let replays = try #require(json["replays"] as? [[String: Any]])
        let perReplay = try #require(try JSONSerialization.jsonObject(with: Data(lines)) as? [[[String: Any]]])
        #expect(perReplay.map(\.count) == replays.map { ($0["steps"] as? [Any])?.count ?? -1 })
        let a = try #require(replays.firstIndex { $0["id"] as? String == "a" }.map { perReplay[$0] })
        #expect(a.map { $0["type"] as? String }
                == ["session.start", "scene.open", "tab.select", "push", "push", "sheet.present", "push", "deeplink", "setPath", "pop"])
        #expect(a.allSatisfy { ($0["crc"] as? String)?.count == 8 && $0["v"] == nil && $0["seq"] == nil && $0["ts"] == nil && $0["session"] == nil })
        #expect(a[0]["app"] as? String == "2.1" && a[3]["route"] as? [String: String] == ["screen": "category", "id": "desserts"])
        #expect(a[9]["count"] as? Int == 4)
    }
}
