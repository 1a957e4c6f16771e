/// The members of one line as the general decoder scans them, in one pass, before the type says
/// which ones it needs.
///
/// The scan validates the whole line as JSON and finds each known member by a switch on its
/// name's bytes (``EventMember/matching(_:_:readable:)``), refusing one that comes twice. A string
/// member's value is only located (``Spans``): its `String` is made, from the cache, when the
/// type's reader asks for it, and its shape is checked then. Integers, routes, maps and states
/// are decoded as they come. So a line costs one pass over its bytes plus the strings its event
/// keeps, whatever the order of its members (`NavlogBench read --other-layout`).
struct LineFields {
    var seen: UInt32 = 0
    /// The members given as `null`: there for a type that allows it, missing for any other.
    var nulls: UInt32 = 0
    let spans: Spans

    var v: Int64?
    var seq: Int64?
    /// The values decoded as they came, taken by the reader.
    var decoded = Decoded()
    var crc: UInt32 = 0
    var crcComma: Int?

    let base: UnsafePointer<UInt8>
    let lineLength: Int
    let cache: DecodingCache?

    @inline(__always) init(_ scanner: JSONScanner, spans: UnsafeMutablePointer<UInt64>, cache: DecodingCache?) {
        self.spans = Spans(words: spans)
        base = scanner.base
        lineLength = scanner.end
        self.cache = cache
    }

    struct Decoded {
        var count: Int?
        var from: Int?
        var route: Route?
        /// Whether `route` was there as `null`.
        var routeIsNull = false
        /// What few lines have, apart: a line without any has one nil to destroy rather than a
        /// release for each (callgrind, "read: other layout 1 core": 3% of the general decoder's
        /// instructions went to destroying the fields of each line).
        var rare: Rare?

        struct Rare {
            /// Members decoded as they came whose value had the wrong shape; reported only if the
            /// type has them. String members' shapes are judged later, from their spans.
            var shapeErrors: [(EventMember, LineError)] = []
            var meta: [String: String]?
            var path: [Route]?
            var dropped: [Route]?
            var state: NavigationState?
        }

        /// ``rare``, made when the first of its values comes.
        @inline(__always) mutating func makeRare() { if rare == nil { rare = Rare() } }
    }

    /// Where each string member's value is, by the member's raw value: the offsets of its first
    /// and past-last content bytes, whether it has escapes, or, for a value that is not a string,
    /// only where it starts. Words on the decoding call's stack, read only for members seen: a
    /// line's spans cost no allocation and no zeroing, and, unlike a tuple in the struct, are not
    /// copied whenever one is read (perf, `NavlogBench read --other-layout`: 6% of samples in memmove).
    struct Spans {
        static let count = 32
        static let escapes: UInt64 = 1 << 48, notString: UInt64 = 1 << 49
        let words: UnsafeMutablePointer<UInt64>

        @inline(__always) subscript(member: EventMember) -> UInt64 {
            get { words[member.rawValue] }
            nonmutating set { words[member.rawValue] = newValue }
        }
    }

    /// The string token a member's span holds; nil when its value was not a string.
    @inline(__always) func token(_ member: EventMember) -> JSONScanner.StringToken? {
        let span = spans[member]
        guard span & Spans.notString == 0 else { return nil }
        return JSONScanner.StringToken(start: Int(span & 0xFF_FFFF), end: Int(span >> 24 & 0xFF_FFFF), hasEscapes: span & Spans.escapes != 0)
    }

    /// Where a member's value starts: its opening quote, when it is a string.
    @inline(__always) func valueStart(_ member: EventMember) -> Int {
        let span = spans[member]
        return Int(span & 0xFF_FFFF) - (span & Spans.notString == 0 ? 1 : 0)
    }

