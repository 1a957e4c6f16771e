import Testing
import NavigationAnalytics

/// navlog's JSON and CSV and the report's data write a rate the one way ``Percent`` does.
@Suite struct PercentTests {
    /// A rate is written exactly, as the percentage its basis points make, shortest form.
    @Test(arguments: [(Int64(0), "0"), (5, "0.05"), (50, "0.5"), (99, "0.99"), (100, "1"), (1040, "10.4"), (3548, "35.48"), (9450, "94.5"),
                      (9453, "94.53"), (10_000, "100"), (1_234_567, "12345.67"), (-1040, "-10.4"), (-5, "-0.05")])
    func ratesArePercentagesExactFromBasisPointsWithoutTrailingZeros(basisPoints: Int64, text: String) {
        #expect(Percent.text(basisPoints: basisPoints) == text)
        #expect(Double(text) == Double(basisPoints) / 100, "the double SQL computes as bp / 100.0")
    }
}
