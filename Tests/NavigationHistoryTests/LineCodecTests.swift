import Foundation
import Testing
@testable import NavigationHistory
import TestSupport

@Suite struct LineCodecTests {
    static let ts = Timestamp("2026-11-29T12:00:00.123Z")!

    static func event(_ action: NavigationAction, seq: Int = 1) -> NavigationEvent {
        NavigationEvent(seq: seq, timestamp: ts, session: "s1", action: action)
    }

    static let everyType: [NavigationAction] = {
        let recipe = Route(screen: "recipe", id: "apple-pie", params: ["tab": "reviews", "q": "ä \"x\""])
        var state = NavigationState(active: "main")
        state.scenes["main"] = SceneState(tab: "home", stacks: ["home": [Route(screen: "category", id: "desserts")], "search": []],
                                          sheets: [Sheet(id: "settingsSheet", style: .popover, root: Route(screen: "settings"), stack: [recipe])],
                                          split: SplitState(sidebar: nil, content: recipe, visibility: .doubleColumn))
        return [
            .sessionStart(app: "3.2.1", launch: .cold, meta: ["device": "iPad"]), .sessionStart(app: nil, launch: .warm, meta: nil),
            .sessionEnd(reason: "background"), .sessionEnd(reason: nil),
            .sceneOpen(scene: "main", kind: "window"), .sceneClose(scene: "main", kind: nil), .sceneActivate(scene: "w2"),
            .scenePhase(scene: "main", phase: .inactive),
            .tabSelect(scene: "main", tab: "search"), .push(scene: "main", stack: "home", route: recipe),
            .pop(scene: "main", stack: "home", count: 3), .popToRoot(scene: "main", stack: "home"),
            .replace(scene: "main", stack: "detail", route: Route(screen: "x")),
            .setPath(scene: "main", stack: "home", path: [Route(screen: "a"), recipe], cause: .deeplink),
            .deeplink(scene: "main", url: "recipes://category/desserts/recipe/1?x=%20", outcome: .partial, tab: "home", stack: "home", path: [Route(screen: "a")]),
            .deeplink(scene: "main", url: "recipes://nothing", outcome: .unmatched, tab: nil, stack: nil, path: nil),
            .sheetPresent(scene: "main", sheet: "share", route: Route(screen: "share"), style: .fullScreenCover),
            .sheetPresent(scene: "main", sheet: "share", route: Route(screen: "share"), style: nil),
            .sheetDismiss(scene: "main", sheet: "share"), .sheetDismiss(scene: "main", sheet: nil),
            .splitSelect(scene: "main", column: .sidebar, route: recipe), .splitSelect(scene: "main", column: .content, route: nil),
            .splitVisibility(scene: "main", visibility: .detailOnly),
            .snapshot(state: state), .snapshot(state: NavigationState()),
            .restore(state: state, from: 41, dropped: [Route(screen: "recipe", id: "deleted")]),
            .unknown(type: "analytics.mark", members: [JSONMember("scene", .string("main")), JSONMember("weight", .number("1.5e3")),
                                                        JSONMember("tags", .array([.string("a"), .null, .bool(true)]))]),
        ]
    }()

    @Test func everyTypeRoundTripsThroughTheLineFormat() throws {
        for (i, action) in Self.everyType.enumerated() {
            let event = Self.event(action, seq: i + 1)
            let line = LineEncoder.encode(event)
            #expect(line.last == 0x0A)
            #expect(line.filter { $0 == 0x0A }.count == 1)
            let decoded = try decodeLine(Array(line.dropLast()))
            #expect(decoded.event == event)
            #expect(decoded.hasCRC)
            #expect(decoded.event.type == action.type)
        }
    }

