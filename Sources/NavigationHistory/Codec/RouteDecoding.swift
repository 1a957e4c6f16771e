/// Reads routes and string maps straight from the scanner (the hot path of `push` lines).
package enum RouteDecoding {
    /// Reads `{"screen": ..., "id": ..., "params": {...}}`; other members are ignored.
    package static func route(_ s: inout JSONScanner, _ name: @autoclosure () -> String) throws(LineError) -> Route {
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
                let key = try s.readStringToken()
                try s.expect(0x3A, "':'")
                s.skipWhitespace()
                func once<T>(_ value: T?, _ member: String) throws(LineError) {
                    // As at the top level: a member that comes twice is refused, not overwritten.
                    guard value == nil else { throw LineError(.invalidMember, at: keyStart, "duplicate member '\(name()).\(member)'") }
                }
                if s.equals(key, "screen") {
                    try once(screen, "screen")
                    screen = try string(&s, "\(name()).screen")
                } else if s.equals(key, "id") {
                    try once(id, "id")
                    id = try string(&s, "\(name()).id")
                } else if s.equals(key, "params") {
                    try once(params, "params")
                    params = try stringMap(&s, "\(name()).params")
                } else {
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

    /// Reads an array of routes.
    package static func routes(_ s: inout JSONScanner, _ name: @autoclosure () -> String) throws(LineError) -> [Route] {
        guard s.peek() == 0x5B else { throw LineError(.invalidMember, at: s.index, "'\(name())' must be an array of routes") }
        s.index += 1
        var result = [Route]()
        s.skipWhitespace()
        if s.peek() == 0x5D { s.index += 1; return result }
        while true {
            s.skipWhitespace()
            let index = result.count
            result.append(try route(&s, "\(name())[\(index)]"))
            s.skipWhitespace()
            if s.peek() == 0x2C { try comma(&s, closing: 0x5D); continue }
            try s.expect(0x5D, "',' or ']'")
            return result
        }
    }

    /// Reads an object whose values are all strings; a key that comes twice is refused.
    package static func stringMap(_ s: inout JSONScanner, _ name: @autoclosure () -> String) throws(LineError) -> [String: String] {
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
            guard result.updateValue(try string(&s, "\(name()).\(key)"), forKey: key) == nil else {
                throw LineError(.invalidMember, at: keyStart, "duplicate key '\(key)' in '\(name())'")
            }
            s.skipWhitespace()
            if s.peek() == 0x2C { try comma(&s, closing: 0x7D); continue }
            try s.expect(0x7D, "',' or '}'")
            return result
        }
    }

    private static func string(_ s: inout JSONScanner, _ name: @autoclosure () -> String) throws(LineError) -> String {
        guard s.peek() == 0x22 else { throw LineError(.invalidMember, at: s.index, "'\(name())' must be a string") }
        return s.string(try s.readStringToken())
    }

    private static func comma(_ s: inout JSONScanner, closing: UInt8) throws(LineError) {
        let at = s.index
        s.index += 1
        s.skipWhitespace()
        if s.peek() == closing { throw s.error(JSONScanner.trailingCommaMessage, at: at) }
    }
}
