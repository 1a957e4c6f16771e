/// Numbers names — of screens, of scenes — 0, 1, 2, … in the order they are first seen, so that
/// what a query keeps per view is a small integer, cheap to store, compare and hash.
///
/// Names are found in an open-addressing table by a multiplicative hash of their UTF-8 bytes:
/// a query looks up a name for every view, and a `[String: Int32]` hashed each with SipHash,
/// 4% of `navlog paths`' instructions. Before that, the name last found of the same length and
/// first letter is asked: a session's views go between a few screens, and equal short names (up
/// to 15 bytes) compare as two words, where hashing each view's bytes took 4% of `navlog funnel`'s
/// time.
struct NameIDs {
    /// The names, by id.
    private(set) var names: [String] = []
    /// Each slot holds an id, or -1; a power of two of them, at most half full.
    private var slots = [Int32](repeating: -1, count: 64)
    /// The id last found of a name of each length and first byte (modulo 8 each), or -1.
    private var recent = [Int32](repeating: -1, count: 64)

    /// The id of `name`, numbering it when it is new.
    mutating func id(_ name: String) -> Int32 {
        let memo = (name.utf8.count & 7) << 3 | Int(name.utf8.first ?? 0) & 7
        let last = recent[memo]
        if last >= 0, names[Int(last)] == name { return last }
        let id = idOfContent(name)
        recent[memo] = id
        return id
    }

    /// The id of `name`, found by its bytes.
    private mutating func idOfContent(_ name: String) -> Int32 {
        var slot = slot(of: name)
        while true {
            let id = slots[slot]
            if id < 0 { break }
            if names[Int(id)] == name { return id }
            slot = (slot + 1) & (slots.count - 1)
        }
        let id = Int32(names.count)
        names.append(name)
        slots[slot] = id
        if names.count * 2 > slots.count { grow() }
        return id
    }

    /// The ids here of the names `other` numbered, by `other`'s id, numbering those new here: how
    /// a merge reads the numbers of a query that counted another chunk.
    mutating func ids(of other: NameIDs) -> [Int32] { other.names.map { id($0) } }

    /// Puts a session's views in the order they began: by seq, and views that began with the same
    /// event (scenes resuming) by the name of their scene, numbered here. Sorted in place, and only
    /// when they are not in that order already, as they mostly are: a scene's views end in the
    /// order they began.
    func sortInBeginOrder<View: BegunView>(_ views: inout [View]) {
        func precedes(_ a: View, _ b: View) -> Bool {
            a.seq != b.seq ? a.seq < b.seq : names[Int(a.scene)] < names[Int(b.scene)]
        }
        if views.indices.dropFirst().contains(where: { precedes(views[$0], views[$0 - 1]) }) { views.sort(by: precedes) }
    }

    /// The id of `name`, nil when it was never seen.
    func existingID(_ name: String) -> Int32? {
        var slot = slot(of: name)
        while slots[slot] >= 0 {
            if names[Int(slots[slot])] == name { return slots[slot] }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    private func slot(of name: String) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & (slots.count - 1)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for (id, name) in names.enumerated() {
            var slot = slot(of: name)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(id)
        }
    }
}

/// A view as a query keeps it until its session ends: the seq it began at, and its scene's number.
protocol BegunView {
    var seq: Int { get }
    var scene: Int32 { get }
}
