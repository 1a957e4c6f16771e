/// A decoded line: the event, and whether the line carried a `crc` (which then matched).
package struct DecodedLine: Sendable {
    package var event: NavigationEvent
    package var hasCRC: Bool
}

/// Decodes one log line (without its newline) into an event, checking everything a single line can
/// show: UTF-8, JSON syntax, `crc`, `v`, required members and their types, the `ts` format.
///
/// Members may come in any order with any whitespace; unknown members are ignored; an unknown
/// `type` is kept as ``NavigationAction/unknown(type:members:)``. Whatever is wrong, the `crc` is
/// the authority: a line that ends in a `crc` that does not match its bytes is reported as
/// ``DefectKind/crcMismatch``, whatever else the damage broke.
package enum LineDecoder {
    /// The longest line the format allows, in bytes, without its newline.
    package static let maximumLineLength = 65_536
    /// The largest `seq` (2^53 − 1, exact in every JSON implementation).
    package static let maximumSeq = 9_007_199_254_740_991

    /// Decodes one line; a `cache` kept across the lines of a log makes their recurring strings once.
    package static func decode(_ line: UnsafeRawBufferPointer, cache: DecodingCache? = nil) throws(LineError) -> DecodedLine {
        if let event = CanonicalLineDecoder.decode(line, cache: cache) { return DecodedLine(event: event, hasCRC: true) }
        return try decodeAnyLayout(line, cache: cache)
    }

    /// Decodes the one line `bytes` hold: for the few lines read apart from a reading (a
    /// segment's first or last, a line found going backwards).
    package static func decode(bytes: ArraySlice<UInt8>) throws(LineError) -> DecodedLine {
        try bytes.withUnsafeBytes { line in Result { () throws(LineError) in try decode(line) } }.get()
    }

    /// ``decode(bytes:)``, or nil when the line does not decode, where its defect is judged elsewhere.
    package static func decoded(_ bytes: ArraySlice<UInt8>) -> DecodedLine? {
        try? decode(bytes: bytes)
    }

    /// Decodes one line of any layout, without trying the fast path for the encoder's own form
    /// first: the same result as ``decode(_:cache:)``, only slower on the lines the store writes.
    package static func decodeAnyLayout(_ line: UnsafeRawBufferPointer, cache: DecodingCache? = nil) throws(LineError) -> DecodedLine {
        do throws(LineError) {
            return try decodeChecked(line, cache: cache)
        } catch {
            if error.kind != .crcMismatch, let mismatch = tailChecksumMismatch(line) { throw mismatch }
            throw error
        }
    }

    private static func decodeChecked(_ line: UnsafeRawBufferPointer, cache: DecodingCache?) throws(LineError) -> DecodedLine {
        guard line.count <= maximumLineLength else {
            throw LineError(.lineTooLong, at: 0, "line is \(line.count) bytes, longer than the 64 KiB limit")
        }
        // Strict UTF-8 is checked only when a string held a byte above 0x7F, or when the line does
        // not scan, where invalid UTF-8 is the finding that comes first: the scan has seen every
        // byte then, and a pass of its own was 4% of the general decoder's samples (perf,
        // `NavlogBench read --other-layout`).
        var scanner = JSONScanner(line)
        do throws(LineError) {
            return try scan(line, &scanner, cache: cache)
        } catch {
            if error.kind != .invalidUTF8, let invalid = invalidUTF8(line) { throw invalid }
            throw error
        }
    }

    private static func invalidUTF8(_ line: UnsafeRawBufferPointer) -> LineError? {
        UTF8Validation.firstInvalidOffset(line).map { LineError(.invalidUTF8, at: $0, "invalid UTF-8 at byte \($0 + 1) of the line") }
    }

    /// Inlined into ``decodeChecked(_:cache:)``, as are ``decode(_:_:_:)``, the fields' init and
    /// the scanner's end check: a call for each, and the copies of the event between them, were
    /// 3.5% of the general decoder's instructions (callgrind, "read: other layout 1 core").
    @inline(__always)
    private static func scan(_ line: UnsafeRawBufferPointer, _ scanner: inout JSONScanner,
                             cache: DecodingCache?) throws(LineError) -> DecodedLine {
        scanner.skipWhitespace()
        if scanner.atEnd { throw LineError(.blankLine, at: 0, "blank line") }
        guard scanner.peek() == 0x7B else { throw scanner.unexpected("'{': each line must be one JSON object") }
        if let cache {
            var fields = LineFields(scanner, spans: cache.spans, cache: cache)
            return try decode(&fields, &scanner, line)
        }
        return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: LineFields.Spans.count) { spans throws(LineError) in
            var fields = LineFields(scanner, spans: spans.baseAddress!, cache: cache)
            return try decode(&fields, &scanner, line)
        }
    }

    @inline(__always)
    private static func decode(_ fields: inout LineFields, _ scanner: inout JSONScanner,
                               _ line: UnsafeRawBufferPointer) throws(LineError) -> DecodedLine {
        try fields.scanObject(&scanner)
        try scanner.expectEnd()
        if scanner.stringBits & ByteLanes.highBits != 0, let invalid = invalidUTF8(line) { throw invalid }
        if let comma = fields.crcComma {
            let actual = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<comma]))
            guard actual == fields.crc else {
                throw LineError(.crcMismatch, at: comma, "crc \(hex8(fields.crc)) does not match the line's bytes (\(hex8(actual)))")
            }
        }
        let event = try fields.makeEvent()
        return DecodedLine(event: event, hasCRC: fields.crcComma != nil)
    }

    /// When a damaged line still ends in `,"crc":"xxxxxxxx"}` and the checksum disagrees, that is the
    /// real finding: the line's bytes changed after they were written.
    private static func tailChecksumMismatch(_ line: UnsafeRawBufferPointer) -> LineError? {
        guard let (stored, start) = trailingChecksum(line) else { return nil }
        let actual = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<start]))
        guard actual != stored else { return nil }
        return LineError(.crcMismatch, at: start, "crc \(hex8(stored)) does not match the line's bytes (\(hex8(actual)))")
    }

    /// The checksum a line stores in its closing `,"crc":"xxxxxxxx"}`, and the offset of that comma:
    /// the checksum covers the bytes before it. Nil when the line does not end that way.
    @inline(__always) static func trailingChecksum(_ line: UnsafeRawBufferPointer) -> (stored: UInt32, start: Int)? {
        let suffix: StaticString = #","crc":""#
        let tail = suffix.utf8CodeUnitCount + 10
        guard line.count >= tail, line[line.count - 1] == 0x7D, line[line.count - 2] == 0x22 else { return nil }
        let start = line.count - tail
        let bytes = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard memcmpEqual(bytes + start, suffix.utf8Start, suffix.utf8CodeUnitCount),
              let stored = checksum(hexDigitsAt: bytes + start + suffix.utf8CodeUnitCount) else { return nil }
        return (stored, start)
    }

    /// The value of the 8 lowercase hex digits at `p`, nil when they are not.
    ///
    /// All eight at once, as one word: every line has a checksum, and its digits are random, so a
    /// branch per digit mispredicts.
    @inline(__always) static func checksum(hexDigitsAt p: UnsafePointer<UInt8>) -> UInt32? {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        let digits = ByteLanes.atLeast(0x30, word) & ~ByteLanes.atLeast(0x3A, word)
        let letters = ByteLanes.atLeast(0x61, word) & ~ByteLanes.atLeast(0x67, word)
        guard word & ByteLanes.highBits == 0, digits | letters == ByteLanes.highBits else { return nil }
        // Each byte's value (a letter's low nibble plus 9), the first digit moved to the top byte,
        // then the nibbles packed pairwise into one 32-bit value.
        var value = ((word & 0x0F0F_0F0F_0F0F_0F0F) &+ (word >> 6 & ByteLanes.ones) &* 9).byteSwapped
        value = (value | value >> 4) & 0x00FF_00FF_00FF_00FF
        value = (value | value >> 8) & 0x0000_FFFF_0000_FFFF
        value = (value | value >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: value)
    }

    package static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
