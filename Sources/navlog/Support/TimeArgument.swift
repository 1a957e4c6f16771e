import NavigationHistory

/// The one reading of a moment given on the command line (`--since`, `--until`, `state
/// --at-time`, `restore --now`).
///
/// A moment is written
///
/// - in RFC 3339, with or without seconds and a fraction, in UTC or at an offset:
///   `2027-01-01T09:30:00Z`, `2027-01-01T09:30:00.250Z`, `2027-01-01T10:30+01:00` (`t`, `z` and a
///   space for `T` are taken too). A fraction beyond the millisecond, up to nanoseconds, is cut
///   to the millisecond, the precision of the log's times;
/// - as a date alone, `2027-01-01`: its midnight in UTC;
/// - as how long ago, a duration as ``DurationArgument`` reads it: `7d` is 7 days before the
///   present moment, `36h`, `90m`; and `now`, the present moment.
///
/// What could be read two ways is refused, saying what to write: a time without a zone
/// (`2027-01-01T10:00`: add `Z` or an offset), a date not in `YYYY-MM-DD` (`2027-1-1`,
/// `01/02/2027`), an offset not in `±HH:MM`, a signed relative time (`-7d`), a number without
/// a unit (`10`).
enum TimeArgument {
    /// The forms of a moment, for help texts and messages.
    static let forms = "2027-01-01T09:30:00Z, 2027-01-01T10:30+01:00, 2027-01-01 (midnight UTC) or 7d (7 days ago)"

    /// The paragraph of a help text that says how a TIME is written.
    static let help = """
        TIME is RFC 3339, 2027-01-01T09:30:00Z, with or without seconds and a fraction (cut to the
        millisecond), in UTC (Z) or at an offset (2027-01-01T10:30+01:00); a date alone,
        2027-01-01, its midnight in UTC; or how long before the present moment, as a DURATION:
        7d, 36h, 90m; or now. A time without Z or an offset, or a date not written YYYY-MM-DD, is
        refused: it could be read several ways.
        """

