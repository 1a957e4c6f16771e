/// Whether the `count` bytes at `a` and `b` are equal: compared a word at a time, the last word
/// (or half, or quarter) overlapping the one before rather than byte by byte, and nothing read
/// past either. The fast decoder matches every member's key this way.
@inline(__always) func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    @inline(__always) func equal<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> Bool {
        UnsafeRawPointer(a + offset).loadUnaligned(as: T.self) == UnsafeRawPointer(b + offset).loadUnaligned(as: T.self)
    }
    if count >= 8 {
        var offset = 0
        while offset < count - 8 {
            guard equal(UInt64.self, at: offset) else { return false }
            offset += 8
        }
        return equal(UInt64.self, at: count - 8)
    }
    if count >= 4 { return equal(UInt32.self, at: 0) && equal(UInt32.self, at: count - 4) }
    if count >= 2 { return equal(UInt16.self, at: 0) && equal(UInt16.self, at: count - 2) }
    return count == 0 || a[0] == b[0]
}
