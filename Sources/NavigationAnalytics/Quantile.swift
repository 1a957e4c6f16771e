/// Exact quantiles by nearest rank: the p-quantile of n sorted values is the one at rank ⌈p·n⌉
/// (1-based) — what DuckDB's `quantile_disc` returns, so the SQL in Tools/sql agrees exactly.
///
/// Values are kept as counts per distinct value: memory grows with the distinct dwell times (which
/// in practice is close to the number of views of a screen; exact quantiles need them).
public struct QuantileCounter: Sendable, Hashable {
    private var counts: [Int64: Int] = [:]
    /// How many values were added.
    public private(set) var count = 0
    /// Their sum.
    public private(set) var total: Int64 = 0

    public init() {}

    public mutating func add(_ value: Int64) {
        counts[value, default: 0] += 1
        count += 1
        total += value
    }

    /// Adds every value `other` counted.
    public mutating func merge(_ other: QuantileCounter) {
        counts.merge(other.counts, uniquingKeysWith: +)
        count += other.count
        total += other.total
    }

    /// The quantile for `percent` (0...100), or nil when no value was added.
    public func quantile(percent: Int) -> Int64? { quantiles(percent: [percent])[0] }

    /// The quantiles for each of `percents` (0...100), with one sort of the values: nil each when
    /// no value was added.
    public func quantiles(percent percents: [Int]) -> [Int64?] {
        guard count > 0 else { return percents.map { _ in nil } }
        let values = counts.sorted { $0.key < $1.key }
        return percents.map { percent in
            let rank = max(1, (percent * count + 99) / 100)
            var seen = 0
            for (value, times) in values {
                seen += times
                if seen >= rank { return value }
            }
            return nil
        }
    }
}
