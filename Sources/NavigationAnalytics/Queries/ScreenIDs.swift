/// Numbers screen names 0, 1, 2, … in the order they are first seen, so that what a query keeps
/// per view is a small integer, cheap to store, compare and hash.
///
/// Names are found in an open-addressing table by a multiplicative hash of their UTF-8 bytes:
/// a query looks up a name for every view, and a `[String: Int32]` hashed each with SipHash,
/// 4% of `paths`' instructions.
struct ScreenIDs {
    /// The names, by id.
    private(set) var names: [String] = []
    /// Each slot holds an id, or -1; a power of two of them, at most half full.
    private var slots = [Int32](repeating: -1, count: 64)

    /// The id of `name`, numbering it when it is new.
    mutating func id(_ name: String) -> Int32 {
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
