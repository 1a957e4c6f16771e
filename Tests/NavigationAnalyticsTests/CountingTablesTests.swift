import Testing
@testable import NavigationAnalytics
import NavigationHistory
import NavigationSimulation

/// The tables `paths` counts in: they must agree with a plain dictionary however many keys they
/// hold, through every growth of their slots.
@Suite struct CountingTablesTests {
    /// Names short and long, ASCII and not, some equal in content but made apart.
    static func name(_ k: Int) -> String {
        switch k % 4 {
        case 0: "s\(k)"
        case 1: "screen-with-a-long-name-\(k)"
        case 2: "écran-\(k)"
        default: String("x\(k)".reversed())
        }
    }

    @Test func nameIDsNumberNamesInTheOrderFirstSeenAndFindEachAgain() {
        var ids = NameIDs()
        var reference: [String: Int32] = [:]
        var random = SeededRandom(seed: 7)
        // Half the names asked again as the same string (long ones too, found by their storage's
        // address), half made anew.
        let made = (0..<3_000).map(Self.name)
        for _ in 0..<20_000 {
            let k = Int(random.next() % 3_000)
            let name = random.chance(0.5) ? made[k] : Self.name(k)
            let expected = reference[name] ?? Int32(reference.count)
            reference[name] = expected
            #expect(ids.id(name) == expected)
        }
        #expect(ids.names.count == reference.count)
        for (name, id) in reference {
            #expect(ids.names[Int(id)] == name)
            #expect(ids.existingID(String(decoding: Array(name.utf8), as: UTF8.self)) == id)   // equal content, made apart
        }
        #expect(ids.existingID("never seen") == nil)
    }

    @Test func nGramCountsAgreeWithADictionaryOfArrays() {
        for length in [1, 2, 3, 5] {
            var counts = NGramCounts(length: length)
            var reference: [[Int32]: (occurrences: Int, sessions: Set<Int>)] = [:]
            var random = SeededRandom(seed: UInt64(length))
            var session = 0
            for _ in 0..<30_000 {
                if random.chance(0.05) { session += 1 }
                let gram = (0..<length).map { _ in Int32(random.next() % (length == 1 ? 1_000 : 12)) }
                // Counted as a slice of a longer path, as paths counts them.
                let path = [7, 7] + gram + [7]
                counts.count(path[2..<(2 + length)], session: session)
                reference[gram, default: (0, [])].occurrences += 1
                reference[gram, default: (0, [])].sessions.insert(session)
            }
            #expect(counts.tallies.count == reference.count)
            for k in counts.tallies.indices {
                let expected = reference[Array(counts.gram(k))]
                #expect(counts.tallies[k].occurrences == expected?.occurrences)
                #expect(counts.tallies[k].sessions == expected?.sessions.count)
            }
        }
    }

    @Test func addedTalliesSumWithTheCountedOnes() {
        var counts = NGramCounts(length: 2)
        counts.count([1, 2], session: 1)
        counts.count([1, 2], session: 1)
        var other = NGramCounts(length: 2)
        other.count([3, 4], session: 1)
        other.count([1, 2], session: 1)
        other.count([1, 2], session: 2)
        for k in other.tallies.indices { counts.add(other.tallies[k], of: other.gram(k)) }
        #expect(counts.tallies.count == 2)
        #expect(counts.tallies[0].occurrences == 4)
        #expect(counts.tallies[0].sessions == 3)
        #expect(Array(counts.gram(1)) == [3, 4])
        #expect(counts.tallies[1].occurrences == 1)
    }
}

/// Quantiles found by selection over merged counters, against sorting every value.
@Suite struct ValueCountsTests {
    @Test func eachValueIsCountedAsADictionaryCountsIt() {
        var random = SeededRandom(seed: 12)
        // Zero (an empty slot's count, not its value), the extremes, negatives, values that differ
        // only in high bits, and enough distinct ones for the table to grow several times.
        let specials: [Int64] = [0, 1, -1, .min, .max, 1 << 32, 1 << 40, -(1 << 40)]
        var counts = ValueCounts()
        var expected: [Int64: Int] = [:]
        #expect(counts.isEmpty && counts.entries.isEmpty)
        for round in 0..<20_000 {
            let value = round % 7 == 0 ? specials[Int(random.next() % UInt64(specials.count))]
                : round % 2 == 0 ? Int64(random.next() % 300) : Int64(bitPattern: random.next())
            counts.add(value)
            expected[value, default: 0] += 1
        }
        #expect(!counts.isEmpty)
        let entries = counts.entries
        #expect(entries.count == expected.count)
        #expect(Dictionary(entries, uniquingKeysWith: +) == expected)
    }
}

