import CNavigationHistory

/// A byte-level JSON scanner (RFC 8259) over one line held in memory.
///
/// It assumes the bytes are valid UTF-8 (the reader validates each line first) and never copies
/// the line: strings without escapes become `String`s straight from the bytes.
package struct JSONScanner {
    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
    package static let maximumDepth = 256

    package let base: UnsafePointer<UInt8>
    package let end: Int
    package var index = 0
    /// The bytes of the strings read so far OR-ed together, and perhaps a few bytes after them, or
    /// 0x80 for a byte above 0x7F among them: its high bit clear says all of them were ASCII, so
    /// that the line needs no UTF-8 check when it scans as JSON (outside strings, the grammar
    /// allows only ASCII).
    package var stringBits: UInt64 = 0

    package init(_ buffer: UnsafeRawBufferPointer) {
        base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
        end = buffer.count
    }

    @inline(__always) package var atEnd: Bool { index >= end }
    @inline(__always) package func peek() -> UInt8 { index < end ? base[index] : 0 }

    @inline(__always) package mutating func skipWhitespace() {
        while index < end {
            let byte = base[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    package func error(_ detail: String, at offset: Int? = nil) -> LineError {
        LineError(.invalidJSON, at: offset ?? index, detail)
    }

    package func unexpected(_ expecting: String) -> LineError {
        guard index < end else { return error("unexpected end of line, expecting \(expecting)") }
        let byte = base[index]
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return error("unexpected \(shown), expecting \(expecting)")
    }

    @inline(__always) package mutating func expect(_ byte: UInt8, _ what: String) throws(LineError) {
        skipWhitespace()
        guard index < end, base[index] == byte else { throw unexpected(what) }
        index += 1
    }

    /// After the top-level value: only whitespace may follow.
    @inline(__always) package mutating func expectEnd() throws(LineError) {
        skipWhitespace()
        guard index >= end else { throw error("unexpected data after the JSON value") }
    }

    // MARK: Strings

    /// A string's content bytes (between the quotes) and whether it has escapes.
    package struct StringToken {
        package var start: Int
        package var end: Int
        package var hasEscapes: Bool
    }

    /// Reads a string token; `index` must be at the opening quote.
    ///
    /// The bytes are scanned with a local index, stored back once: a scanner's own `index`,
    /// reached through `inout`, would be stored at every step (callgrind, `navlog verify
    /// --threads 1` on `NavlogBench read --other-layout`'s log, "read: other layout 1 core").
    @inline(__always) package mutating func readStringToken() throws(LineError) -> StringToken {
        guard index < end, base[index] == 0x22 else { throw unexpected("a string") }
        let start = index + 1
        var i = start
        var hasEscapes = false
        while i < end {
            // Sixteen bytes at a time while sixteen can be read, else eight, to the first quote,
            // backslash or control character among them: a line is mostly strings, most of them
            // shorter than sixteen bytes (`NavlogBench read --other-layout`).
            if end - i >= 16 {
                let lanes = navigation_history_string_stops16(base + i)
                let stops = lanes & 0xFFFF
                guard stops != 0 else {
                    if lanes > 0xFFFF { stringBits |= 0x80 }
                    i += 16
                    continue
                }
                let offset = stops.trailingZeroBitCount
                if lanes >> 16 & (1 &<< offset &- 1) != 0 { stringBits |= 0x80 }
                i += offset
            } else if end - i >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let stops = ByteLanes.equal(to: 0x22, word) | ByteLanes.equal(to: 0x5C, word) | ByteLanes.below(0x20, word)
                stringBits |= word
                guard stops != 0 else {
                    i += 8
                    continue
                }
                i += ByteLanes.firstFlagged(stops)
            }
            let byte = base[i]
            if byte == 0x22 {
                index = i + 1
                return StringToken(start: start, end: i, hasEscapes: hasEscapes)
            }
            index = i
            if byte == 0x5C {
                hasEscapes = true
                try skipEscape()
                i = index
                continue
            }
            if byte < 0x20 { throw error("unescaped control character 0x\(String(byte, radix: 16)) in a string") }
            stringBits |= UInt64(byte)
            i += 1
        }
        index = i
        throw error("unterminated string", at: start - 1)
    }

    /// Validates one escape sequence at `index` (a backslash) and moves past it.
    private mutating func skipEscape() throws(LineError) {
        let at = index
        index += 1
        guard index < end else { throw error("unterminated escape", at: at) }
        switch base[index] {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:
            index += 1
        case 0x75:
            index += 1
            let unit = try hex4(at: at)
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < end, base[index] == 0x5C, base[index + 1] == 0x75 else {
                    throw error("high surrogate \\u\(String(unit, radix: 16)) without a low surrogate", at: at)
                }
                index += 2
                let low = try hex4(at: at)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("high surrogate \\u\(String(unit, radix: 16)) without a low surrogate", at: at)
                }
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw error("lone low surrogate \\u\(String(unit, radix: 16))", at: at)
            }
        default:
            throw error("invalid escape sequence", at: at)
        }
    }

    private mutating func hex4(at escapeStart: Int) throws(LineError) -> UInt32 {
        guard index + 4 <= end else { throw error("truncated \\u escape", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("invalid hex digit in \\u escape", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The decoded text of a string token.
    package func string(_ token: StringToken) -> String {
        let bytes = UnsafeBufferPointer(start: base + token.start, count: token.end - token.start)
        guard token.hasEscapes else { return String(decoding: bytes, as: UTF8.self) }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        func hex(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for k in at..<(at + 4) {
                let byte = bytes[k]
                value = value << 4 | UInt32(byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10)
            }
            return value
        }
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == 0x5C else { out.append(byte); i += 1; continue }
            let escaped = bytes[i + 1]
            i += 2
            switch escaped {
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = hex(i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = hex(i + 2)
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default: out.append(escaped)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the string `token` stands for equals `literal`.
    @inline(__always) package func equals(_ token: StringToken, _ literal: StaticString) -> Bool {
        if token.hasEscapes { return string(token) == literal.description }   // rare: `"\u0069d"` is `"id"`
        let count = token.end - token.start
        guard count == literal.utf8CodeUnitCount else { return false }
        return memcmpEqual(base + token.start, literal.utf8Start, count)
    }

    // MARK: Numbers

    /// A number token: its text range and whether it has a fraction or exponent.
    package struct NumberToken {
        package var start: Int
        package var end: Int
        package var isPlainInteger: Bool
    }

    /// Reads a number per RFC 8259's grammar.
    @inline(__always) package mutating func readNumberToken() throws(LineError) -> NumberToken {
        let start = index
        var plain = true
        if index < end, base[index] == 0x2D { index += 1 }
        guard index < end else { throw error("incomplete number", at: start) }
        if base[index] == 0x30 {
            index += 1
            if index < end, base[index] &- 0x30 < 10 { throw error("number with a leading zero", at: start) }
        } else if base[index] &- 0x31 < 9 {
            while index < end, base[index] &- 0x30 < 10 { index += 1 }
        } else {
            throw error("invalid number", at: start)
        }
        if index < end, base[index] == 0x2E {
            plain = false
            index += 1
            guard index < end, base[index] &- 0x30 < 10 else { throw error("a fraction needs digits", at: start) }
            while index < end, base[index] &- 0x30 < 10 { index += 1 }
        }
        if index < end, base[index] | 0x20 == 0x65 {
            plain = false
            index += 1
            if index < end, base[index] == 0x2B || base[index] == 0x2D { index += 1 }
            guard index < end, base[index] &- 0x30 < 10 else { throw error("an exponent needs digits", at: start) }
            while index < end, base[index] &- 0x30 < 10 { index += 1 }
        }
        return NumberToken(start: start, end: index, isPlainInteger: plain)
    }

    /// The exact integer a number token denotes (`1`, `1.0`, `1e2`, `-0`), or nil when it has a
    /// fractional part or does not fit in `Int64`.
    package func integer(_ token: NumberToken) -> Int64? {
        var i = token.start
        let negative = base[i] == 0x2D
        if negative { i += 1 }
        if token.isPlainInteger {
            var value: Int64 = 0
            while i < token.end {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int64(base[i] - 0x30))
                guard !o1, !o2 else { return nil }
                value = s
                i += 1
            }
            return negative ? -value : value
        }
        // Digits of the integer and fraction parts, then the decimal exponent.
        var digits = [UInt8]()
        while i < token.end, base[i] &- 0x30 < 10 { digits.append(base[i] - 0x30); i += 1 }
        var exponent = 0
        if i < token.end, base[i] == 0x2E {
            i += 1
            while i < token.end, base[i] &- 0x30 < 10 { digits.append(base[i] - 0x30); exponent -= 1; i += 1 }
        }
        if i < token.end {
            i += 1
            var sign = 1
            if base[i] == 0x2B { i += 1 } else if base[i] == 0x2D { sign = -1; i += 1 }
            var e = 0
            while i < token.end {
                e = min(e * 10 + Int(base[i] - 0x30), 100_000)
                i += 1
            }
            exponent += sign * e
        }
        while let first = digits.first, first == 0 { digits.removeFirst() }
        if digits.isEmpty { return 0 }
        while exponent < 0, digits.last == 0 { digits.removeLast(); exponent += 1 }
        guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
        var value: Int64 = 0
        for digit in digits + [UInt8](repeating: 0, count: exponent) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = s
        }
        return negative ? -value : value
    }
}
