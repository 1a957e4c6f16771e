/// The fast path of ``LineDecoder``: decodes a line only when it is exactly in the compact form
/// ``LineEncoder`` writes — its members in its order, no whitespace, no escapes, a `crc` that
/// matches — and gives up (nil) at the first byte that differs, leaving the line to the general
/// decoder, which reads any layout and says what is wrong.
///
/// Whatever event it returns, the general decoder returns the same one for the same line: a
/// property test holds it to that. It only skips the work that lines of other layouts need: member
/// lookup, whitespace, duplicate and shape checks. `snapshot` and `restore` lines, rare and large,
/// are left to the general decoder.
enum CanonicalLineDecoder {
    /// The event in `line`, or nil when the line is not in the encoder's exact form. Its short
    /// strings come from `cache` when it holds them.
    static func decode(_ line: UnsafeRawBufferPointer, cache: DecodingCache? = nil) -> NavigationEvent? {
        guard line.count <= LineDecoder.maximumLineLength, let (stored, end) = LineDecoder.trailingChecksum(line) else { return nil }
        var cursor = CanonicalCursor(line, end: end, cache: cache)
        // The checksum last: a line left to the general decoder (a snapshot, a string with escapes)
        // is then summed once, there.
        guard let event = cursor.event(), cursor.index == end,
              CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<end])) == stored else { return nil }
        // Outside strings every byte was matched against ASCII; inside them, bytes above 0x7F were
        // let through and need the strict check the general decoder makes.
        guard cursor.asciiOnly || UTF8Validation.firstInvalidOffset(line) == nil else { return nil }
        return event
    }
}

extension CanonicalLineDecoder {
    /// The seq, the time and the type a line in the encoder's form begins with, read without
    /// decoding or checking the rest: for finding where a reading may begin, which then decodes
    /// and checks the line. The time is the `ts` string's bytes, at `timestamp` in the line: read
    /// only by the one who needs it. Nil when the line does not begin in that form.
    static func leadingMembers(_ line: UnsafeRawBufferPointer) -> (seq: Int, timestamp: Range<Int>, type: EventType)? {
        guard !line.isEmpty else { return nil }
        var cursor = CanonicalCursor(line, end: line.count, cache: nil)
        guard cursor.literal("{\"v\":1,\"seq\":"), let seq = cursor.positiveInteger(),
              cursor.literal(",\"ts\":\""), let timestamp = cursor.stringBytes(),
              cursor.literal(",\"session\":\""), cursor.stringBytes() != nil,
              cursor.literal(",\"type\":\""), let type = cursor.knownType() else { return nil }
        let start = UnsafeRawPointer(timestamp.baseAddress!) - line.baseAddress!
        return (seq, start..<(start + timestamp.count), type)
    }
}

/// Reads the members of a line in the encoder's order, up to (not including) its `,"crc"`.
///
/// Each member's position depends on where the one before ended, so a line is read as one chain
/// of dependent steps. Across a call the cursor's `index` is stored and loaded again, which
/// lengthens that chain: the readers of the members every line has (`seq`, `ts`, `type`, the
/// repeated strings, a route) are inlined, their rare cases kept apart (`NavlogBench read`: 6.7%
/// less time on 1 core, 10% on 2, with 8% fewer instructions).
private struct CanonicalCursor: EventMemberReader {
    let base: UnsafePointer<UInt8>
    /// Where the line's `,"crc":"xxxxxxxx"}` begins.
    let end: Int
    let lineLength: Int
    let cache: DecodingCache?
    var index = 0
    /// Whether every string byte so far was ASCII.
    var asciiOnly = true

    init(_ line: UnsafeRawBufferPointer, end: Int, cache: DecodingCache?) {
        base = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        self.end = end
        lineLength = line.count
        self.cache = cache
    }

