/// Reuses what a log repeats on every line instead of making it anew:
/// - the strings of the few values it repeats — sessions, scenes, stacks, screens — in a small
///   table keyed by their bytes. Making a `String` checks its bytes again and costs about as much
///   as the rest of a member; finding it here, a few loads and compares;
/// - the string each of a few members held on the line before: most lines repeat the session and
///   scene of the line before, and often its stack, so the bytes are first compared with those;
/// - the minute and the day of its timestamps: of the time, only the seconds and milliseconds are
///   read while the minute stays the same, and the date only when the day changes;
/// - its small maps of strings (route params, a session's meta), found by their bytes: making a
///   dictionary hashes every key.
///
/// For one decoding thread at a time. A struct of pointers rather than a class, so that looking a
/// string up retains nothing; like a pointer, its copies share the table, and whoever made it
/// deallocates it, once.
package struct DecodingCache {
    /// Strings longer than this are made anew each time (on 64-bit platforms, a string of up to 15
    /// bytes is stored inline, so the cache also saves no allocation for longer ones).
    static let maximumLength = 15
    private static let slotBits = 10, slots = 1 << slotBits
    /// Each slot's bytes, zero-padded, with the length in the top byte of the second word.
    private let keys: UnsafeMutablePointer<(UInt64, UInt64)>
    private let strings: UnsafeMutablePointer<String>
    /// Maps of strings no longer than this many bytes are kept.
    static let maximumMapLength = 48
    private static let mapSlots = 64, wordsPerMap = (maximumMapLength + 7) / 8
    /// Each kept map's bytes, zero-padded words, its length (-1 for none), and the map.
    private let mapWords: UnsafeMutablePointer<UInt64>
    private let mapLengths: UnsafeMutablePointer<Int>
    private let maps: UnsafeMutablePointer<[String: String]>
    /// The first ten bytes of the last timestamp parsed (its date), and the time of its midnight.
    private let day: UnsafeMutablePointer<(date: UInt64, dayOfMonth: UInt16, midnight: Int64)>
    /// The first sixteen bytes of the last timestamp parsed (its date, hour and minute), and the
    /// time the minute begins.
    private let minute: UnsafeMutablePointer<(first: UInt64, second: UInt64, start: Int64)>
    /// The string each ``Member`` held last, with its closing quote's bytes, as two words and the
    /// masks of the bytes they hold.
    private let recent: UnsafeMutablePointer<Recent>
    /// The bytes between members' values on the lines before, for the general decoder.
    let transitions = MemberTransitions()
    /// The general decoder's spans of a line (``LineFields/Spans``), kept here so that a line
    /// decoded with a cache needs no scratch of its own.
    let spans = UnsafeMutablePointer<UInt64>.allocate(capacity: LineFields.Spans.count)

    /// The members whose last string is kept.
    package enum Member: Int, CaseIterable {
        case session, scene, stack
    }

    private struct Recent {
        var first: UInt64, second: UInt64
        var firstMask: UInt64, secondMask: UInt64
        /// The string's length, without its quote; -1 for none.
        var count: Int
        var string: String

        /// No string: its masks match any bytes, and its count says no.
        static var none: Recent { Recent(first: 0, second: 0, firstMask: 0, secondMask: 0, count: -1, string: "") }
    }

    package init() {
        keys = .allocate(capacity: Self.slots)
        // A length byte of 0xFF matches no key.
        keys.initialize(repeating: (0, .max), count: Self.slots)
        strings = .allocate(capacity: Self.slots)
        strings.initialize(repeating: "", count: Self.slots)
        mapWords = .allocate(capacity: Self.mapSlots * Self.wordsPerMap)
        mapWords.initialize(repeating: 0, count: Self.mapSlots * Self.wordsPerMap)
        mapLengths = .allocate(capacity: Self.mapSlots)
        mapLengths.initialize(repeating: -1, count: Self.mapSlots)
        maps = .allocate(capacity: Self.mapSlots)
        maps.initialize(repeating: [:], count: Self.mapSlots)
        recent = .allocate(capacity: Member.allCases.count)
        recent.initialize(repeating: .none, count: Member.allCases.count)
        day = .allocate(capacity: 1)
        // The epoch's date and midnight: a true entry, as any bytes may come.
        let epoch = Array("1970-01-01".utf8)
        day.initialize(to: epoch.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt16.self), 0) })
        minute = .allocate(capacity: 1)
        let epochMinute = Array("1970-01-01T00:00".utf8)
        minute.initialize(to: epochMinute.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self), 0) })
    }

    package func deallocate() {
        keys.deallocate()
        strings.deinitialize(count: Self.slots)
        strings.deallocate()
        mapWords.deallocate()
        mapLengths.deallocate()
        maps.deinitialize(count: Self.mapSlots)
        maps.deallocate()
        day.deallocate()
        minute.deallocate()
        recent.deinitialize(count: Member.allCases.count)
        recent.deallocate()
        transitions.deallocate()
        spans.deallocate()
    }

    /// The string `member` held last, and its length, when the bytes at `p` are it and its closing
    /// quote; at least 16 bytes at `p` may be read.
    @inline(__always)
    func recentString(of member: Member, at p: UnsafePointer<UInt8>) -> (string: String, count: Int, ascii: Bool)? {
        let last = recent + member.rawValue
        let raw = UnsafeRawPointer(p)
        guard UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & last.pointee.firstMask == last.pointee.first,
              UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & last.pointee.secondMask == last.pointee.second,
              last.pointee.count >= 0 else { return nil }
        return (last.pointee.string, last.pointee.count, (last.pointee.first | last.pointee.second) & ByteLanes.highBits == 0)
    }

    /// Keeps `string`, made of the `count` bytes at `p` (a string's, without escapes) and followed
    /// by its closing quote, as the one `member` held last, when it is short enough for
    /// ``recentString(of:at:)`` to find; at least 16 bytes at `p` may be read.
    @inline(__always)
    func keep(_ string: String, of member: Member, madeOf p: UnsafePointer<UInt8>, _ count: Int) {
        let last = recent + member.rawValue
        guard count < 16 else { return last.pointee = .none }
        // With its closing quote, which `p` is followed by: bytes that match are the whole string.
        let raw = UnsafeRawPointer(p)
        let firstMask = Self.mask(count + 1), secondMask = Self.mask(max(count + 1 - 8, 0))
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & firstMask
        let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & secondMask
        last.pointee = Recent(first: first, second: second, firstMask: firstMask, secondMask: secondMask, count: count, string: string)
    }

    /// The map made before of the `count` bytes at `p`, a JSON object of strings, if it is kept.
    /// At least 7 bytes after them may be read.
    @inline(__always)
    func map(_ p: UnsafePointer<UInt8>, _ count: Int) -> [String: String]? {
        let slot = Self.mapSlot(p, count)
        guard mapLengths[slot] == count else { return nil }
        let words = mapWords + slot * Self.wordsPerMap
        for k in 0..<(count + 7) / 8 where words[k] != Self.word(k, of: p, count) { return nil }
        return maps[slot]
    }

    /// Keeps `map`, made of the `count` bytes at `p` (at most ``maximumMapLength``), for
    /// ``map(_:_:)`` to find; at least 7 bytes after them may be read.
    func keep(_ map: [String: String], madeOf p: UnsafePointer<UInt8>, _ count: Int) {
        let slot = Self.mapSlot(p, count)
        let words = mapWords + slot * Self.wordsPerMap
        for k in 0..<(count + 7) / 8 { words[k] = Self.word(k, of: p, count) }
        mapLengths[slot] = count
        maps[slot] = map
    }

    /// The mask of a word's first `bytes` bytes (0 to 8 and more).
    @inline(__always) private static func mask(_ bytes: Int) -> UInt64 { bytes >= 8 ? .max : (1 &<< UInt64(bytes * 8)) &- 1 }

    /// Word `k` of the `count` bytes at `p`, its bytes past them zero.
    @inline(__always) private static func word(_ k: Int, of p: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
        let left = count - 8 * k
        return left >= 8 ? word : word & ((1 &<< UInt64(left * 8)) &- 1)
    }

    /// A slot for the `count` bytes at `p`, by their first and last words and their length.
    @inline(__always) private static func mapSlot(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let first = word(0, of: p, count), last = word((count - 1) / 8, of: p, count)
        return Int(truncatingIfNeeded: ((first ^ last &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9) >> 58)
    }

    /// The timestamp in the 24 bytes of `bytes`, as ``Timestamp/parse(_:)`` reads it: only its
    /// seconds and milliseconds when its minute is the last one's, and its date only when that
    /// differs from the last one's.
    @inline(__always)
    func timestamp(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        let first = bytes.loadUnaligned(as: UInt64.self), second = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        if minute.pointee.first == first, minute.pointee.second == second {
            return Timestamp.millisecondsOfMinute(bytes).map { Timestamp(millisecondsSince1970: minute.pointee.start + $0) }
        }
        guard let sinceMidnight = Timestamp.millisecondsOfDay(bytes) else { return nil }
        let dayOfMonth = bytes.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        if day.pointee.date != first || day.pointee.dayOfMonth != dayOfMonth {
            guard let time = Timestamp.parse(bytes) else { return nil }
            day.pointee = (first, dayOfMonth, time.millisecondsSince1970 - sinceMidnight)
        }
        let time = day.pointee.midnight + sinceMidnight
        minute.pointee = (first, second, time - sinceMidnight % 60_000)
        return Timestamp(millisecondsSince1970: time)
    }

    /// The string of the `count` bytes at `p`, of which `readable` bytes may be read: the key is
    /// read as two whole words when at least 16 are.
    @inline(__always)
    func string(_ p: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> String {
        guard count <= Self.maximumLength, readable >= 16 else {
            return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        }
        let raw = UnsafeRawPointer(p)
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & Self.mask(count)
        let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & Self.mask(max(count - 8, 0)) | UInt64(count) << 56
        let slot = Int(truncatingIfNeeded: ((first ^ second &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> (64 - Self.slotBits))
        if keys[slot] == (first, second) { return strings[slot] }
        let made = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        keys[slot] = (first, second)
        strings[slot] = made
        return made
    }
}