    mutating func scanObject(_ s: inout JSONScanner) throws(LineError) {
        let transitions = cache?.transitions
        var lastComma: Int?
        // Where the bytes before the next member's value begin (the `{`, then each value's end),
        // and the member before them.
        var boundary = s.index
        var slot = MemberTransitions.startSlot(at: s.base + s.index, readable: s.end - s.index)
        s.index += 1
        s.skipWhitespace()
        if s.peek() == 0x7D { s.index += 1; return }
        s.index = boundary
        while true {
            let member: EventMember?
            if let transitions, slot >= 0,
               let (next, length, keyOffset) = transitions.next(after: slot, at: s.base + s.index, readable: s.end - s.index) {
                // The bytes the scan below accepted on a line before, read the same way.
                guard seen & next.bit == 0 else {
                    throw LineError(.invalidMember, at: s.index + keyOffset, "duplicate member '\(next.name)'")
                }
                if slot < MemberTransitions.objectStart { lastComma = s.index }
                s.index += length
                s.skipWhitespace()
                member = next
            } else {
                // Where the object ends right after a value, as on nearly every line, it ends here.
                if s.index < s.end, s.base[s.index] == 0x7D { s.index += 1; return }
                guard let key = try scanKey(&s, after: slot, boundary: boundary, lastComma: &lastComma) else { return }
                member = key
            }
            if let member {
                seen |= member.bit
                if member == .crc { crcComma = lastComma }
                // Every line has `v` and `seq`, nearly always a few digits: read here, without the
                // call and the catch of the other decoded members (callgrind, "read: other layout 1 core").
                if member.rawValue <= EventMember.seq.rawValue, let value = Self.shortInteger(&s) {
                    if member == .v { v = value } else { seq = value }
                } else {
                    try read(member, &s)
                }
                slot = member.rawValue
            } else {
                try s.skipValue()
                slot = -1
            }
            boundary = s.index
        }
    }

    /// The member whose key comes next, read byte by byte where no boundary kept matches (a line's
    /// first of a kind, or one of a layout not seen before), with `s` moved past its colon and the
    /// whitespace after, and the boundary kept; `.some(nil)` for a key naming no member, nil where
    /// the object ends. Out of line: the scan's loop then has room for its common path inlined
    /// (callgrind, "read: other layout 1 core").
    @inline(never)
    private mutating func scanKey(_ s: inout JSONScanner, after slot: Int, boundary: Int, lastComma: inout Int?) throws(LineError) -> EventMember?? {
        let transitions = cache?.transitions
        let member: EventMember?
        if slot < MemberTransitions.objectStart || s.peek() != 0x7B {
            s.skipWhitespace()
            guard s.peek() == 0x2C else { try s.expect(0x7D, "',' or '}'"); return nil }
            if slot == EventMember.crc.rawValue { throw LineError(.invalidMember, at: s.index, "'crc' must be the last member") }
            lastComma = s.index
            s.index += 1
            s.skipWhitespace()
            if s.peek() == 0x7D { throw s.error(JSONScanner.trailingCommaMessage, at: lastComma) }
        } else {
            s.index += 1
        }
        s.skipWhitespace()
        let keyStart = s.index
        let keyToken = try s.readStringToken()
        try s.expect(0x3A, "':'")
        s.skipWhitespace()
        if keyToken.hasEscapes {
            var key = s.string(keyToken)
            member = key.withUTF8 { $0.isEmpty ? nil : EventMember.named($0.baseAddress!, $0.count) }
        } else {
            member = EventMember.matching(s.base + keyToken.start, keyToken.end - keyToken.start, readable: s.end - keyToken.start)
        }
        if let member {
            guard seen & member.bit == 0 else {
                throw LineError(.invalidMember, at: keyStart, "duplicate member '\(member.name)'")
            }
            // A boundary that begins with its comma (or the `{`), its key without escapes.
            if let transitions, slot >= 0, !keyToken.hasEscapes, s.base[boundary] == (slot >= MemberTransitions.objectStart ? 0x7B : 0x2C) {
                transitions.keep(after: slot, s.base + boundary, length: s.index - boundary, keyOffset: keyStart - boundary,
                                 member: member, readable: s.end - boundary)
            }
        }
        return .some(member)
    }

    /// Reads a known member's value: a string's span, or the value decoded with the shape the
    /// format gives it. A value of another shape is skipped (still validated as JSON) and
    /// remembered as a shape error.
    @inline(__always) mutating func read(_ member: EventMember, _ s: inout JSONScanner) throws(LineError) {
        switch member {
        case .v, .seq, .crc, .count, .from, .meta, .route, .path, .dropped, .state: try readDecoded(member, &s)
        default:
            // Every other member holds a string.
            guard s.peek() == 0x22 else {
                spans[member] = UInt64(s.index) | Spans.notString
                return try s.skipValue()
            }
            let token = try s.readStringToken()
            spans[member] = UInt64(token.start) | UInt64(token.end) << 24 | (token.hasEscapes ? Spans.escapes : 0)
        }
    }

