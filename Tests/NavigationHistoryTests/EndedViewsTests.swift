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
}