    /// The moment `text`, given to `option`, says; a relative one is before `now`.
    ///
    /// - Throws: A ``UsageError`` naming the option and the value, saying what is wrong and
    ///   what to write instead.
    static func parse(_ text: String, option: String, now: Timestamp = .now) throws -> Timestamp {
        func refuse(_ why: String) -> UsageError { UsageError("\(option) '\(text)': \(why)") }
        let b = Array(text.utf8)
        guard let first = b.first else { throw refuse("give a time, such as \(forms)") }
        if text == "now" { return now }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            throw refuse("a relative time is how long ago, without a sign: \(String(text.dropFirst())) is that long before now")
        }
        // A date has a hyphen after its digits; a relative time has none.
        guard let dash = b.firstIndex(of: UInt8(ascii: "-")), b[..<dash].allSatisfy(isDigit) else {
            if b.contains(UInt8(ascii: "/")) { throw refuse("write a date as YYYY-MM-DD, such as 2027-01-02") }
            guard isDigit(first) else { throw refuse("give a time, such as \(forms)") }
            if b.allSatisfy(isDigit) {
                throw refuse("give a unit for how long ago, such as \(text)d or \(text)h, or a date, such as 2027-01-01")
            }
            let ago = try DurationArgument.milliseconds(text, option: option)
            return Timestamp(millisecondsSince1970: now.millisecondsSince1970 - ago)
        }
        let (days, rest) = try date(b, dash: dash, refuse)
        guard rest < b.count else { return Timestamp(millisecondsSince1970: days * 86_400_000) }
        guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(b[rest]) else {
            throw refuse("write the time after a T, such as \(String(decoding: b[..<rest], as: UTF8.self))T09:30:00Z")
        }
        let (time, zoneStart) = try timeOfDay(b, from: rest + 1, refuse)
        guard zoneStart < b.count else {
            throw refuse("add Z (UTC) or an offset, such as \(text)Z or \(text)+01:00")
        }
        let offset = try zone(b, from: zoneStart, refuse)
        let moment = days * 86_400_000 + time - offset
        guard moment >= earliest, moment <= latest else { throw refuse("the moment is outside the years 0000 to 9999") }
        return Timestamp(millisecondsSince1970: moment)
    }

    /// The first and last millisecond a timestamp can write.
    private static let earliest = Timestamp.daysFromCivil(year: 0, month: 1, day: 1) * 86_400_000
    private static let latest = (Timestamp.daysFromCivil(year: 9999, month: 12, day: 31) + 1) * 86_400_000 - 1

    /// The days since 1970 of the date `YYYY-MM-DD` at the start of `b`, whose first hyphen is at
    /// `dash`, and where the date ends.
    private static func date(_ b: [UInt8], dash: Int, _ refuse: (String) -> UsageError) throws -> (Int64, Int) {
        var end = dash + 1
        while end < b.count, isDigit(b[end]) || b[end] == UInt8(ascii: "-") { end += 1 }
        let fields = b[..<end].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2 else {
            throw refuse("write a date as YYYY-MM-DD, with four digits for the year and two for the month and the day, such as 2027-01-02")
        }
        let (year, month, day) = (number(fields[0]), number(fields[1]), number(fields[2]))
        guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year) else {
            throw refuse("there is no such date")
        }
        return (Timestamp.daysFromCivil(year: year, month: month, day: day), end)
    }

    /// The milliseconds since midnight of `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fraction` from `start`
    /// in `b`, and where it ends.
    private static func timeOfDay(_ b: [UInt8], from start: Int, _ refuse: (String) -> UsageError) throws -> (Int64, Int) {
        func twoDigits(at k: Int) -> Int64? {
            guard k + 1 < b.count, isDigit(b[k]), isDigit(b[k + 1]), k + 2 == b.count || !isDigit(b[k + 2]) else { return nil }
            return number(b[k...k + 1])
        }
        let shape = "write the time as HH:MM:SS, with two digits each, such as 09:30:00"
        guard let hour = twoDigits(at: start), start + 2 < b.count, b[start + 2] == UInt8(ascii: ":"),
              let minute = twoDigits(at: start + 3) else { throw refuse(shape) }
        var k = start + 5
        var second: Int64 = 0, fraction: Int64 = 0
        if k < b.count, b[k] == UInt8(ascii: ":") {
            guard let found = twoDigits(at: k + 1) else { throw refuse(shape) }
            second = found
            k += 3
            if k < b.count, b[k] == UInt8(ascii: ".") || b[k] == UInt8(ascii: ",") {
                let digits = k + 1
                k = digits
                while k < b.count, isDigit(b[k]) { k += 1 }
                guard (1...9).contains(k - digits) else {
                    throw refuse("give the fraction of a second with 1 to 9 digits, such as 09:30:00.250")
                }
                // Cut to the millisecond: the digits after the third are dropped.
                let kept = b[digits..<min(k, digits + 3)]
                fraction = number(kept) * [100, 10, 1][kept.count - 1]
            }
        }
        guard hour < 24, minute < 60, second < 60 else { throw refuse("hours go from 00 to 23, minutes and seconds from 00 to 59") }
        return (((hour * 60 + minute) * 60 + second) * 1000 + fraction, k)
    }

    /// The offset from UTC, in milliseconds, of the zone from `start` to the end of `b`: `Z` or
    /// `±HH:MM`.
    private static func zone(_ b: [UInt8], from start: Int, _ refuse: (String) -> UsageError) throws -> Int64 {
        let zone = b[start...]
        if zone.elementsEqual([UInt8(ascii: "Z")]) || zone.elementsEqual([UInt8(ascii: "z")]) { return 0 }
        let sign: Int64? = switch b[start] {
        case UInt8(ascii: "+"): 1
        case UInt8(ascii: "-"): -1
        default: nil
        }
        guard let sign, zone.count == 6, isDigit(b[start + 1]), isDigit(b[start + 2]), b[start + 3] == UInt8(ascii: ":"),
              isDigit(b[start + 4]), isDigit(b[start + 5]) else {
            throw refuse("end the time with Z (UTC) or an offset written ±HH:MM, such as +01:00 or -05:00")
        }
        let hours = number(b[start + 1...start + 2]), minutes = number(b[start + 4...start + 5])
        guard hours < 24, minutes < 60 else { throw refuse("an offset's hours go from 00 to 23, its minutes from 00 to 59") }
        return sign * (hours * 60 + minutes) * 60_000
    }

    private static func number(_ digits: some Collection<UInt8>) -> Int64 {
        digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
