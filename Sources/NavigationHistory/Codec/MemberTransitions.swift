/// What came, on a line before, between the end of each member's value and the start of the next
/// member's value — `,"session":`, or `, "session": ` from a writer that spaces its lines — so
/// that the general decoder, on a line of the same writer, matches those bytes as two words and
/// knows the next member without scanning its key, looking its name up, or skipping whitespace
/// byte by byte. A writer keeps its members in one order, so the member after each is mostly the
/// one after it on the line before (`NavlogBench read --other-layout`).
///
/// Only bytes a scan of a line accepted are kept: a comma (or the object's `{`), whitespace, a key
/// without escapes naming a known member, whitespace, a colon, whitespace. Where the bytes at a
/// boundary are exactly those, the scan reads them the same way, so taking them as read changes
/// nothing but the time. A struct of a pointer, as ``DecodingCache``, which holds one.
struct MemberTransitions {
    /// The boundaries: after each member's value, by its raw value, and the object's start.
    static let slots = EventMember.allCases.count + 1
    static let objectStart = EventMember.allCases.count
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

    private let table: UnsafeMutablePointer<Transition>

    init() {
        table = .allocate(capacity: Self.slots)
        table.initialize(repeating: Transition(), count: Self.slots)
    }

    func deallocate() { table.deallocate() }

    /// The member whose key the bytes at `p` hold, the boundary's length and where its key begins,
    /// when they are the boundary kept for `slot`; `readable` bytes at `p` may be read.
    @inline(__always)
    func next(after slot: Int, at p: UnsafePointer<UInt8>, readable: Int) -> (member: EventMember, length: Int, keyOffset: Int)? {
        let t = table + slot
        guard readable >= Self.maximumLength, t.pointee.length > 0 else { return nil }
        let raw = UnsafeRawPointer(p)
        guard UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & t.pointee.firstMask == t.pointee.first,
              UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & t.pointee.secondMask == t.pointee.second
        else { return nil }
        return (t.pointee.member, t.pointee.length, t.pointee.keyOffset)
    }

    /// Keeps the `length` bytes at `p` as the boundary after `slot`, before `member`'s value;
    /// `readable` bytes at `p` may be read.
    @inline(__always)
    func keep(after slot: Int, _ p: UnsafePointer<UInt8>, length: Int, keyOffset: Int, member: EventMember, readable: Int) {
        guard length <= Self.maximumLength, readable >= Self.maximumLength else { return }
        let raw = UnsafeRawPointer(p)
        let firstMask: UInt64 = length >= 8 ? .max : (1 << UInt64(length * 8)) &- 1
        let secondMask: UInt64 = length >= 16 ? .max : length <= 8 ? 0 : (1 << UInt64((length - 8) * 8)) &- 1
        table[slot] = Transition(first: UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & firstMask,
                                 second: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & secondMask,
                                 firstMask: firstMask, secondMask: secondMask, length: length, keyOffset: keyOffset, member: member)
    }
}
