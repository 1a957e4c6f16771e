import Testing
@testable import NavigationAnalytics
@testable import NavigationHistory

/// An analytics row keeps the screen view it was made from; it is still compared by its columns.
@Suite struct AnalyticsViewTests {
    static func view(endSeq: Int = 9, sheets: Int = 0) -> ScreenView {
        let start = Timestamp("2026-11-29T10:00:00.000Z")!
        let end = Timestamp("2026-11-29T10:00:05.000Z")!
        return ScreenView(session: "s", scene: "main", tab: "home",
                          screen: VisibleScreen(route: Route(screen: "recipe", id: "1"), source: .stack, stack: "home", depth: 2, sheets: sheets),
                          enteredBy: "push", startSeq: 4, start: start, endSeq: endSeq, end: end, crashed: false)
    }

    @Test func rowsThatShowTheSameColumnsAreEqualWhateverElseTheirViewsHold() {
        let a = AnalyticsView(Self.view(endSeq: 9, sheets: 0), app: "1.0")
        let b = AnalyticsView(Self.view(endSeq: 12, sheets: 0), app: "1.0")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != AnalyticsView(Self.view(), app: "2.0"))
    }

    @Test func everyColumnReadsAndWritesTheViewItCameFrom() {
        var row = AnalyticsView(Self.view(), app: "1.0")
        #expect([row.session, row.scene, row.tab, row.stack, row.screen, row.id, row.enteredBy] == ["s", "main", "home", "home", "recipe", "1", "push"])
        #expect(row.depth == 2 && !row.inSheet && row.startSeq == 4 && row.dwellMilliseconds == 5000 && !row.crashed)
        row.session += "#2"
        row.screen = "R"
        row.inSheet = true
        #expect(row.session == "s#2" && row.screen == "R" && row.inSheet && row.id == "1")
        #expect(row != AnalyticsView(Self.view(), app: "1.0"))
    }
}
