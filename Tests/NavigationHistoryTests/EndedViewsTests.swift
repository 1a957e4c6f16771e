import Testing
@testable import NavigationHistory

@Suite struct EndedViewsTests {
    static func view(_ scene: String, _ screen: String, start: Int64 = 0) -> ScreenView {
        ScreenView(session: "s1", scene: scene, tab: nil, screen: VisibleScreen(route: Route(screen: screen), source: .root, stack: nil, depth: 0, sheets: 0),
                   enteredBy: "push", startSeq: 1, start: Timestamp(millisecondsSince1970: start), endSeq: 1,
                   end: Timestamp(millisecondsSince1970: start), crashed: false)
    }

    @Test func viewsAreTakenInTheOrderTheyCameAcrossGrowthAndPartialTakes() {
        let ended = EndedViews()
        for k in 0..<3 { ended.append(Self.view("main", "a\(k)")) }
        #expect(ended.next()?.move().screen.route.screen == "a0")
        for k in 3..<12 { ended.append(Self.view("main", "a\(k)")) }   // grows while one was taken
        #expect(ended.held == 11)
        #expect(ended.takeAll().map(\.screen.route.screen) == (1..<12).map { "a\($0)" })
        #expect(ended.held == 0)
        #expect(ended.next() == nil)
        ended.append(Self.view("main", "again"))
        #expect(ended.takeAll().map(\.screen.route.screen) == ["again"], "emptied, it is used again from the start")
    }

    @Test func anEndedViewIsKeptWhenItLastedCrashedOrIsToBeKept() {
        let ended = EndedViews()
        let at = (seq: 9, timestamp: Timestamp(millisecondsSince1970: 500))
        ended.end(Self.view("main", "instant", start: 500), at: at, crashed: false)
        ended.end(Self.view("main", "lasted", start: 100), at: at, crashed: false)
        ended.end(Self.view("main", "crashed", start: 500), at: at, crashed: true)
        ended.end(Self.view("main", "kept", start: 500), at: at, crashed: false, keepInstant: true)
        var slot = Self.view("main", "moved", start: 200)
        withUnsafeMutablePointer(to: &slot) { place in
            ended.end(moving: place, at: at, crashed: false)
            place.initialize(to: Self.view("main", "put back"))   // left uninitialized by the move
        }
        let views = ended.takeAll()
        #expect(views.map(\.screen.route.screen) == ["lasted", "crashed", "kept", "moved"])
        #expect(views.allSatisfy { $0.endSeq == 9 && $0.end == at.timestamp })
        #expect(views.map(\.crashed) == [false, true, false, false])
        #expect(slot.screen.route.screen == "put back")
    }

    @Test func onlyTheViewsAddedSinceAreSortedByScene() {
        let ended = EndedViews()
        ended.append(Self.view("z", "earlier"))
        let first = ended.held
        for scene in ["c", "a", "b"] { ended.append(Self.view(scene, scene)) }
        ended.sortByScene(from: first)
        #expect(ended.takeAll().map(\.scene) == ["z", "a", "b", "c"])
    }

    /// ``UnsafeMutablePointer/deinitializeView()`` destroys a view member by member: it must name
    /// every member that can hold storage, and nothing else may.
    @Test func aViewIsDeinitializedMemberByMemberWithEveryMemberThatHoldsStorageNamed() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.map { $0.label ?? "?" } }
        let view = Self.view("main", "a")
        #expect(labels(view) == ["session", "scene", "tab", "screen", "enteredBy", "startSeq", "start", "endSeq", "end", "crashed"],
                "a member added to ScreenView must be destroyed by deinitializeView()")
        #expect(labels(view.screen) == ["route", "source", "stack", "depth", "sheets"])
        #expect(labels(view.screen.route) == ["screen", "id", "params"])
        #expect(_isPOD(VisibleScreen.Source.self) && _isPOD(Timestamp.self) && _isPOD(Int.self) && _isPOD(Bool.self),
                "the members it does not name hold no storage")
    }

    /// Every member a view holds storage in is released, whether the optional ones are set or nil.
    @Test func deinitializingAViewReleasesWhatEachOfItsMembersHeld() {
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
            view.deinitializeView()
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
