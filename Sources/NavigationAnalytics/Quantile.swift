/// Exact quantiles by nearest rank: the p-quantile of n sorted values is the one at rank ⌈p·n⌉
/// (1-based) — what DuckDB's `quantile_disc` returns, so the SQL in Tools/sql agrees exactly.
///
/// Values are kept as counts per distinct value: memory grows with the distinct dwell times (which
/// in practice is close to the number of views of a screen; exact quantiles need them).
public struct QuantileCounter: Sendable, Hashable {
    private var counts = ValueCounts()
    /// The counts of the counters merged in, kept apart: hashing each of their values again, on
    /// one thread after the chunks of one log, cost more than counting them. A value may be in
    /// several parts. They hold at most twice the distinct values `counts` holds: when a merge
    /// takes them past that, they are folded into one table (see ``merge(_:)``).
    private var parts: [ValueCounts] = []
    /// The distinct values of `parts`, summed.
    private var partValues = 0
    /// How many values were added.
    public private(set) var count = 0
    /// Their sum.
    public private(set) var total: Int64 = 0

    /// Creates a counter of no values.
    public init() {}

    /// Adds `value`.
    public mutating func add(_ value: Int64) {
        counts.add(value)
        count += 1
        total += value
    }

    /// Adds every value `other` counted.
    ///
    /// Its tables are kept as parts, so that merging the chunks of one log hashes nothing again.
    /// Merging many logs' counters would so keep a table per log, each repeating the values the
    /// others hold (dwell times of a screen are much the same in every log): once the parts hold
    /// more than twice the distinct values of the largest table, they are folded into it. Memory
    /// then stays within about three times the distinct values counted, however many counters
    /// are merged, and each value is hashed again about once (`Tools/bench/run --only many`).
    public mutating func merge(_ other: QuantileCounter) {
        merge(other, folding: false)
    }

    /// Adds every value `other` counted, and folds every table into one when `folding`: for a
    /// counter that more will be merged into, each counting much the same values (a log's, the
    /// next log's and so on), whose tables kept apart would each repeat them.
    public mutating func merge(_ other: QuantileCounter, folding: Bool) {
        for table in CollectionOfOne(other.counts) + other.parts where !table.isEmpty {
            if counts.isEmpty {
                counts = table
            } else {
                parts.append(table)
                partValues += table.distinct
            }
        }
        count += other.count
        total += other.total
        if partValues > 2 * counts.distinct || (folding && !parts.isEmpty) { foldParts() }
    }

    /// Adds the parts' counts to the largest table of them all, which becomes `counts`.
    private mutating func foldParts() {
        if let largest = parts.indices.max(by: { parts[$0].distinct < parts[$1].distinct }), parts[largest].distinct > counts.distinct {
            swap(&counts, &parts[largest])
        }
        for part in parts { counts.add(part) }
        parts = []
        partValues = 0
    }

    /// The distinct values its tables hold, summed over the tables: what its memory grows with.
    var tableValues: Int { counts.distinct + partValues }

    /// The quantile for `percent` (0...100), or nil when no value was added.
    public func quantile(percent: Int) -> Int64? { quantiles(percent: [percent])[0] }

    /// The quantiles for each of `percents` (0...100): nil each when no value was added.
    public func quantiles(percent percents: [Int]) -> [Int64?] {
        guard count > 0 else { return percents.map { _ in nil } }
        var values = counts.entries
        for part in parts { values += part.entries }
        return percents.map { percent in Self.value(atRank: max(1, (percent * count + 99) / 100), in: &values) }
    }

    /// The value at 1-based `rank` among the values `counted` holds (each counted so many times,
    /// a value perhaps in several entries): found by selection, which reorders `counted`, rather
    /// than by sorting it.
    private static func value(atRank rank: Int, in counted: inout [(key: Int64, value: Int)]) -> Int64? {
        var low = 0, high = counted.count, rank = rank
        while low < high {
            // Three ways around the middle of three: below, equal, above.
            let a = counted[low].key, b = counted[(low + high) / 2].key, c = counted[high - 1].key
            let pivot = max(min(a, b), min(max(a, b), c))
            var below = low, equal = low, above = high
            var belowCount = 0, equalCount = 0
            while equal < above {
                let key = counted[equal].key
                if key < pivot {
                    belowCount += counted[equal].value
                    counted.swapAt(below, equal)
                    below += 1
                    equal += 1
                } else if key > pivot {
                    above -= 1
                    counted.swapAt(equal, above)
                } else {
                    equalCount += counted[equal].value
                    equal += 1
                }
            }
            if rank <= belowCount {
                high = below
            } else if rank <= belowCount + equalCount {
                return pivot
            } else {
                rank -= belowCount + equalCount
                low = above
            }
        }
        return nil
    }

    // Equal counters counted the same values, however they were merged.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.total == rhs.total && lhs.allCounts == rhs.allCounts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(total)
    }

    private var allCounts: [Int64: Int] {
        Dictionary(([counts] + parts).flatMap(\.entries), uniquingKeysWith: +)
    }
}

/// How often each value occurs: the values in an open-addressing table, found by a multiplicative
/// hash. A screens query counts a dwell time for every view, and a `[Int64: Int]` hashed each with
/// SipHash.
struct ValueCounts: Sendable {
    /// Each slot's value, and how often it occurs: 0 for an empty slot. A power of two of them
    /// (none until the first value), at most half full.
    private var values: [Int64] = []
    private var counts: [Int] = []
    /// How many distinct values are counted.
    private(set) var distinct = 0

    var isEmpty: Bool { distinct == 0 }

    /// Counts `value` once more.
    mutating func add(_ value: Int64) { add(value, times: 1) }

    /// Counts `value` `times` times more.
    mutating func add(_ value: Int64, times: Int) {
        if distinct * 2 >= values.count { grow() }
        let slot = slot(of: value)
        if counts[slot] == 0 {
            values[slot] = value
            distinct += 1
        }
        counts[slot] += times
    }

    /// Counts every value `other` counts, as often.
    mutating func add(_ other: ValueCounts) {
        for slot in other.counts.indices where other.counts[slot] != 0 { add(other.values[slot], times: other.counts[slot]) }
    }

    /// Each value counted, with how often, in no order.
    var entries: [(key: Int64, value: Int)] {
        var entries: [(key: Int64, value: Int)] = []
        entries.reserveCapacity(distinct)
        for slot in counts.indices where counts[slot] != 0 { entries.append((values[slot], counts[slot])) }
        return entries
    }

    /// The slot that holds `value`, or the empty one where it goes.
    private func slot(of value: Int64) -> Int {
        let mask = values.count - 1
        var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: value) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while counts[slot] != 0, values[slot] != value { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func grow() {
        let (oldValues, oldCounts) = (values, counts)
        values = [Int64](repeating: 0, count: max(16, oldValues.count * 2))
        counts = [Int](repeating: 0, count: values.count)
        for k in oldCounts.indices where oldCounts[k] != 0 {
            let slot = slot(of: oldValues[k])
            values[slot] = oldValues[k]
            counts[slot] = oldCounts[k]
        }
    }
}
