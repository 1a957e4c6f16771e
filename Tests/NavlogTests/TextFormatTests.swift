import Testing
@testable import navlog

/// Text output shows numbers as a person reads them; JSON and CSV keep them exact.
@Suite struct TextFormatTests {
    @Test(arguments: [
        (Int64(0), "0 ms"), (1, "1 ms"), (999, "999 ms"),
        (1000, "1.0 s"), (1049, "1.0 s"), (1050, "1.1 s"), (4200, "4.2 s"), (59_900, "59.9 s"), (59_949, "59.9 s"),
        (59_950, "1 min"), (60_000, "1 min"), (61_000, "1 min 1 s"), (61_499, "1 min 1 s"), (61_500, "1 min 2 s"),
        (3_599_499, "59 min 59 s"), (3_599_500, "1 h"), (3_600_000, "1 h"), (3_780_000, "1 h 3 min"), (3_809_999, "1 h 3 min"),
        (3_810_000, "1 h 4 min"), (47_046_899, "13 h 4 min"), (86_370_000, "1 d"), (183_600_000, "2 d 3 h"), (-4200, "-4.2 s"),
    ])
    func durationsReadInTheLargestUnitThatFitsRoundedHalfUp(milliseconds: Int64, text: String) {
        #expect(TextFormat.duration(milliseconds: milliseconds) == text)
    }

    @Test func aDurationValueIsShownToTheMillisecondBelow() {
        #expect(TextFormat.duration(.milliseconds(4200) + .microseconds(999)) == "4.2 s")
        #expect(TextFormat.duration(.microseconds(999)) == "0 ms")
    }

    @Test(arguments: [(0, "0.0 %"), (4, "0.0 %"), (5, "0.1 %"), (1040, "10.4 %"), (8205, "82.1 %"), (9999, "100.0 %"), (10_000, "100.0 %"),
                      (1_000_000, "10,000.0 %"), (-1040, "-10.4 %")])
    func ratesInBasisPointsReadAsPercentagesWithOneDecimal(basisPoints: Int, text: String) {
        #expect(TextFormat.rate(basisPoints: basisPoints) == text)
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (47_046_899, "47,046,899"), (100_000, "100,000"), (-1_234_567, "-1,234,567"),
                      (Int.min, "-9,223,372,036,854,775,808")])
    func countsHaveThousandsSeparators(count: Int, text: String) {
        #expect(TextFormat.count(count) == text)
    }

    @Test func countedNounsUseTheSeparatorsAndTheSingularForOne() {
        #expect(counted(1, "session") == "1 session")
        #expect(counted(3000, "event") == "3,000 events")
    }
}
