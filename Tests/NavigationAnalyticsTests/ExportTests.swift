import Testing
@testable import NavigationAnalytics
@testable import NavigationHistory

/// The rules of the exported cells: CSV against formula injection.
@Suite struct ExportTests {
    @Test(arguments: ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"])
    func aTextCellASpreadsheetWouldRunGetsAQuoteInFrontUnlessExact(cell: String) {
        let guarded = Export.csv(cell, guarded: true)
        #expect(guarded.hasPrefix("'") || guarded.hasPrefix("\"'"), "\(guarded)")
        #expect(Export.csv(cell, guarded: false).unicodeScalars.first == cell.unicodeScalars.first
                || Export.csv(cell, guarded: false).hasPrefix("\""))
        #expect(Export.csv("plain", guarded: true) == "plain" && Export.csv("a=b", guarded: true) == "a=b")
    }

    @Test func aCellIsQuotedByItsScalarsNotItsCharacters() {
        #expect(Export.csv("a\r\nb", guarded: false) == "\"a\r\nb\"", "CRLF is one Character")
        #expect(Export.csv("say \"\u{301}hi", guarded: false) == "\"say \"\"\u{301}hi\"", "a quote with an accent is one Character")
        #expect(Export.csv("=a,b", guarded: true) == "\"'=a,b\"")
    }

    @Test func aNumberIsNeverGuardedButATextThatLooksLikeOneIs() {
        #expect(Export.csv("-5", guarded: true) == "'-5", "a text cell: the session or screen -5")
        let view = FunnelTests.views("s", [("a", 1)])[0]
        let line = Export(table: .transitions, format: .csv).line(from: view, to: view, step: -3)
        #expect(line == "s,main,-3,a,a,\(view.startSeq),\(view.startSeq)", "a number's - is its sign")
    }
}
