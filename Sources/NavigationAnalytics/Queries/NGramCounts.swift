/// How often each sequence of `length` screen ids (an n-gram) occurs, and in how many sessions.
///
/// The n-grams are kept end to end in one array of ids and found through an open-addressing table
/// by a multiplicative hash: a query counts one for nearly every view, and a `[[Int32]: Tally]`
/// hashed each n-gram with SipHash and held an array per key.
struct NGramCounts {
    struct Tally {
        var occurrences = 0, sessions = 0
        /// The number of the session that counted last, so that a session counts once.
        fileprivate var lastSession = -1
    }

    let length: Int
    /// The n-grams, end to end: n-gram `k` is `ids[k * length ..< (k + 1) * length]`.
    private var ids: [Int32] = []
    /// The tally of each n-gram, by its number.
    private(set) var tallies: [Tally] = []
    /// Each slot holds an n-gram's number, or -1; a power of two of them, at most half full.
    private var slots = [Int32](repeating: -1, count: 256)

    init(length: Int) { self.length = length }

    /// The ids of n-gram `k`.
    func gram(_ k: Int) -> ArraySlice<Int32> { ids[k * length ..< (k + 1) * length] }

    /// Counts an occurrence of `gram` (`length` ids) in the session numbered `session`.
    mutating func count(_ gram: ArraySlice<Int32>, session: Int) {
        let k = number(of: gram)
        tallies[k].occurrences += 1
        if tallies[k].lastSession != session {
            tallies[k].lastSession = session
            tallies[k].sessions += 1
        }
    }

    /// Adds `tally`, counted over other sessions, to the tally of `gram`.
    mutating func add(_ tally: Tally, of gram: ArraySlice<Int32>) {
        let k = number(of: gram)
        tallies[k].occurrences += tally.occurrences
        tallies[k].sessions += tally.sessions
        tallies[k].lastSession = -1
    }

    /// The number of `gram`, stored anew when it was never seen.
    private mutating func number(of gram: ArraySlice<Int32>) -> Int {
        var slot = slot(of: gram)
        while slots[slot] >= 0 {
            let k = Int(slots[slot])
            if stored(k, equals: gram) { return k }
            slot = (slot + 1) & (slots.count - 1)
        }
        let k = tallies.count
        ids.append(contentsOf: gram)
        tallies.append(Tally())
        slots[slot] = Int32(k)
        if tallies.count * 2 > slots.count { grow() }
        return k
    }

    private func stored(_ k: Int, equals gram: ArraySlice<Int32>) -> Bool {
        let start = k * length
        for offset in 0..<length where ids[start + offset] != gram[gram.startIndex + offset] { return false }
        return true
    }

    private func slot(of gram: ArraySlice<Int32>) -> Int {
        var hash: UInt64 = 0
        for id in gram { hash = (hash ^ UInt64(UInt32(bitPattern: id))) &* 0x9E37_79B9_7F4A_7C15 }
        return Int(truncatingIfNeeded: hash >> 32) & (slots.count - 1)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for k in tallies.indices {
            var slot = slot(of: gram(k))
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(k)
        }
    }
}
