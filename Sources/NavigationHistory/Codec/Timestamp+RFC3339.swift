/// The 24 bytes of a timestamp's one textual form, `YYYY-MM-DDTHH:MM:SS.sssZ`, written and read
/// without `DateFormatter`: every event has a timestamp.
extension Timestamp {
    /// Appends the 24-byte RFC 3339 text to `bytes`.
    ///
    /// Written into a buffer of its own and appended at once: appended a digit at a time, each
    /// found by a division by a variable, it costs over a thousand instructions (an index writes
    /// two per session, and the store one per event).
    package func append(to bytes: inout [UInt8]) {
        let ms = millisecondsSince1970
        let days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let msOfDay = ms - days * 86_400_000
        let (year, month, day) = Timestamp.civil(fromDays: days)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            @inline(__always) func two(_ value: Int64, at k: Int) {
                text[k] = UInt8(truncatingIfNeeded: 48 + value / 10)
                text[k + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
            }
            if (0...9999).contains(year) {
                two(year / 100, at: 0)
                two(year % 100, at: 2)
            } else {
                // Beyond four digits, the first "digit" is the rest of the year, as it always was.
                var value = year, divisor: Int64 = 1000
                for k in 0..<4 {
                    text[k] = UInt8(truncatingIfNeeded: 48 + value / divisor)
                    value %= divisor
                    divisor /= 10
                }
            }
            text[4] = 0x2D
            two(month, at: 5)
            text[7] = 0x2D
            two(day, at: 8)
            text[10] = 0x54
            two(msOfDay / 3_600_000, at: 11)
            text[13] = 0x3A
            two(msOfDay / 60_000 % 60, at: 14)
            text[16] = 0x3A
            two(msOfDay / 1000 % 60, at: 17)
            text[19] = 0x2E
            text[20] = UInt8(truncatingIfNeeded: 48 + msOfDay % 1000 / 100)
            two(msOfDay % 100, at: 21)
            text[23] = 0x5A
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// Parses exactly `YYYY-MM-DDTHH:MM:SS.sssZ` from raw bytes.
    package static func parse(_ b: UnsafeRawBufferPointer) -> Timestamp? {
        guard b.count == 24, b[4] == 0x2D, b[7] == 0x2D, let time = millisecondsOfDay(b) else { return nil }
        // Every digit read at once and checked together: every event has a timestamp, and a loop
        // per field cost more than the rest of a line's members.
        @inline(__always) func digit(_ i: Int) -> UInt8 { b[i] &- 48 }
        let y0 = digit(0), y1 = digit(1), y2 = digit(2), y3 = digit(3), mo0 = digit(5), mo1 = digit(6), d0 = digit(8), d1 = digit(9)
        guard max(y0, y1, y2, y3, mo0, mo1, d0, d1) < 10 else { return nil }
        let year = Int64(y0) * 1000 + Int64(y1) * 100 + Int64(y2) * 10 + Int64(y3)
        let month = Int64(mo0) * 10 + Int64(mo1), day = Int64(d0) * 10 + Int64(d1)
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        return Timestamp(millisecondsSince1970: daysFromCivil(year: year, month: month, day: day) * 86_400_000 + time)
    }

    /// The milliseconds since midnight of the `THH:MM:SS.sssZ` that follows a date in the 24 bytes
    /// of `b`; nil when they are not that.
    package static func millisecondsOfDay(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count == 24, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x2E, b[23] == 0x5A else { return nil }
        @inline(__always) func digit(_ i: Int) -> UInt8 { b[i] &- 48 }
        let h0 = digit(11), h1 = digit(12), mi0 = digit(14), mi1 = digit(15), s0 = digit(17), s1 = digit(18)
        let f0 = digit(20), f1 = digit(21), f2 = digit(22)
        guard max(h0, h1, mi0, mi1, s0, s1, f0, f1, f2) < 10 else { return nil }
        let hour = Int64(h0) * 10 + Int64(h1), minute = Int64(mi0) * 10 + Int64(mi1), second = Int64(s0) * 10 + Int64(s1)
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return ((hour * 60 + minute) * 60 + second) * 1000 + Int64(f0) * 100 + Int64(f1) * 10 + Int64(f2)
    }

    /// The milliseconds since the minute began of the `:SS.sssZ` that follows a minute in the 24
    /// bytes of `b`; nil when they are not that. The eight bytes are read as one word, its
    /// separators and digits checked together.
    @inline(__always) package static func millisecondsOfMinute(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count == 24 else { return nil }
        let word = b.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian   // ":SS.sssZ", from its low byte
        guard word & 0xFF00_0000_FF00_00FF == 0x5A00_0000_2E00_003A else { return nil }
        // The digits' values, each in its byte; a byte is a digit when its value is below 10,
        // which adding 0x76 leaves below 0x80.
        let values = (word ^ 0x0030_3030_0030_3000) & 0x00FF_FFFF_00FF_FF00
        guard (values &+ 0x0076_7676_0076_7600 | values) & 0x0080_8080_0080_8000 == 0 else { return nil }
        @inline(__always) func digit(_ byte: UInt64) -> Int64 { Int64(truncatingIfNeeded: values >> (8 * byte) & 0xFF) }
        guard digit(1) < 6 else { return nil }
        return (digit(1) * 10 + digit(2)) * 1000 + digit(4) * 100 + digit(5) * 10 + digit(6)
    }

    /// Parses exactly `YYYY-MM-DDTHH:MM:SS.sssZ` from a string's UTF-8.
    static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}
