/// What came, on a line before, between the end of each member's value and the start of the next
/// member's value — `,"session":`, or `, "session": ` from a writer that spaces its lines — so
/// that the general decoder, on a line of the same writer, matches those bytes as two words and
/// knows the next member without scanning its key, looking its name up, or skipping whitespace
/// byte by byte. A writer keeps its members in one order for each type of event, so the member
/// after each is one of the few that followed it on lines before: each boundary keeps the last
/// ``ways`` different ones, and the last boundary of a line is matched too, however near its end
/// (callgrind, `navlog verify --threads 1` on `NavlogBench read --other-layout`'s log: one way and
/// no match within 16 bytes of the end missed 1.9 boundaries a line; now 0.4, for 4% fewer
/// instructions; eight ways miss 0.2 and gain nothing more).
///
/// Only bytes a scan of a line accepted are kept: a comma (or the object's `{`), whitespace, a key
/// without escapes naming a known member, whitespace, a colon, whitespace. Where the bytes at a
/// boundary are exactly those, the scan reads them the same way, so taking them as read changes
/// nothing but the time. A struct of a pointer, as ``DecodingCache``, which holds one.
struct MemberTransitions {
    /// The boundaries: after each member's value, by its raw value, then the object's start, in
    /// one of ``startSlots`` (``startSlot(at:readable:)``).
    static let objectStart = EventMember.allCases.count
    /// A writer's first member is another for each type of event: a dozen ways at the start, whose
    /// misses cost a fifth of the scan's instructions with four (callgrind, "read: other layout 1
    /// core"). Told apart by the first letters of their key, each kind of line finds its own.
    static let startSlots = 16
    static let slots = objectStart + startSlots
    /// The transitions kept at each boundary, replaced in turn.
    static let ways = 4
    /// The longest boundary kept: two words.
    static let maximumLength = 16

    struct Transition {
        var first: UInt64 = 0, second: UInt64 = 0, firstMask: UInt64 = 0, secondMask: UInt64 = 0
        /// The boundary's length in bytes; 0 for none kept.
        var length = 0
        /// Where in it the key's opening quote is.
        var keyOffset = 0
        var member = EventMember.v
    }

    /// `ways` transitions per slot, then each slot's next way to replace.
    private let table: UnsafeMutablePointer<Transition>
    private let replaced: UnsafeMutablePointer<Int>

    init() {
        table = .allocate(capacity: Self.slots * Self.ways)
        table.initialize(repeating: Transition(), count: Self.slots * Self.ways)
        replaced = .allocate(capacity: Self.slots)
        replaced.initialize(repeating: 0, count: Self.slots)
    }

    func deallocate() {
        table.deallocate()
        replaced.deallocate()
    }

    /// The slot of the boundary at an object's start, its `{` at `p`, by the four bytes after the
    /// brace (`"rou` of `{"route":`); `readable` bytes at `p` may be read. Slots from
    /// ``objectStart`` on are the start's.
    @inline(__always)
    static func startSlot(at p: UnsafePointer<UInt8>, readable: Int) -> Int {
        guard readable >= 8 else { return objectStart }
        let after = UInt32(truncatingIfNeeded: UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) >> 8)
        return objectStart + Int((after &* 0x9E37_79B1) >> 28)
    }

    /// The member whose key the bytes at `p` hold, the boundary's length and where its key begins,
    /// when they are one of the boundaries kept for `slot`; `readable` bytes at `p` may be read.
    @inline(__always)
    func next(after slot: Int, at p: UnsafePointer<UInt8>, readable: Int) -> (member: EventMember, length: Int, keyOffset: Int)? {
        let (first, second) = Self.words(at: p, readable: readable)
        var t = table + slot * Self.ways
        // Ways are filled in order: the first empty one ends the search.
        for _ in 0..<Self.ways {
            guard t.pointee.length > 0 else { return nil }
            // A boundary longer than the bytes left cannot be there, whatever the words hold
            // past them.
            if first & t.pointee.firstMask == t.pointee.first, second & t.pointee.secondMask == t.pointee.second,
               t.pointee.length <= readable {
                return (t.pointee.member, t.pointee.length, t.pointee.keyOffset)
            }
            t += 1
        }
        return nil
    }

    /// Keeps the `length` bytes at `p` as a boundary after `slot`, before `member`'s value, in
    /// place of the slot's oldest; `readable` bytes at `p` may be read.
    @inline(__always)
    func keep(after slot: Int, _ p: UnsafePointer<UInt8>, length: Int, keyOffset: Int, member: EventMember, readable: Int) {
        guard length <= Self.maximumLength, length <= readable else { return }
        let (first, second) = Self.words(at: p, readable: readable)
        let firstMask: UInt64 = length >= 8 ? .max : (1 << UInt64(length * 8)) &- 1
        let secondMask: UInt64 = length >= 16 ? .max : length <= 8 ? 0 : (1 << UInt64((length - 8) * 8)) &- 1
        let way = replaced[slot]
        replaced[slot] = (way + 1) % Self.ways
        table[slot * Self.ways + way] = Transition(first: first & firstMask, second: second & secondMask,
                                                   firstMask: firstMask, secondMask: secondMask, length: length, keyOffset: keyOffset, member: member)
    }

    /// The two words at `p`, little-endian; past `readable` bytes (near a line's end: the last
    /// member's boundary, `,"v":` in a line that ends with it) zero bytes instead.
    @inline(__always)
    private static func words(at p: UnsafePointer<UInt8>, readable: Int) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(p)
        guard readable < maximumLength else {
            return (UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)), UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: raw, byteCount: max(0, readable)) }
        return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
    }
}