    mutating func event() -> NavigationEvent? {
        guard literal("{\"v\":1,\"seq\":"), let seq = positiveInteger(),
              literal(",\"ts\":\""), let timestamp = timestamp(),
              literal(",\"session\":\""), let session = nonEmptyString(.session),
              literal(",\"type\":\""), let type = knownType(),
              let action = action(type) else { return nil }
        return NavigationEvent(seq: seq, timestamp: timestamp, session: session, action: action)
    }

    /// The type's own members, in the order its descriptor gives them, which is the encoder's.
    /// A `state` member (of the rare, large `snapshot` and `restore` lines) is left to the general
    /// decoder.
    mutating func action(_ type: EventType) -> NavigationAction? { NavigationAction(type, reading: &self) }

    // MARK: Members

    /// `{"screen":…[,"id":…][,"params":{…}]}`.
    @inline(__always) mutating func route() -> Route? {
        guard literal("{\"screen\":\""), let screen = nonEmptyString() else { return nil }
        guard let id = optional(",\"id\":\"", { $0.string() }), let params = optional(",\"params\":", { $0.stringMap() }),
              literal("}") else { return nil }
        return Route(screen: screen, id: id, params: params)
    }

    mutating func routes() -> [Route]? {
        guard literal("[") else { return nil }
        if literal("]") { return [] }
        // Room for a few: grown one route at a time, nearly every path was allocated twice.
        var routes = [Route]()
        routes.reserveCapacity(4)
        repeat {
            guard let route = route() else { return nil }
            routes.append(route)
        } while literal(",")
        return literal("]") ? routes : nil
    }

    /// An object of strings; one with a repeated key is left to the general decoder, which refuses it.
    ///
    /// A log repeats a few such objects: with a cache, the object's extent is found first, and a
    /// map made before of the same bytes is taken as it is.
    mutating func stringMap() -> [String: String]? {
        let start = index
        guard let cache, skipStringMap(), index - start <= DecodingCache.maximumMapLength else {
            index = start
            return makeStringMap()
        }
        if let map = cache.map(base + start, index - start) { return map }
        let end = index
        index = start
        guard let map = makeStringMap() else { return nil }
        cache.keep(map, madeOf: base + start, end - start)
        return map
    }

    /// Moves past an object of strings; false when it is not one.
    mutating func skipStringMap() -> Bool {
        guard literal("{") else { return false }
        if literal("}") { return true }
        repeat {
            guard literal("\""), stringBytes() != nil, literal(":\""), stringBytes() != nil else { return false }
        } while literal(",")
        return literal("}")
    }

    mutating func makeStringMap() -> [String: String]? {
        guard literal("{") else { return nil }
        var map = [String: String]()
        if literal("}") { return map }
        repeat {
            guard literal("\""), let key = string(), literal(":\""), let value = string(),
                  map.updateValue(value, forKey: key) == nil else { return nil }
        } while literal(",")
        return literal("}") ? map : nil
    }

    // MARK: Reading members for NavigationAction(_:reading:)

    /// Consumes `member`'s key (``EventMember/key``) when it comes next.
    @inline(__always) mutating func key(_ member: EventMember) -> Bool { literal(member.key) }

    @inline(__always) mutating func string(_ member: EventMember) -> String? {
        guard key(member), literal("\"") else { return nil }
        switch member {
        case .scene: return nonEmptyString(.scene)
        case .stack: return nonEmptyString(.stack)
        default: return member.shape == .identifier ? nonEmptyString() : string()
        }
    }

    @inline(__always) mutating func optionalString(_ member: EventMember) -> String?? {
        guard peekKey(member) else { return .some(nil) }
        return string(member).map { .some($0) }
    }

    @inline(__always) mutating func enumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E? {
        guard key(member), literal("\""), let bytes = stringBytes() else { return nil }
        return E.names.value(named: bytes.baseAddress!, bytes.count)
    }

    @inline(__always) mutating func optionalEnumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E?? {
        guard peekKey(member) else { return .some(nil) }
        return enumeration(member, type).map { .some($0) }
    }

    @inline(__always) mutating func integer(_ member: EventMember) -> Int? { key(member) ? positiveInteger() : nil }

