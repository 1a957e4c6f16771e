/// Numbers names — of screens, of scenes — 0, 1, 2, … in the order they are first seen, so that
/// what a query keeps per view is a small integer, cheap to store, compare and hash.
///
/// Names are found in an open-addressing table by a multiplicative hash of their UTF-8 bytes:
/// a query looks up a name for every view, and a `[String: Int32]` hashed each with SipHash,
/// 4% of `paths`' instructions. Before that, a small cache is asked by the string's
/// representation: the reader makes each short name (up to 15 bytes) once and hands the same
/// string on, so nearly every one is found there without reading its bytes; a longer name, made
/// anew on each line, is found by its bytes.
struct NameIDs {
    /// The names, by id.
    private(set) var names: [String] = []
    /// Each slot holds an id, or -1; a power of two of them, at most half full.
    private var slots = [Int32](repeating: -1, count: 64)
    /// Strings recently looked up, by a hash of their representation, with their ids. The string
    /// is kept, so that no other string can take its representation (its storage's address)
    /// while it is here.
    private var recent = [(bits: Representation, id: Int32, name: String)](repeating: (.none, -1, ""), count: 256)

    /// The id of `name`, numbering it when it is new. The cache's answer inlined where it is
    /// asked; the rest a call.
    @inline(__always)
    mutating func id(_ name: String) -> Int32 {
        let bits = Representation(name)
        let cached = bits.slot & (recent.count - 1)
        if bits.isSome, recent[cached].bits == bits { return recent[cached].id }
        return idRemembered(name, bits: bits, in: cached)
    }

    @inline(never)
    private mutating func idRemembered(_ name: String, bits: Representation, in cached: Int) -> Int32 {
        let id = idOfContent(name)
        if bits.isSome { recent[cached] = (bits, id, name) }
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
        var name = name
        let hash = name.withUTF8 { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash &* 0x9E37_79B9_7F4A_7C15
        }
        return Int(truncatingIfNeeded: hash >> 32) & (slots.count - 1)
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

/// The two words a `String` is made of on 64-bit platforms: equal words are equal strings (its
/// bytes, when short, else its count and the address of its storage).
private struct Representation: Equatable {
    var first: UInt64, second: UInt64

    /// No string: what 32-bit platforms get, where a string is not two words.
    static let none = Representation(first: 0, second: 0)

    init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    init(_ string: String) {
        #if _pointerBitWidth(_64)
        (first, second) = unsafeBitCast(string, to: (UInt64, UInt64).self)
        #else
        self = .none
        #endif
    }

    var isSome: Bool { self != .none }

    var slot: Int { Int(truncatingIfNeeded: ((first ^ second &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 40) }
}

/// A view as a query keeps it until its session ends: the seq it began at, and its scene's number.
protocol BegunView {
    var seq: Int { get }
    var scene: Int32 { get }
}
