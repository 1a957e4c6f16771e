import NavigationHistory

/// Numbers names — of screens, of scenes — 0, 1, 2, … in the order they are first seen, so that
/// what a query keeps per view is a small integer, cheap to store, compare and hash.
///
/// Names are found in an open-addressing table by a multiplicative hash of their UTF-8 bytes:
/// a query looks up a name for every view, and a `[String: Int32]` hashed each with SipHash,
/// 4% of `navlog paths`' instructions. Before that, the two names last found of the same length
/// are asked: the reader makes each short name once and hands the same string on, and equal
/// strings of the same storage compare as two words without reading their bytes (hashing each
/// view's bytes instead cost `navlog funnel` 2.5% of its instructions, callgrind).
struct NameIDs {
    /// The names, by id.
    private(set) var names: [String] = []
    /// Each slot holds an id, or -1; a power of two of them, at most half full.
    private var slots = [Int32](repeating: -1, count: 64)
    /// The two names last found of each length (modulo 64), the latest first, with their ids
    /// (-1: none).
    private var recent = [(name: String, id: Int32)](repeating: ("", -1), count: 128)

    /// The id of `name`, numbering it when it is new.
    @inline(__always)
    mutating func id(_ name: String) -> Int32 {
        let slot = (name.utf8.count & 63) << 1
        if recent[slot].id >= 0, recent[slot].name == name { return recent[slot].id }
        if recent[slot + 1].id >= 0, recent[slot + 1].name == name { return recent[slot + 1].id }
        return idRemembered(name, in: slot)
    }

    /// The id of `name`, found by its bytes, and kept as the first of its length.
    @inline(never)
    private mutating func idRemembered(_ name: String, in slot: Int) -> Int32 {
        let id = idOfContent(name)
        recent[slot + 1] = recent[slot]
        recent[slot] = (name, id)
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

    private func slot(of name: String) -> Int { Int(truncatingIfNeeded: name.utf8Hash >> 32) & (slots.count - 1) }

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
