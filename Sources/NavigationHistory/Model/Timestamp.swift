import Foundation

/// A moment in UTC with millisecond precision, written as RFC 3339 (`2026-11-29T12:00:00.123Z`).
///
/// The event format allows exactly one textual form — four-digit year, `T`, three fractional digits,
/// `Z` — so a timestamp round-trips byte for byte.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00.000Z.
    public var millisecondsSince1970: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Parses the RFC 3339 form of the event format, or returns nil.
    ///
    /// Accepts exactly `YYYY-MM-DDTHH:MM:SS.sssZ` with a valid calendar date (leap years included),
    /// hours 00–23, minutes and seconds 00–59.
    public init?(_ text: String) {
        guard let value = Timestamp.parse(text) else { return nil }
        self = value
    }

    /// The current time, to the millisecond.
    public static var now: Timestamp {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The RFC 3339 text, e.g. `2026-11-29T12:00:00.123Z`.
    public var description: String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The days in `month` (1–12) of `year`.
    package static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil and civil_from_days.

    /// The days since 1970-01-01 of a date in the proleptic Gregorian calendar.
    package static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The year, month and day of the date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
