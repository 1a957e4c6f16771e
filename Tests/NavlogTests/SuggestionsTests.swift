import Testing
@testable import navlog

/// A name that is not known is answered with the known names closest to it.
@Suite struct SuggestionsTests {
    static let screens = ["home", "category", "recipe", "reviews", "settings", "search", "share", "profile"]

    @Test(arguments: [
        ("categroy", ["category"]),          // two neighbours swapped: one edit
        ("catgory", ["category"]),           // a letter left out
        ("categoryy", ["category"]),         // a letter too many
        ("recpie", ["recipe"]),
        ("Home", ["home"]),                  // case alone differs: the closest of all
        ("HOME", ["home"]),
        ("hme", ["home"]),
        ("setings", ["settings"]),
        ("reveiws", ["reviews"]),
        ("shar", ["share"]),
        ("serach", ["search"]),
        ("sare", ["share"]),
        ("xyz", []),                         // nothing near
        ("checkout", []),
        ("", []),
    ])
    func theClosestKnownNamesAreSuggested(typed: String, expected: [String]) {
        #expect(Suggestions.closest(to: typed, among: Self.screens) == expected)
    }

    @Test func theClosestComeFirstThenTheirTextAndAtMostTheLimit() {
        let names = ["ab", "abc", "abd", "abe", "xbc", "abcd"]
        #expect(Suggestions.closest(to: "abc", among: names) == ["ab", "abcd", "abd"], "one edit each, then by text; abc itself is not suggested")
        #expect(Suggestions.closest(to: "abc", among: names, limit: 5) == ["ab", "abcd", "abd", "abe", "xbc"])
        #expect(Suggestions.closest(to: "abc", among: names, limit: 1) == ["ab"])
        #expect(Suggestions.closest(to: "abc", among: names, limit: 0) == [])
        #expect(Suggestions.closest(to: "mian", among: ["main", "main", "mains"]) == ["main"], "each name once; mains is two edits away")
    }

    @Test func aNameThatBeginsWithWhatWasTypedIsSuggestedAfterTheNearOnes() {
        let sessions = ["6f1c0e9a-2b1d-4c55-9e1a-0d6c2f6a1b3e", "6f1c77aa-0000-4000-8000-000000000000", "a1b2c3d4-0000-4000-8000-000000000000"]
        #expect(Suggestions.closest(to: "6f1c", among: sessions) == Array(sessions.prefix(2)))
        #expect(Suggestions.closest(to: "6F1C0E9A", among: sessions) == [sessions[0]], "case-insensitively")
        #expect(Suggestions.closest(to: "6f", among: sessions) == [], "a prefix of fewer than 3 characters says too little")
        #expect(Suggestions.closest(to: "rep", among: ["replay", "report", "repair", "verify", "rap"]) == ["rap", "repair", "replay"])
    }

    /// The allowed distance grows with what was typed: 1 edit up to 5 characters, 2 up to 8, then 3.
    @Test func theDistanceAllowedGrowsWithTheLengthTyped() {
        #expect((1...12).map(Suggestions.maximumDistance(for:)) == [1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3])
        #expect(Suggestions.closest(to: "cat", among: ["dog"]) == [])
        #expect(Suggestions.closest(to: "main", among: ["mxyn"]) == [], "two edits in four characters are too many")
        #expect(Suggestions.closest(to: "settngz", among: ["settings"]) == ["settings"], "two edits in seven characters")
        #expect(Suggestions.closest(to: "onboardingz", among: ["onboarding-1"]) == ["onboarding-1"])
        #expect(Suggestions.closest(to: "onbaordinggg", among: ["onboarding"]) == ["onboarding"], "a swap and two insertions: 3")
        #expect(Suggestions.closest(to: "onbaordingggg", among: ["onboarding"]) == [], "4 edits are too many")
    }

    @Test(arguments: [
        ("kitten", "sitting", 3), ("ca", "abc", 3), ("abcd", "acbd", 1), ("", "abc", 3), ("abc", "", 3), ("same", "same", 0),
        ("flaw", "lawn", 2), ("héllo", "hello", 1),
    ])
    func theDistanceIsTheOptimalStringAlignmentOne(a: String, b: String, distance: Int) {
        #expect(Suggestions.distance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: 10) == distance)
        #expect(Suggestions.distance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: distance) == distance)
        if distance > 0 { #expect(Suggestions.distance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: distance - 1) == nil) }
    }

    @Test func thePhraseListsTheSuggestionsQuoted() {
        #expect(Suggestions.phrase([]) == "")
        #expect(Suggestions.phrase(["a"]) == "; did you mean 'a'?")
        #expect(Suggestions.phrase(["a", "b"]) == "; did you mean 'a' or 'b'?")
        #expect(Suggestions.phrase(["a", "b", "c"]) == "; did you mean 'a', 'b' or 'c'?")
    }

    /// A wrong session id among a log's 100,000 is answered quickly: names far from it are left
    /// after their first rows.
    @Test func manyNamesAreSearchedQuickly() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<100_000).map { _ in String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 16) + "-4000-8000" }
        let clock = ContinuousClock()
        var found: [String] = []
        let elapsed = clock.measure { found = Suggestions.closest(to: ids[500] + "x", among: ids) }
        #expect(found.first == ids[500])
        #expect(elapsed < .seconds(5), "\(elapsed)")
    }
}