    @inline(__always) mutating func optionalInteger(_ member: EventMember) -> Int?? {
        guard peekKey(member) else { return .some(nil) }
        return integer(member).map { .some($0) }
    }

    @inline(__always) mutating func optionalStringMap(_ member: EventMember) -> [String: String]?? {
        guard key(member) else { return .some(nil) }
        return stringMap().map { .some($0) }
    }

    @inline(__always) mutating func route(_ member: EventMember) -> Route? { key(member) ? route() : nil }

    @inline(__always) mutating func nullableRoute(_ member: EventMember) -> Route?? {
        guard key(member) else { return nil }
        if literal("null") { return .some(nil) }
        return route().map { .some($0) }
    }

    @inline(__always) mutating func routes(_ member: EventMember) -> [Route]? { key(member) ? routes() : nil }

    @inline(__always) mutating func optionalRoutes(_ member: EventMember) -> [Route]?? {
        guard key(member) else { return .some(nil) }
        return routes().map { .some($0) }
    }

    /// Never: `snapshot` and `restore` lines are left to the general decoder.
    mutating func state(_ member: EventMember) -> NavigationState? { nil }

    /// Whether `member`'s key comes next, without consuming it.
    @inline(__always) mutating func peekKey(_ member: EventMember) -> Bool {
        let start = index
        defer { index = start }
        return key(member)
    }

    // MARK: Values