    @Test func encodedLinesUseTheFixedMemberOrderWithCRCLast() {
        let line = String(decoding: LineEncoder.encode(Self.event(.push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "apple-pie")), seq: 7)), as: UTF8.self)
        let body = #"{"v":1,"seq":7,"ts":"2026-11-29T12:00:00.123Z","session":"s1","type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"apple-pie"}"#
        let crc = LineDecoder.hex8(CRC32C.checksum(Array(body.utf8)))
        #expect(line == body + #","crc":""# + crc + "\"}\n")
    }

    @Test func generatedEventsRoundTrip() throws {
        for event in generatedEvents(3000, seed: 5) {
            #expect(try decodeLine(Array(LineEncoder.encode(event).dropLast())).event == event)
        }
    }

    @Test func linesWrittenByOthersDecodeInAnyMemberOrderAndSpacing() throws {
        let line = """
             { "route" : { "params" : { "tab" : "reviews" }, "id": "apple-pie", "screen": "recipe", "extra": [1, {"x": null}] } ,
            "stack":"home", "type" : "push", "scene":"main", "session": "s1", "ts": "2026-11-29T12:00:00.123Z", "seq": 7.0, "v": 1e0,
            "unknownMember": {"nested": true} }\r
            """.replacingOccurrences(of: "\n", with: "")
        let event = try decode(line)
        #expect(event == NavigationEvent(seq: 7, timestamp: Self.ts, session: "s1",
                                         action: .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "apple-pie", params: ["tab": "reviews"]))))
    }

    @Test func escapedMemberNamesAreTheSameNamesInRoutesToo() throws {
        let event = try decode("{" + Self.base + #""type":"push","sc\u0065ne":"main","stack":"home","route":{"scr\u0065en":"recipe","\u0069d":"1"}}"#)
        #expect(event.action == .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "1")))
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let line = #"{"v":1,"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s\u00e9\ud83d\ude00","type":"tab.select","scene":"m\"\\\/\n","tab":"\u0074ab"}"#
        let event = try decode(line)
        #expect(event.session == "sé😀")
        #expect(event.action == .tabSelect(scene: "m\"\\/\n", tab: "tab"))
    }

    @Test(arguments: [("1", 1), ("1.0", 1), ("1e0", 1), ("10E-1", 1), ("0.5e1", 5), ("1.50e1", 15), ("120e-1", 12), ("9007199254740991", 9_007_199_254_740_991)])
    func integersInAnyValidJSONFormDecode(text: String, value: Int) throws {
        let event = try decode(#"{"v":1,"seq":"# + text + #","ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#)
        #expect(event.seq == value)
    }

    static let base = #""v":1,"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s","#

    static func withBase(_ rest: String) -> String { "{" + base + rest }

    static let defective: [(String, DefectKind)] = [
        (#"{"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, DefectKind.missingMember),
        (#"{"v":1,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .missingMember),
        (#"{"v":1,"seq":1,"session":"s","type":"session.end"}"#, .missingMember),
        (#"{"v":1,"seq":1,"ts":"2026-11-29T12:00:00.123Z","type":"session.end"}"#, .missingMember),
        (#"{"v":1,"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s"}"#, .missingMember),
        (#"{"v":2,"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .unsupportedVersion),
        (#"{"v":0,"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .invalidMember),
        (#"{"v":"1","seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .invalidMember),
        (#"{"v":1,"seq":1.5,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .invalidMember),
        (#"{"v":1,"seq":0,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .invalidMember),
        (#"{"v":1,"seq":9007199254740992,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .invalidMember),
        (#"{"v":1,"seq":1,"ts":"2026-11-29T12:00:00Z","session":"s","type":"session.end"}"#, .invalidMember),
        (#"{"v":1,"seq":1,"ts":"2026-02-30T12:00:00.000Z","session":"s","type":"session.end"}"#, .invalidMember),
        (#"{"v":1,"seq":1,"ts":"2026-11-29T12:00:00.123Z","session":"","type":"session.end"}"#, .invalidMember),
        (#"{"v":1,"seq":1,"seq":2,"ts":"2026-11-29T12:00:00.123Z","session":"s","type":"session.end"}"#, .invalidMember),
        (withBase(#""type":"push","scene":"main","stack":"home"}"#), .missingMember),
        (withBase(#""type":"push","scene":"main","stack":"home","route":{"id":"x"}}"#), .invalidMember),
        (withBase(#""type":"push","scene":"main","stack":"home","route":{"screen":""}}"#), .invalidMember),
        (withBase(#""type":"push","scene":"main","stack":"home","route":"recipe"}"#), .invalidMember),
        (withBase(#""type":"push","stack":"home","route":{"screen":"a"}}"#), .missingMember),
        (withBase(#""type":"pop","scene":"main","stack":"home","count":0}"#), .invalidMember),
        (withBase(#""type":"session.start","launch":"hot"}"#), .invalidMember),
        (withBase(#""type":"session.start"}"#), .missingMember),
        (withBase(#""type":"setPath","scene":"main","stack":"home","path":[]}"#), .missingMember),
        (withBase(#""type":"deeplink","scene":"main","url":"x://y","outcome":"maybe"}"#), .invalidMember),
        (withBase(#""type":"split.select","scene":"main","column":"sidebar"}"#), .missingMember),
        (withBase(#""type":"split.select","scene":"main","column":"detail","route":null}"#), .invalidMember),
        (withBase(#""type":"snapshot","state":{"active":null}}"#), .invalidMember),
        (withBase(#""type":"restore","state":{"scenes":{}},"from":3}"#), .missingMember),
        (withBase(#""type":"session.start","launch":"cold","meta":{"a":1}}"#), .invalidMember),
        (withBase(#""type":""}"#), .invalidMember),
        (#"[1,2]"#, .invalidJSON),
        ("", .blankLine),
        ("   ", .blankLine),
        (withBase(#""type":"session.end"} {}"#), .invalidJSON),
        (withBase(#""type":"session.end","crc":"0000000g"}"#), .crcMismatch),
        (withBase(#""type":"session.end","crc":"00000000","x":1}"#), .invalidMember),
    ]

    @Test(arguments: Self.defective)
    func defectiveLinesAreRejectedWithTheirKind(line: String, kind: DefectKind) {
        #expect(rejection(line) == kind, "\(line)")
    }

    @Test func memberShapesMatterOnlyForTheTypesThatUseThem() throws {
        // `route` is not a member of `pop`: like any unknown member, it is ignored.
        let event = try decode("{" + Self.base + #""type":"pop","scene":"main","stack":"home","route":5}"#)
        #expect(event.action == .pop(scene: "main", stack: "home", count: 1))
    }

    @Test func theKnownTypesAreTheFormatsNineteenInTheOrderOfItsTable() {
        #expect(NavigationAction.knownTypes == [
            "session.start", "session.end", "scene.open", "scene.close", "scene.activate", "scene.phase", "tab.select",
            "push", "pop", "popToRoot", "replace", "setPath", "deeplink", "sheet.present", "sheet.dismiss",
            "split.select", "split.visibility", "snapshot", "restore",
        ])
    }

    @Test func unknownTypesAreKeptWithTheirMembers() throws {
        let event = try decode("{" + Self.base + #""type":"future.thing","scene":"main","n":[1,2]}"#)
        #expect(event.action == .unknown(type: "future.thing", members: [JSONMember("scene", .string("main")), JSONMember("n", .array([.number("1"), .number("2")]))]))
        #expect(event.action.scene == "main")
    }

    @Test func aChangedByteIsReportedAsACRCMismatchWhateverElseItBroke() throws {
        let line = LineEncoder.encode(Self.event(.push(scene: "main", stack: "home", route: Route(screen: "recipe")))).dropLast()
        let text = String(decoding: line, as: UTF8.self)
        #expect(rejection(text.replacingOccurrences(of: "recipe", with: "recipf")) == .crcMismatch)
        #expect(rejection(text.replacingOccurrences(of: "\"seq\":1", with: "\"seq\":2")) == .crcMismatch)
        #expect(rejection(text.replacingOccurrences(of: "\"scene\":", with: "\"scene\"+")) == .crcMismatch)
        #expect(rejection(text.replacingOccurrences(of: "\"v\":1", with: "\"v\":3")) == .crcMismatch)
    }

    @Test func aLineWithByteOrderMarkIsRejected() {
        #expect(rejection("\u{FEFF}{" + Self.base + #""type":"session.end"}"#) == .invalidJSON)
    }
}

/// A key that comes twice is refused at every level of a line, not only among its members.
@Suite struct NestedMemberTests {
    /// `body` (a line without its crc) sealed with its crc, as the store would write it.
    func sealed(_ body: String) -> String {
        body + #","crc":""# + LineDecoder.hex8(CRC32C.checksum(Array(body.utf8))) + "\"}"
    }

    static let base = #"{"v":1,"seq":1,"ts":"2026-12-07T10:00:00.000Z","session":"s1","#

    @Test(arguments: [
        #""type":"push","scene":"main","stack":"home","route":{"screen":"recipe","params":{"k":"1","k":"2"}}"#,
        #""type":"push","scene":"main","stack":"home","route":{"screen":"recipe","id":"a","id":"b"}"#,
        #""type":"push","scene":"main","stack":"home","route":{"screen":"recipe","screen":"other"}"#,
        #""type":"push","scene":"main","stack":"home","route":{"screen":"r","params":{},"params":{"k":"1"}}"#,
        #""type":"session.start","launch":"cold","meta":{"device":"a","device":"b"}"#,
        #""type":"setPath","scene":"main","stack":"home","path":[{"screen":"a","id":"1","id":"2"}],"cause":"programmatic""#,
        #""type":"snapshot","state":{"active":null,"scenes":{"main":{"stacks":{}},"main":{"stacks":{}}}}"#,
        #""type":"snapshot","state":{"active":null,"scenes":{"main":{"stacks":{"home":[],"home":[]}}}}"#,
        #""type":"snapshot","state":{"active":null,"active":null,"scenes":{}}"#,
        #""type":"restore","state":{"scenes":{"main":{"tab":"a","tab":"b","stacks":{}}}},"from":1,"dropped":[]"#,
        #""type":"restore","state":{"scenes":{"main":{"stacks":{},"sheets":[{"id":"s","id":"t","root":{"screen":"x"}}]}}},"from":1,"dropped":[]"#,
        #""type":"restore","state":{"scenes":{"main":{"stacks":{"home":[{"screen":"x","params":{"a":"1","a":"1"}}]}}}},"from":1,"dropped":[]"#,
    ])
    func aKeyThatComesTwiceInsideAnyObjectIsRefused(members: String) {
        for line in [sealed(Self.base + members), Self.base + members + "}"] {
            do {
                _ = try decode(line)
                Issue.record("accepted: \(line)")
            } catch {
                #expect(error.kind == .invalidMember && error.detail.contains("duplicate"), "\(error.detail)")
            }
        }
    }

    @Test(arguments: [
        #"{"active":null,"scenes":{"":{"stacks":{}}}}"#,
        #"{"active":null,"scenes":{"main":{"stacks":{"":[]}}}}"#,
        #"{"active":null,"scenes":{"main":{"tab":"","stacks":{}}}}"#,
        #"{"active":null,"scenes":{"main":{"stacks":{},"sheets":[{"id":"","root":{"screen":"x"}}]}}}"#,
        #"{"active":"gone","scenes":{"main":{"stacks":{}}}}"#,
    ])
    func aStateNoEventCouldLeadToIsRefusedInSnapshotsAndRestores(state: String) {
        for members in [#""type":"snapshot","state":"# + state, #""type":"restore","state":"# + state + #","from":1,"dropped":[]"#] {
            #expect(rejection(sealed(Self.base + members)) == .invalidMember, "\(members)")
        }
        #expect(rejection(sealed(Self.base + #""type":"snapshot","state":{"active":"main","scenes":{"main":{"tab":"t","stacks":{"t":[]}}}}"#)) == nil)
    }

    @Test func theStoreRefusesSnapshotEventsAndForgedStates() throws {
        let dir = try ScratchDirectory()
        let log = try EventLog(directory: dir.path + "/log", options: .init(durability: .none))
        try log.append(.sceneOpen(scene: "main", kind: nil), session: "s")
        #expect(throws: NavigationHistoryError.self) { try log.append(.snapshot(state: NavigationState()), session: "s") }
        let forged = NavigationState(active: "elsewhere", scenes: ["main": SceneState()])
        #expect(throws: NavigationHistoryError.self) { try log.append(.restore(state: forged, from: 1, dropped: []), session: "s") }
        let emptyID = NavigationState(active: nil, scenes: ["": SceneState()])
        #expect(throws: NavigationHistoryError.self) { try log.append(.restore(state: emptyID, from: 1, dropped: []), session: "s") }
        try log.close()
        #expect(log.nextSeq == 3, "only the scene.open and the segment's snapshot were written")
    }
}
