/// Tests on the eight bytes of a word at once, as the fast decoder reads its lines. Each answers
/// with the high bit of every byte it holds for set; words are loaded little-endian, so the lowest
/// byte is the first, and ``firstFlagged(_:)`` gives its offset.
enum ByteLanes {
    static let highBits: UInt64 = 0x8080_8080_8080_8080
    static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The bytes equal to zero. Bytes above the lowest flagged one may be flagged falsely (a borrow
    /// runs upward), the lowest one never: only it may be read.
    @inline(__always) static func zeroes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highBits }

    /// The bytes equal to `byte`, with ``zeroes(_:)``'s caveat.
    @inline(__always) static func equal(to byte: UInt64, _ word: UInt64) -> UInt64 { zeroes(word ^ (ones &* byte)) }

    /// The bytes below `bound` (at most 0x80), with ``zeroes(_:)``'s caveat.
    @inline(__always) static func below(_ bound: UInt64, _ word: UInt64) -> UInt64 { (word &- ones &* bound) & ~word & highBits }

    /// The bytes at least `bound`, exactly, among bytes below 0x80: with each byte's high bit set,
    /// subtracting borrows from no other byte.
    @inline(__always) static func atLeast(_ bound: UInt64, _ word: UInt64) -> UInt64 { ((word | highBits) &- ones &* bound) & highBits }

    /// The offset of the first flagged byte; 8 when none is.
    @inline(__always) static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount / 8 }
}
