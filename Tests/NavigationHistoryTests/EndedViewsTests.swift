import Testing
@testable import NavigationHistory

@Suite struct EndedViewsTests {
    static func view(_ scene: String, _ screen: String, start: Int64 = 0) -> ScreenView {
        ScreenView(session: "s1", scene: scene, tab: nil, screen: VisibleScreen(route: Route(screen: screen), source: .root, stack: nil, depth: 0, sheets: 0),
                   enteredBy: "push", startSeq: 1, start: Timestamp(millisecondsSince1970: start), endSeq: 1,
                   end: Timestamp(millisecondsSince1970: start), crashed: false)
    }

    @Test func viewsAreTakenInTheOrderTheyCameAcrossGrowth() {
        let ended = EndedViews()
        for k in 0..<12 { ended.append(Self.view("main", "a\(k)")) }   // grows from 4
        #expect(ended.held == 12)
        #expect(ended.takeAll().map(\.screen.route.screen) == (0..<12).map { "a\($0)" })
        #expect(ended.held == 0)
        ended.append(Self.view("main", "again"))
        #expect(ended.takeAll().map(\.screen.route.screen) == ["again"], "emptied, it is used again from the start")
    }

    @Test func viewsAfterTheOneTakingThrewOnAreStillHeldInOrder() {
        struct Stop: Error {}
        let ended = EndedViews()
        for k in 0..<3 { ended.append(Self.view("main", "a\(k)")) }
        var seen: [String] = []
        #expect(throws: Stop.self) {
            try ended.removeEach { view in
                seen.append(view.screen.route.screen)
                if seen.count == 2 { throw Stop() }
            }
        }
        #expect(seen == ["a0", "a1"])
        for k in 3..<8 { ended.append(Self.view("main", "a\(k)")) }   // grows while one is left
        #expect(ended.takeAll().map(\.screen.route.screen) == (2..<8).map { "a\($0)" })
    }

    @Test func anEndedViewIsKeptWhenItLastedCrashedOrIsToBeKept() {
        let ended = EndedViews()
        let at = (seq: 9, timestamp: Timestamp(millisecondsSince1970: 500))
        ended.end(Self.view("main", "instant", start: 500), at: at, crashed: false)
        ended.end(Self.view("main", "lasted", start: 100), at: at, crashed: false)
        ended.end(Self.view("main", "crashed", start: 500), at: at, crashed: true)
        ended.end(Self.view("main", "kept", start: 500), at: at, crashed: false, keepInstant: true)
        var slot = Self.view("main", "replaced", start: 200)
        ended.end(replacing: &slot, with: Self.view("main", "next"), at: at, crashed: false)
        var instant = Self.view("main", "replaced instantly", start: 500)
        ended.end(replacing: &instant, with: Self.view("main", "next too"), at: at, crashed: false)
        let views = ended.takeAll()
        #expect(views.map(\.screen.route.screen) == ["lasted", "crashed", "kept", "replaced"])
        #expect(views.allSatisfy { $0.endSeq == 9 && $0.end == at.timestamp })
        #expect(views.map(\.crashed) == [false, true, false, false])
        #expect(slot.screen.route.screen == "next" && instant.screen.route.screen == "next too")
    }

    @Test func onlyTheViewsAddedSinceAreSortedByScene() {
        let ended = EndedViews()
        ended.append(Self.view("z", "earlier"))
        let first = ended.held
        for scene in ["c", "a", "b"] { ended.append(Self.view(scene, scene)) }
        ended.sortByScene(from: first)
        #expect(ended.takeAll().map(\.scene) == ["z", "a", "b", "c"])
    }

    /// What the views held is released, whether they were taken, dropped, or still held when the
    /// buffer went: each holds the same params, whose dictionary storage counts its holders.
    @Test func theViewsTakenDroppedAndLeftReleaseWhatTheyHeld() {
        let params = ["sort": String(repeating: "not a short string ", count: 2)]
        func holders() -> UInt { _getRetainCount(unsafeBitCast(params, to: AnyObject.self)) }
        let before = holders()
        func view(_ screen: String, start: Int64) -> ScreenView {
            var view = Self.view("main", screen, start: start)
            view.screen.route.params = params
            return view
        }
        let at = (seq: 9, timestamp: Timestamp(millisecondsSince1970: 500))
        do {
            let ended = EndedViews()
            ended.append(view("taken", start: 0))
            ended.end(view("dropped", start: 500), at: at, crashed: false)
            #expect(holders() == before + 1, "one view held")
            _ = ended.takeAll()
            var slot = view("replaced", start: 0)
            ended.end(replacing: &slot, with: view("next", start: 0), at: at, crashed: false)
            ended.append(view("left", start: 0))
            #expect(holders() == before + 3, "two views held and one in the slot")
            try? ended.removeEach { (_: consuming ScreenView) throws in throw CancellationError() }
            #expect(holders() == before + 2, "the view taken is released, the one after it is still held")
        }
        #expect(holders() == before)
    }

    /// ``EndedViews/destroy(_:)`` destroys a view member by member: it must name every member that
    /// can hold storage, and nothing else may.
    @Test func aViewIsDestroyedMemberByMemberWithEveryMemberThatHoldsStorageNamed() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.map { $0.label ?? "?" } }
        let view = Self.view("main", "a")
        #expect(labels(view) == ["session", "scene", "tab", "screen", "enteredBy", "startSeq", "start", "endSeq", "end", "crashed",
                                 "backgroundMilliseconds"],
                "a member added to ScreenView must be destroyed by EndedViews.destroy(_:)")
        #expect(labels(view.screen) == ["route", "source", "stack", "depth", "sheets"])
        #expect(labels(view.screen.route) == ["screen", "id", "params"])
        #expect(_isPOD(VisibleScreen.Source.self) && _isPOD(Timestamp.self) && _isPOD(Int.self) && _isPOD(Int64.self)
                    && _isPOD(Bool.self), "the members it does not name hold no storage")
    }

    /// Every member a view holds storage in is released, whether the optional ones are set or nil.
    @Test func destroyingAViewReleasesWhatEachOfItsMembersHeld() {
        func long(_ name: String) -> String { String(repeating: name + " is not a short string ", count: 2) }
        let params = ["sort": long("a value")]
        func count(_ params: [String: String]) -> UInt { _getRetainCount(unsafeBitCast(params, to: AnyObject.self)) }
        let strings = ["session", "scene", "tab", "screen", "id", "stack", "enteredBy"].map(long)
        let before = (count(params), strings.map(Self.retainCount))
        for detailed in [true, false] {
            let view = UnsafeMutablePointer<ScreenView>.allocate(capacity: 1)
            defer { view.deallocate() }
            view.initialize(to: ScreenView(session: strings[0], scene: strings[1], tab: detailed ? strings[2] : nil,
                                           screen: VisibleScreen(route: Route(screen: strings[3], id: detailed ? strings[4] : nil,
                                                                              params: detailed ? params : nil),
                                                                 source: .stack, stack: detailed ? strings[5] : nil, depth: 1, sheets: 0),
                                           enteredBy: strings[6], startSeq: 1, start: Timestamp(millisecondsSince1970: 0), endSeq: 2,
                                           end: Timestamp(millisecondsSince1970: 1), crashed: false))
            if detailed { #expect(count(params) > before.0, "the view holds the params") }
            #if os(Linux)
            #expect(strings.map(Self.retainCount) != before.1, "the view holds the strings")
            #endif
            EndedViews.destroy(view)
            #expect(count(params) == before.0)
            #if os(Linux)
            #expect(strings.map(Self.retainCount) == before.1, "detailed: \(detailed)")
            #endif
        }
    }

    /// The retain count of a string's storage, read through its representation on 64-bit Linux
    /// (a native string's second word is its storage's address under a byte of flags).
    static func retainCount(_ string: String) -> UInt {
        let object = unsafeBitCast(string, to: (UInt, UInt).self).1 & 0x00FF_FFFF_FFFF_FFFF
        return _getRetainCount(unsafeBitCast(object, to: AnyObject.self))
    }
}
