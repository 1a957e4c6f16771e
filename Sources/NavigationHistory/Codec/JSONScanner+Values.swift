/// Values of any kind: skipped, validated, or read into a ``JSONValue``.
extension JSONScanner {
    /// Skips one value of any kind, validating it.
    package mutating func skipValue(depth: Int = 0) throws(LineError) {
        skipWhitespace()
        guard index < end else { throw unexpected("a value") }
        switch base[index] {
        case 0x22: _ = try readStringToken()
        case 0x7B:
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
            index += 1
            skipWhitespace()
            if peek() == 0x7D { index += 1; return }
            while true {
                skipWhitespace()
                _ = try readStringToken()
                try expect(0x3A, "':'")
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek() == 0x2C { try skipComma(before: 0x7D); continue }
                try expect(0x7D, "',' or '}'")
                return
            }
        case 0x5B:
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
            index += 1
            skipWhitespace()
            if peek() == 0x5D { index += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek() == 0x2C { try skipComma(before: 0x5D); continue }
                try expect(0x5D, "',' or ']'")
                return
            }
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        default: _ = try readNumberToken()
        }
    }

    /// Moves past a comma, refusing a trailing one (which RFC 8259 does not allow).
    @inline(__always) private mutating func skipComma(before closing: UInt8) throws(LineError) {
        let at = index
        index += 1
        skipWhitespace()
        if peek() == closing { throw error(Self.trailingCommaMessage, at: at) }
    }

    /// The detail of the error for a comma before `}` or `]`.
    package static let trailingCommaMessage = "trailing comma"

    private mutating func literal(_ word: StaticString) throws(LineError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= end, memcmpEqual(base + index, word.utf8Start, count) else {
            throw error("invalid literal, expecting \(word)")
        }
        index += count
    }

    /// Reads one value of any kind into a `JSONValue`.
    package mutating func readValue(depth: Int = 0) throws(LineError) -> JSONValue {
        skipWhitespace()
        guard index < end else { throw unexpected("a value") }
        switch base[index] {
        case 0x22: return .string(string(try readStringToken()))
        case 0x7B:
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
            index += 1
            var members = [JSONMember]()
            skipWhitespace()
            if peek() == 0x7D { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                let key = string(try readStringToken())
                try expect(0x3A, "':'")
                members.append(JSONMember(key, try readValue(depth: depth + 1)))
                skipWhitespace()
                if peek() == 0x2C { try skipComma(before: 0x7D); continue }
                try expect(0x7D, "',' or '}'")
                return .object(members)
            }
        case 0x5B:
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
            index += 1
            var elements = [JSONValue]()
            skipWhitespace()
            if peek() == 0x5D { index += 1; return .array(elements) }
            while true {
                elements.append(try readValue(depth: depth + 1))
                skipWhitespace()
                if peek() == 0x2C { try skipComma(before: 0x5D); continue }
                try expect(0x5D, "',' or ']'")
                return .array(elements)
            }
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        default:
            let token = try readNumberToken()
            return .number(String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start), as: UTF8.self))
        }
    }

    /// Parses a whole buffer as one JSON value (RFC 8259, after UTF-8 validation).
    package static func parse(_ buffer: UnsafeRawBufferPointer) throws(LineError) -> JSONValue {
        if let bad = UTF8Validation.firstInvalidOffset(buffer) {
            throw LineError(.invalidUTF8, at: bad, "invalid UTF-8 at byte \(bad)")
        }
        var scanner = JSONScanner(buffer)
        let value = try scanner.readValue()
        try scanner.expectEnd()
        return value
    }
}