    /// Consumes `text` when the bytes at the cursor are exactly it.
    @inline(__always) mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard end - index >= count, memcmpEqual(base + index, text.utf8Start, count) else { return false }
        index += count
        return true
    }

    /// The rest of a string whose opening quote was matched, through its closing quote; nil at an
    /// escape or a control character.
    @inline(__always) mutating func string() -> String? {
        guard let bytes = stringBytes() else { return nil }
        if let cache { return cache.string(bytes.baseAddress!, bytes.count, readable: lineLength - (bytes.baseAddress! - base)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always) mutating func nonEmptyString() -> String? {
        guard let text = string(), !text.isEmpty else { return nil }
        return text
    }

    /// ``nonEmptyString()`` for a member whose value mostly repeats the line before's: compared
    /// with that first, without looking for the closing quote and hashing the bytes.
    @inline(__always) mutating func nonEmptyString(_ member: DecodingCache.Member) -> String? {
        if let cache, lineLength - index >= 16, let (text, count, ascii) = cache.recentString(of: member, at: base + index),
           index + count < end {
            if !ascii { asciiOnly = false }
            index += count + 1
            return text
        }
        return newNonEmptyString(member)
    }

    /// ``nonEmptyString(_:)`` when the string is not the one `member` held last: kept apart, so
    /// that the common case is small enough to be inlined where it is read.
    @inline(never) mutating func newNonEmptyString(_ member: DecodingCache.Member) -> String? {
        guard let cache, lineLength - index >= 16 else { return nonEmptyString() }
        let start = index
        guard let text = nonEmptyString() else { return nil }
        cache.keep(text, of: member, madeOf: base + start, index - 1 - start)
        return text
    }

    /// A member that may be absent, its value read by `read` after `key`: `.some(.none)` when it
    /// is absent, nil when it is there but unreadable.
    @inline(__always)
    mutating func optional<T>(_ key: StaticString, _ read: (inout CanonicalCursor) -> T?) -> T?? {
        guard literal(key) else { return .some(nil) }
        return read(&self).map { .some($0) }
    }

    @inline(__always) mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
        let start = index
        // Eight bytes at a time while eight can be read within the line, looking for the first
        // quote, backslash or control character among them: every member's value is a string.
        while lineLength - index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let stops = ByteLanes.equal(to: 0x22, word) | ByteLanes.equal(to: 0x5C, word) | ByteLanes.below(0x20, word)
            guard stops != 0 else {
                if word & ByteLanes.highBits != 0 { asciiOnly = false }
                index += 8
                continue
            }
            let offset = ByteLanes.firstFlagged(stops)
            if word & ByteLanes.highBits & ((1 << UInt64(offset * 8)) &- 1) != 0 { asciiOnly = false }
            index += offset
            guard index < end, base[index] == 0x22 else { return nil }
            index += 1
            return UnsafeBufferPointer(start: base + start, count: index - 1 - start)
        }
        while index < end {
            let byte = base[index]
            if byte == 0x22 {
                index += 1
                return UnsafeBufferPointer(start: base + start, count: index - 1 - start)
            }
            if byte == 0x5C || byte < 0x20 { return nil }
            if byte >= 0x80 { asciiOnly = false }
            index += 1
        }
        return nil
    }

    @inline(__always) mutating func knownType() -> EventType? {
        // The commonest types (two lines in three), with their closing quote, compared as words
        // before the string is scanned for its quote and matched by its length and bytes.
        if end - index >= 16 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if word & 0xFF_FFFF_FFFF == 0x22_6873_7570 { index += 5; return .push }   // push"
            if word & 0xFFFF_FFFF == 0x2270_6F70 { index += 4; return .pop }           // pop"
            if word == 0x656C_6573_2E62_6174,                                             // tab.sele
               UInt64(littleEndian: UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)) & 0xFF_FFFF == 0x22_7463 {   // ct"
                index += 11
                return .tabSelect
            }
        }
        return otherType()
    }

    /// ``knownType()`` for the other types: kept apart, so that the common case is small enough to
    /// be inlined where it is read.
    @inline(never) mutating func otherType() -> EventType? {
        guard let bytes = stringBytes() else { return nil }
        return EventType.named(bytes.baseAddress!, bytes.count)
    }

    /// A JSON integer from 1 to 2^53 − 1 (no sign, no leading zero, no fraction or exponent).
    @inline(__always) mutating func positiveInteger() -> Int? {
        guard index < end, base[index] &- 0x31 < 9 else { return nil }
        // Up to seven digits (nearly every seq) read as one word when eight bytes can be.
        if lineLength - index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let digits = Self.leadingDigits(word)
            if digits < 8 {
                index += digits
                return Self.value(ofDigits: digits, in: word)
            }
        }
        let start = index
        var value = 0
        while index < end, index - start < 16 {
            let digit = base[index] &- 0x30
            guard digit < 10 else { break }
            value = value * 10 + Int(digit)
            index += 1
        }
        // A fraction or exponent after the digits fails the literal or end the caller expects next.
        guard value <= LineDecoder.maximumSeq, index == end || base[index] &- 0x30 >= 10 else { return nil }
        return value
    }

    /// How many of `word`'s bytes, from its first, are ASCII digits (8 when all are).
    @inline(__always) static func leadingDigits(_ word: UInt64) -> Int {
        // A byte above 0x7F is not a digit either.
        let digits = ByteLanes.atLeast(0x30, word) & ~ByteLanes.atLeast(0x3A, word)
        return ByteLanes.firstFlagged(~digits & ByteLanes.highBits | word & ByteLanes.highBits)
    }

    /// The number the first `count` (1 to 7) bytes of `word`, all digits, write.
    @inline(__always) static func value(ofDigits count: Int, in word: UInt64) -> Int {
        // Moved up so that zero digits lead to eight, then combined pairwise: two digits, four,
        // eight.
        var value = (word & 0x0F0F_0F0F_0F0F_0F0F) << UInt64(64 - 8 * count)
        value = (value &* (10 << 8 + 1)) >> 8 & 0x00FF_00FF_00FF_00FF
        value = (value &* (100 << 16 + 1)) >> 16 & 0x0000_FFFF_0000_FFFF
        value = (value &* (10_000 << 32 + 1)) >> 32
        return Int(value)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` and its closing quote.
    @inline(__always) mutating func timestamp() -> Timestamp? {
        guard end - index >= 25, base[index + 24] == 0x22 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base + index, count: 24)
        let time = if let cache { cache.timestamp(bytes) } else { Timestamp.parse(bytes) }
        guard let time else { return nil }
        index += 25
        return time
    }
}
