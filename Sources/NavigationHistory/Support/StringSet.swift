/// A set of strings that only grows, for the ids a reading meets once each — a log's sessions:
/// one insertion per session, and at 10M events some 100,000 of them a chunk.
///
/// `Set<String>` spent most of that time growing: each time it doubles, it hashes every string
/// again and moves it, into a table of 16-byte buckets. Here the strings stay in an array, in
/// the order they came, and the table holds 8-byte slots — a fragment of the string's hash and
/// its index — so that growing reads no string and hashes nothing. Strings are equal as
/// `String`s are (by canonical equivalence), as in `Set<String>`.
package struct StringSet: Sequence, Sendable {
    /// The strings, in the order they were inserted.
    private var strings: [String] = []
    /// Each slot is 0 (empty) or the hash fragment in its high half and the string's index + 1 in
    /// its low half; a power of two of them, at most half full.
    private var slots = [UInt64](repeating: 0, count: 16)

    /// Creates an empty set.
    package init() {}

    /// The number of strings.
    package var count: Int { strings.count }

    /// Whether it holds no string.
    package var isEmpty: Bool { strings.isEmpty }

    /// Inserts `string` unless it is here; returns whether it was inserted.
    @discardableResult
    package mutating func insert(_ string: String) -> Bool { index(inserting: string).inserted }

    /// Whether `string` is here.
    package func contains(_ string: String) -> Bool { index(of: string) != nil }

    /// The index of `string` — how many strings were inserted before it — inserting it unless it
    /// is here; and whether it was inserted.
    package mutating func index(inserting string: String) -> (index: Int, inserted: Bool) {
        index(inserting: string, fragment: Self.fragment(of: string))
    }

    /// The index of `string`, nil when it is not here.
    package func index(of string: String) -> Int? { find(string, fragment: Self.fragment(of: string)).index }

    /// ``index(inserting:)`` for a string whose hash fragment is known.
    @discardableResult
    private mutating func index(inserting string: String, fragment: UInt64) -> (index: Int, inserted: Bool) {
        let (slot, found) = find(string, fragment: fragment)
        if let found { return (found, false) }
        strings.append(string)
        slots[slot] = fragment << 32 | UInt64(strings.count)
        if strings.count * 2 > slots.count { grow() }
        return (strings.count - 1, true)
    }

    /// Where `string`, whose hash fragment is `fragment`, is: the slot holding it with its index,
    /// or the empty slot it would take.
    @inline(__always)
    private func find(_ string: String, fragment: UInt64) -> (slot: Int, index: Int?) {
        var slot = Self.slot(of: fragment, in: slots.count)
        while slots[slot] != 0 {
            if slots[slot] >> 32 == fragment {
                let index = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if strings[index] == string { return (slot, index) }
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return (slot, nil)
    }

    /// Whether no string is in both sets.
    package func isDisjoint(with other: StringSet) -> Bool {
        let (small, large) = count <= other.count ? (self, other) : (other, self)
        return !small.entries.contains { large.find($0.string, fragment: $0.fragment).index != nil }
    }

    /// The strings in both sets.
    package func intersection(_ other: StringSet) -> StringSet {
        let (small, large) = count <= other.count ? (self, other) : (other, self)
        var both = StringSet()
        for (string, fragment) in small.entries where large.find(string, fragment: fragment).index != nil {
            both.index(inserting: string, fragment: fragment)
        }
        return both
    }

    /// Inserts the strings of `other` that are not here, in the order of its table rather than of
    /// its insertions.
    package mutating func formUnion(_ other: StringSet) {
        for (string, fragment) in other.entries { index(inserting: string, fragment: fragment) }
    }

    /// The strings with their hash fragments, as the slots keep them: what another set looks a
    /// string up by without hashing it again. Comparing two chunks' sets of some 100,000 ids at
    /// 10M events, hashing them again took three quarters of the time.
    private var entries: some Sequence<(string: String, fragment: UInt64)> {
        slots.lazy.filter { $0 != 0 }.map { (strings[Int($0 & 0xFFFF_FFFF) - 1], $0 >> 32) }
    }

    /// The strings, in the order they were inserted.
    package func makeIterator() -> IndexingIterator<[String]> { strings.makeIterator() }

    /// The high half of the string's hash: what a slot keeps, and what places it.
    static func fragment(of string: String) -> UInt64 { UInt64(UInt(bitPattern: string.hashValue)) >> 32 }

    private static func slot(of fragment: UInt64, in count: Int) -> Int {
        Int(truncatingIfNeeded: (fragment &* 0x9E37_79B9_7F4A_7C15) >> 32) & (count - 1)
    }

    private mutating func grow() {
        var grown = [UInt64](repeating: 0, count: slots.count * 2)
        for entry in slots where entry != 0 {
            var slot = Self.slot(of: entry >> 32, in: grown.count)
            while grown[slot] != 0 { slot = (slot + 1) & (grown.count - 1) }
            grown[slot] = entry
        }
        slots = grown
    }
}
