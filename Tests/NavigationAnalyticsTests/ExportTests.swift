import Testing
@testable import NavigationAnalytics
@testable import NavigationHistory
import NavigationSimulation

/// The rules of the exported cells: CSV against formula injection, and what redaction replaces.
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

    @Test func aRedactedURLKeepsItsSchemeAndAWebHostAndNothingElse() {
        let redactor = Redactor(salt: "pepper")
        let h = { (value: String) in redactor.value(value)! }
        #expect(redactor.url("https://alice:secret@example.com:8443/users/alice@mail.org/p?q=1#top")
                == "https://example.com:8443/\(h("users"))/\(h("alice@mail.org"))/\(h("p"))?\(h("?q=1#top"))")
        #expect(redactor.url("app://host") == "app://\(h("host"))", "an app's host is its link's first word")
        #expect(redactor.url("app://host/") == "app://\(h("host"))/")
        #expect(redactor.url("recipes://42/reviews") == "recipes://\(h("42"))/\(h("reviews"))")
        #expect(redactor.url("HTTPS://example.com/a") == "HTTPS://example.com/\(h("a"))")
        #expect(redactor.url("mailto:bob@example.org") == h("mailto:bob@example.org"), "no ://: all of it is path")
        #expect(redactor.url("1bad://x/y") == "\(h("1bad:"))//\(h("x"))/\(h("y"))", "not a scheme: all of it is path")
        #expect(Redactor(salt: nil).url("app://host/a/b?c") == "app://*/*/*")
        #expect(redactor.pattern("recipes://recipe/:id/reviews") == "recipes://\(h("recipe"))/:id/\(h("reviews"))")
        #expect(redactor.pattern("recipes://:id/reviews") == "recipes://:id/\(h("reviews"))")
        #expect(Redactor(salt: nil).pattern("recipes://u:p@recipe/:id/reviews") == "recipes://*/:id/*")
    }

    /// Random URLs of planted parts: none of them survives redaction, and redacted patterns group
    /// the links exactly as the plain patterns do.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func noPlantedPartSurvivesAndPatternsGroupAsBefore(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let redactor = Redactor(salt: "s\(seed)")
        var groups: [String: String] = [:]
        for k in 0..<400 {
            var planted: [String] = []
            func part(_ kind: String) -> String {
                let text = "\(kind)\(k)x\(random.next() % 1000)" + (random.next() % 3 == 0 ? "-slug" : "")
                planted.append(text)
                return text
            }
            let segments = (0..<Int(random.next() % 4)).map { _ in random.next() % 2 == 0 ? "literal\(random.next() % 3)" : part("seg") }
            var url = ["https://", "app://", ""][Int(random.next() % 3)]
            if url == "https://" && random.next() % 2 == 0 { url += part("user") + ":" + part("pw") + "@" }
            if !url.isEmpty { url += "example.com/" }
            url += segments.joined(separator: "/")
            if random.next() % 2 == 0 { url += "?q=" + part("query") }
            if random.next() % 2 == 0 { url += "#" + part("frag") }
            let redacted = redactor.url(url), pattern = DeepLinksQuery.pattern(url), redactedPattern = redactor.pattern(pattern)
            for text in planted {
                #expect(!redacted.contains(text) && !redactedPattern.contains(text), "\(text) in \(redacted) / \(redactedPattern)")
            }
            for literal in segments where literal.hasPrefix("literal") {
                #expect(!redacted.contains(literal) && !redactedPattern.contains(literal), "a path segment, whatever it is")
            }
            // Two links share a redacted pattern only if they share the plain one, userinfo aside.
            let parts = URLParts(pattern)
            let plain = (parts.origin ?? "") + parts.segments.joined(separator: "/")
            #expect(groups[redactedPattern, default: plain] == plain, "\(pattern) and another under \(redactedPattern)")
            groups[redactedPattern] = plain
        }
    }
}