    @inline(never) private mutating func readDecoded(_ member: EventMember, _ s: inout JSONScanner) throws(LineError) {
        let start = s.index
        do throws(LineError) {
            switch member {
            case .v: v = try Self.integer(&s, member)
            case .seq: seq = try Self.integer(&s, member)
            case .crc:
                // A damaged crc member is a failed check, like a crc that does not match.
                let malformed = LineError(.crcMismatch, at: s.index, "'crc' must be 8 lowercase hex digits in a string")
                guard s.peek() == 0x22 else { throw malformed }
                let token = try s.readStringToken()
                guard token.end - token.start == 8, !token.hasEscapes,
                      let value = LineDecoder.checksum(hexDigitsAt: s.base + token.start) else { throw malformed }
                crc = value
            case .count:
                let n = try Self.integer(&s, member)
                guard n >= 1 else { throw LineError(.invalidMember, at: start, "'\(member.name)' is \(n), expecting at least 1") }
                decoded.count = Int(n)
            case .from:
                let n = try Self.integer(&s, member)
                guard n >= 1, n <= LineDecoder.maximumSeq else {
                    throw LineError(.invalidMember, at: start, "'\(member.name)' is \(n), expecting a seq")
                }
                decoded.from = Int(n)
            case .meta:
                let meta = try RouteDecoding.stringMap(&s, member.name, cache: cache)
                decoded.makeRare()
                decoded.rare!.meta = meta
            case .route:
                if s.peek() == 0x6E, case .null = try s.readValue() {
                    nulls |= member.bit
                    decoded.routeIsNull = true
                } else {
                    decoded.route = try RouteDecoding.route(&s, member.name, cache: cache)
                }
            case .path, .dropped:
                let routes = try RouteDecoding.routes(&s, member.name, cache: cache)
                decoded.makeRare()
                if member == .path { decoded.rare!.path = routes } else { decoded.rare!.dropped = routes }
            default:
                let state = try NavigationState(json: try s.readValue())
                decoded.makeRare()
                decoded.rare!.state = state
            }
        } catch {
            guard error.kind == .invalidMember else { throw error }
            s.index = start
            try s.skipValue()
            decoded.makeRare()
            decoded.rare!.shapeErrors.append((member, error))
        }
    }

    /// An integer of at most 15 digits without a leading zero, followed by neither a fraction, an
    /// exponent nor more digits, read in one pass as ``integer(_:_:)`` would read its token and
    /// value; nil, with `s` unmoved, for anything else. No Int64 overflows with 15 digits. Most
    /// integers (`seq`, `v`, `count`) are such ("read: other layout 1 core", `NavlogBench read
    /// --other-layout`).
    @inline(__always) static func shortInteger(_ s: inout JSONScanner) -> Int64? {
        let at = s.index
        let byte = s.peek()
        guard byte &- 0x31 < 9 else { return nil }
        var i = at + 1, value = Int64(byte &- 0x30)
        let limit = min(s.end, at + 15)
        while i < limit, s.base[i] &- 0x30 < 10 { value = value &* 10 &+ Int64(s.base[i] &- 0x30); i += 1 }
        guard i == s.end || (s.base[i] &- 0x30 >= 10 && s.base[i] != 0x2E && s.base[i] | 0x20 != 0x65) else { return nil }
        s.index = i
        return value
    }

    static func integer(_ s: inout JSONScanner, _ member: EventMember) throws(LineError) -> Int64 {
        if let value = shortInteger(&s) { return value }
        let at = s.index
        let byte = s.peek()
        guard byte == 0x2D || byte &- 0x30 < 10 else {
            throw LineError(.invalidMember, at: at, "'\(member.name)' must be an integer")
        }
        let token = try s.readNumberToken()
        guard let value = s.integer(token) else {
            let text = String(decoding: UnsafeBufferPointer(start: s.base + token.start, count: token.end - token.start), as: UTF8.self)
            let isWhole = Double(text).map { $0 == $0.rounded() } ?? false
            throw LineError(.invalidMember, at: at, isWhole ? "'\(member.name)' is \(text), beyond 64-bit integers"
                                                            : "'\(member.name)' is \(text), expecting an integer")
        }
        return value
    }
}
