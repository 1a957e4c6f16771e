import Testing
@testable import NavigationHistory
import NavigationSimulation

/// The set of session ids a reading keeps: it must agree with `Set<String>` through every growth
/// of its table, strings equal as `String`s are included.
@Suite struct StringSetTests {
    /// Ids short and long, ASCII and not; some canonically equivalent to others with other bytes
    /// (a precomposed `é` and `e` with a combining accent; the Kelvin sign and `K`).
    static func id(_ k: Int) -> String {
        switch k % 6 {
        case 0: "s\(k)"
        case 1: "session-with-a-long-id-\(k)"
        case 2: "caf\u{E9}-\(k / 2)"
        case 3: "cafe\u{301}-\(k / 2 - 1)"   // equal to case 2's id of k - 1
        case 4: "\u{212A}\(k)"
        default: "K\(k - 1)"                  // equal to case 4's id of k - 1
        }
    }

    @Test func insertionsAgreeWithASetAndNumberIdsInTheOrderFirstInserted() {
        var set = StringSet()
        var reference: [String] = []
        var indices: [String: Int] = [:]
        var random = SeededRandom(seed: 21)
        for _ in 0..<60_000 {
            // Made anew each time: equal ids are never the same string object.
            let id = Self.id(Int(random.next() % 20_000))
            let expectedIndex = indices[id]
            let isNew = expectedIndex == nil
            if random.chance(0.5) {
                #expect(set.insert(id) == isNew)
            } else {
                let (index, inserted) = set.index(inserting: id)
                #expect(inserted == isNew)
                #expect(index == expectedIndex ?? reference.count)
            }
            if isNew {
                indices[id] = reference.count
                reference.append(id)
            }
        }
        #expect(set.count == reference.count)
        #expect(Array(set) == reference)
        for (k, id) in reference.enumerated() {
            #expect(set.index(of: id) == k)
            #expect(set.contains(String(decoding: Array(id.utf8), as: UTF8.self)))
        }
        #expect(set.contains("cafe\u{301}-0") && set.contains("caf\u{E9}-0") == set.contains("cafe\u{301}-0"))
        #expect(!set.contains("never inserted") && set.index(of: "never inserted") == nil)
    }

    @Test func idsWhoseHashesShareTheFragmentASlotKeepsAreTwoIds() throws {
        // A slot keeps 32 bits of a hash: two ids among a few hundred thousand share them, and
        // only the strings' comparison tells them apart.
        var first: [UInt64: String] = [:]
        var pair: (String, String)?
        for k in 0..<2_000_000 where pair == nil {
            let id = "id-\(k)"
            let fragment = StringSet.fragment(of: id)
            if let earlier = first[fragment] { pair = (earlier, id) } else { first[fragment] = id }
        }
        let (a, b) = try #require(pair)
        var set = StringSet()
        #expect(set.insert(a) && set.insert(b))
        #expect(!set.insert(a) && !set.insert(b))
        #expect(set.index(of: a) == 0 && set.index(of: b) == 1 && set.count == 2)
    }

    @Test func disjointnessIntersectionAndUnionAgreeWithSets() {
        var random = SeededRandom(seed: 22)
        for size in [0, 1, 40, 3_000] {
            var a = StringSet(), b = StringSet()
            var referenceA = Set<String>(), referenceB = Set<String>()
            for _ in 0..<size {
                let id = Self.id(Int(random.next() % 10_000))
                a.insert(id)
                referenceA.insert(id)
            }
            // Disjoint from `a` at first (other ids), then sharing one id.
            for _ in 0..<size / 2 {
                let id = "other-\(random.next() % 10_000)"
                b.insert(id)
                referenceB.insert(id)
            }
            #expect(a.isDisjoint(with: b) && b.isDisjoint(with: a))
            #expect(a.intersection(b).isEmpty)
            // Then sharing a few ids, made apart.
            for shared in referenceA.prefix(5) {
                b.insert(String(decoding: Array(shared.utf8), as: UTF8.self))
                referenceB.insert(shared)
                #expect(!a.isDisjoint(with: b) && !b.isDisjoint(with: a))
            }
            #expect(Set(a.intersection(b)) == referenceA.intersection(referenceB))
            #expect(Set(b.intersection(a)) == referenceA.intersection(referenceB))
            a.formUnion(b)
            referenceA.formUnion(referenceB)
            #expect(a.count == referenceA.count)
            #expect(Set(a) == referenceA)
        }
    }
}