@Suite struct QuantileCounterTests {
    @Test func quantilesOfMergedCountersAreThoseOfAllTheirValuesSorted() {
        var random = SeededRandom(seed: 11)
        for round in 0..<200 {
            // Few distinct values or many; one counter or several merged, sharing values.
            let spread = round % 3 == 0 ? 5 : 10_000
            var counters = (0..<(1 + round % 4)).map { _ in QuantileCounter() }
            var all: [Int64] = []
            for _ in 0..<Int(random.next() % 3_000) {
                let value = Int64(random.next() % UInt64(spread))
                counters[Int(random.next() % UInt64(counters.count))].add(value)
                all.append(value)
            }
            // Merged from the last one back, so that counters that merged others are merged too.
            var merged = counters.last!
            for counter in counters.dropLast().reversed() {
                var earlier = counter
                earlier.merge(merged)
                merged = earlier
            }
            all.sort()
            let percents = [0, 1, 50, 90, 99, 100]
            #expect(merged.quantiles(percent: percents) == (all.isEmpty ? percents.map { _ in nil } : Self.nearestRank(percents, of: all)))
            #expect(merged.count == all.count && merged.total == all.reduce(0, +))
            var single = QuantileCounter()
            for value in all.shuffled(using: &random) { single.add(value) }
            #expect(merged == single)
        }
    }

    @Test func mergingManyLogsCountersKeepsQuantilesExactInTablesOfAboutTheDistinctValues() {
        var random = SeededRandom(seed: 13)
        // 40 logs, each read in two chunks, their dwell times drawn from the same 2,000 values:
        // every log's tables hold most of them.
        var merged = QuantileCounter()
        var all: [Int64] = []
        for _ in 0..<40 {
            let log = Self.logCounter(3_000, all: &all) { Int64(random.next() % 2_000) * 7 - 1_000 }
            merged.merge(log)
            // The folded table, parts of at most twice as many values, and the log just merged.
            #expect(merged.tableValues <= 3 * Set(all).count + log.tableValues)
        }
        all.sort()
        let percents = [0, 1, 25, 50, 90, 99, 100]
        #expect(merged.quantiles(percent: percents) == Self.nearestRank(percents, of: all))
        #expect(merged.count == all.count && merged.total == all.reduce(0, +))
    }

    @Test func mergingTwoChunksOfOneLogKeepsTheirTablesAsTheyAre() {
        // Chunks of one log are merged on one thread after they are read: nothing is hashed again.
        var first = QuantileCounter(), second = QuantileCounter()
        for value in 0..<1_000 { first.add(Int64(value)) }
        for value in 500..<2_000 { second.add(Int64(value)) }
        first.merge(second)
        #expect(first.tableValues == 2_500)
        #expect(first.quantiles(percent: [0, 50, 100]) == [0, 874, 1_999])   // 500..<1000 twice
    }

    @Test func mergingTheNextLogsCounterFoldsEveryTableIntoOne() {
        // Logs count much the same values: merged so, the tables hold each value once.
        var random = SeededRandom(seed: 12)
        var merged = QuantileCounter()
        var all: [Int64] = []
        for _ in 0..<10 {
            merged.merge(Self.logCounter(2_000, all: &all) { Int64(random.next() % 500) }, folding: true)
            #expect(merged.tableValues == Set(all).count)
        }
        all.sort()
        #expect(merged.quantiles(percent: [0, 50, 90, 100]) == Self.nearestRank([0, 50, 90, 100], of: all))
    }

    /// A log's counter as a reading in two chunks makes it: `count` values from `value`, dealt to
    /// the chunks in turn, each also appended to `all`.
    static func logCounter(_ count: Int, all: inout [Int64], _ value: () -> Int64) -> QuantileCounter {
        var chunks = [QuantileCounter(), QuantileCounter()]
        for k in 0..<count {
            let drawn = value()
            chunks[k % 2].add(drawn)
            all.append(drawn)
        }
        chunks[0].merge(chunks[1])
        return chunks[0]
    }

    /// The nearest-rank percentiles of `sorted`, which is not empty, as the counter defines them.
    static func nearestRank(_ percents: [Int], of sorted: [Int64]) -> [Int64?] {
        percents.map { sorted[max(1, ($0 * sorted.count + 99) / 100) - 1] }
    }
}
