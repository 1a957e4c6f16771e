/// Reuses what a log repeats on every line instead of making it anew:
/// - the strings of the few values it repeats — sessions, scenes, stacks, screens — in a small
///   table keyed by their bytes. Making a `String` checks its bytes again and costs about as much
///   as the rest of a member; finding it here, a few loads and compares;
/// - the day of its timestamps, which changes once a day: the date is read only when it does.
///
/// For one decoding thread at a time. A struct of pointers rather than a class, so that looking a
/// string up retains nothing; like a pointer, its copies share the table, and whoever made it
/// deallocates it, once.
package struct DecodingCache {
    /// Strings longer than this are made anew each time (on 64-bit platforms, a string of up to 15
    /// bytes is stored inline, so the cache also saves no allocation for longer ones).
    static let maximumLength = 15
    private static let slots = 256
    /// Each slot's bytes, zero-padded, with the length in the top byte of the second word.
    private let keys: UnsafeMutablePointer<(UInt64, UInt64)>
    private let strings: UnsafeMutablePointer<String>
    /// The first ten bytes of the last timestamp parsed (its date), and the time of its midnight.
    private let day: UnsafeMutablePointer<(date: UInt64, dayOfMonth: UInt16, midnight: Int64)>

    package init() {
        keys = .allocate(capacity: Self.slots)
        // A length byte of 0xFF matches no key.
        keys.initialize(repeating: (0, .max), count: Self.slots)
        strings = .allocate(capacity: Self.slots)
        strings.initialize(repeating: "", count: Self.slots)
        day = .allocate(capacity: 1)
        // The epoch's date and midnight: a true entry, as any bytes may come.
        let epoch = Array("1970-01-01".utf8)
        day.initialize(to: epoch.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt16.self), 0) })
    }

    package func deallocate() {
        keys.deallocate()
        strings.deinitialize(count: Self.slots)
        strings.deallocate()
        day.deallocate()
    }

    /// The timestamp in the 24 bytes of `bytes`, as ``Timestamp/parse(_:)`` reads it; its date is
    /// read only when it differs from the last one's.
    @inline(__always)
    func timestamp(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        let date = bytes.loadUnaligned(as: UInt64.self), dayOfMonth = bytes.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        guard day.pointee.date == date, day.pointee.dayOfMonth == dayOfMonth else {
            guard let time = Timestamp.parse(bytes), let sinceMidnight = Timestamp.millisecondsOfDay(bytes) else { return nil }
            day.pointee = (date, dayOfMonth, time.millisecondsSince1970 - sinceMidnight)
            return time
        }
        return Timestamp.millisecondsOfDay(bytes).map { Timestamp(millisecondsSince1970: day.pointee.midnight + $0) }
    }

    /// The string of the `count` bytes at `p`, of which `readable` bytes may be read: the key is
    /// read as two whole words when at least 16 are.
    @inline(__always)
    func string(_ p: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> String {
        guard count <= Self.maximumLength, readable >= 16 else {
            return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        }
        @inline(__always) func mask(_ bytes: Int) -> UInt64 { bytes >= 8 ? .max : (1 << UInt64(bytes * 8)) &- 1 }
        let raw = UnsafeRawPointer(p)
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & mask(count)
        let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & mask(max(count - 8, 0)) | UInt64(count) << 56
        let slot = Int(truncatingIfNeeded: ((first ^ second &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 56)
        if keys[slot] == (first, second) { return strings[slot] }
        let made = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        keys[slot] = (first, second)
        strings[slot] = made
        return made
    }
}
