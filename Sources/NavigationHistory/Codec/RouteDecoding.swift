/// Reads routes and string maps straight from the scanner (the hot path of `push` lines).
package enum RouteDecoding {
    /// Reads `{"screen": ..., "id": ..., "params": {...}}`; other members are ignored.
    package static func route(_ s: inout JSONScanner, _ name: @autoclosure () -> String,
                              cache: DecodingCache? = nil) throws(LineError) -> Route {
        let at = s.index
        guard s.peek() == 0x7B else { throw LineError(.invalidMember, at: at, "'\(name())' must be a route object") }
        s.index += 1
        var screen: String?
        var id: String?
        var params: [String: String]?
        s.skipWhitespace()
        if s.peek() == 0x7D {
            s.index += 1
        } else {
            while true {
                s.skipWhitespace()
                let keyStart = s.index
                // As at the top level: a member that comes twice is refused, not overwritten.
                let member = if let known = knownMember(&s) { known } else { try scannedMember(&s) }
                switch member {
                case .screen:
                    guard screen == nil else { throw LineError(.invalidMember, at: keyStart, "duplicate member '\(name()).screen'") }
                    screen = try string(&s, "\(name()).screen", cache: cache)
                case .id:
                    guard id == nil else { throw LineError(.invalidMember, at: keyStart, "duplicate member '\(name()).id'") }
                    id = try string(&s, "\(name()).id", cache: cache)
                case .params:
                    guard params == nil else { throw LineError(.invalidMember, at: keyStart, "duplicate member '\(name()).params'") }
                    params = try stringMap(&s, "\(name()).params", cache: cache)
                case .other:
                    try s.skipValue()
                }
                s.skipWhitespace()
                if s.peek() == 0x2C { try comma(&s, closing: 0x7D); continue }
                try s.expect(0x7D, "',' or '}'")
                break
            }
        }
        guard let screen else { throw LineError(.invalidMember, at: at, "'\(name())' has no 'screen'") }
        guard !screen.isEmpty else { throw LineError(.invalidMember, at: at, "'\(name()).screen' must not be empty") }
        return Route(screen: screen, id: id, params: params)
    }

    /// The members of a route that are read.
    private enum Member {
        case screen, id, params, other
    }

    /// The route member the key at `s.index` names when it is `"id":`, `"screen":` or
    /// `"params":`, as the encoder writes them, with `s` moved past it and the whitespace after:
    /// matched as a word and a byte, and taken as ``scannedMember(_:)`` would read them, without
    /// scanning the key and comparing it with each name ("read: other layout 1 core",
    /// `NavlogBench read --other-layout`). Nil, with `s` unmoved, for any other bytes.
    @inline(__always) private static func knownMember(_ s: inout JSONScanner) -> Member? {
        guard s.end - s.index >= 9 else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(s.base + s.index).loadUnaligned(as: UInt64.self))
        let length: Int, member: Member
        if word & 0xFF_FFFF_FFFF == 0x3A_2264_6922 {   // "id":
            (length, member) = (5, .id)
        } else if s.base[s.index + 8] == 0x3A, word == 0x226E_6565_7263_7322 {   // "screen"
            (length, member) = (9, .screen)
        } else if s.base[s.index + 8] == 0x3A, word == 0x2273_6D61_7261_7022 {   // "params"
            (length, member) = (9, .params)
        } else {
            return nil
        }
        s.index += length
        s.skipWhitespace()
        return member
    }

    /// The route member the key at `s.index` names, with `s` moved past the key, its colon and
    /// the whitespace after.
    private static func scannedMember(_ s: inout JSONScanner) throws(LineError) -> Member {
        let key = try s.readStringToken()
        try s.expect(0x3A, "':'")
        s.skipWhitespace()
        if s.equals(key, "screen") { return .screen }
        if s.equals(key, "id") { return .id }
        if s.equals(key, "params") { return .params }
        return .other
    }

    /// Reads an array of routes.
    package static func routes(_ s: inout JSONScanner, _ name: @autoclosure () -> String,
                               cache: DecodingCache? = nil) throws(LineError) -> [Route] {
        guard s.peek() == 0x5B else { throw LineError(.invalidMember, at: s.index, "'\(name())' must be an array of routes") }
        s.index += 1
        var result = [Route]()
        s.skipWhitespace()
        if s.peek() == 0x5D { s.index += 1; return result }
        // Room for a few, as the fast decoder makes: grown one route at a time, a path of a few
        // is allocated again and again (callgrind, "read: other layout 1 core").
        result.reserveCapacity(4)
        while true {
            s.skipWhitespace()
            let index = result.count
            result.append(try route(&s, "\(name())[\(index)]", cache: cache))
            s.skipWhitespace()
            if s.peek() == 0x2C { try comma(&s, closing: 0x5D); continue }
            try s.expect(0x5D, "',' or ']'")
            return result
        }
    }

    /// Reads an object whose values are all strings; a key that comes twice is refused.
    ///
    /// With a cache, a map made before of the same bytes is taken as it is: a log repeats a few
    /// such objects, and making a dictionary hashes every key. Its extent is found by skipping it,
    /// which validates it as JSON as the reading would.
    package static func stringMap(_ s: inout JSONScanner, _ name: @autoclosure () -> String,
                                  cache: DecodingCache? = nil) throws(LineError) -> [String: String] {
        guard s.peek() == 0x7B else { throw LineError(.invalidMember, at: s.index, "'\(name())' must be an object of strings") }
        guard let cache else { return try makeStringMap(&s, name(), cache: nil) }
        let start = s.index
        try s.skipValue()
        let count = s.index - start
        guard count <= DecodingCache.maximumMapLength, s.end - s.index >= 7 else {
            s.index = start
            return try makeStringMap(&s, name(), cache: cache)
        }
        if let map = cache.map(s.base + start, count) { return map }
        s.index = start
        let map = try makeStringMap(&s, name(), cache: cache)
        cache.keep(map, madeOf: s.base + start, count)
        return map
    }

    private static func makeStringMap(_ s: inout JSONScanner, _ name: @autoclosure () -> String,
                                      cache: DecodingCache?) throws(LineError) -> [String: String] {
        guard s.peek() == 0x7B else { throw LineError(.invalidMember, at: s.index, "'\(name())' must be an object of strings") }
        s.index += 1
        var result = [String: String]()
        s.skipWhitespace()
        if s.peek() == 0x7D { s.index += 1; return result }
        while true {
            s.skipWhitespace()
            let keyStart = s.index
            let key = s.string(try s.readStringToken())
            try s.expect(0x3A, "':'")
            s.skipWhitespace()
            guard result.updateValue(try string(&s, "\(name()).\(key)", cache: cache), forKey: key) == nil else {
                throw LineError(.invalidMember, at: keyStart, "duplicate key '\(key)' in '\(name())'")
            }
            s.skipWhitespace()
            if s.peek() == 0x2C { try comma(&s, closing: 0x7D); continue }
            try s.expect(0x7D, "',' or '}'")
            return result
        }
    }

    /// A string value; from the cache, when given one, if it has no escapes.
    @inline(__always)
    private static func string(_ s: inout JSONScanner, _ name: @autoclosure () -> String,
                               cache: DecodingCache? = nil) throws(LineError) -> String {
        guard s.peek() == 0x22 else { throw LineError(.invalidMember, at: s.index, "'\(name())' must be a string") }
        let token = try s.readStringToken()
        guard let cache, !token.hasEscapes else { return s.string(token) }
        return cache.string(s.base + token.start, token.end - token.start, readable: s.end - token.start)
    }

    private static func comma(_ s: inout JSONScanner, closing: UInt8) throws(LineError) {
        let at = s.index
        s.index += 1
        s.skipWhitespace()
        if s.peek() == closing { throw s.error(JSONScanner.trailingCommaMessage, at: at) }
    }
}
