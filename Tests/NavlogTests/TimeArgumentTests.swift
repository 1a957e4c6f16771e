import Testing
import NavigationHistory
@testable import navlog

/// Times and durations are read as people write them, and what could be read two ways is refused
/// with the form meant.
@Suite struct TimeArgumentTests {
    /// The present moment of the relative cases: 2027-03-10T12:00:00.000Z.
    static let now = Timestamp("2027-03-10T12:00:00.000Z")!

    @Test(arguments: [
        ("2027-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"),
        ("2027-01-01T00:00:00Z", "2027-01-01T00:00:00.000Z"),
        ("2027-01-01T09:30Z", "2027-01-01T09:30:00.000Z"),
        ("2027-01-01t09:30:15z", "2027-01-01T09:30:15.000Z"),
        ("2027-01-01 09:30:15Z", "2027-01-01T09:30:15.000Z"),
        ("2027-01-01T09:30:15.5Z", "2027-01-01T09:30:15.500Z"),
        ("2027-01-01T09:30:15.25Z", "2027-01-01T09:30:15.250Z"),
        ("2027-01-01T09:30:15.123456789Z", "2027-01-01T09:30:15.123Z"),
        ("2027-01-01T09:30:15.999999Z", "2027-01-01T09:30:15.999Z"),
        ("2027-01-01T09:30:15,5Z", "2027-01-01T09:30:15.500Z"),
        ("2027-01-01T10:30:00+01:00", "2027-01-01T09:30:00.000Z"),
        ("2027-01-01T00:30:00+01:00", "2026-12-31T23:30:00.000Z"),
        ("2026-12-31T19:00:00-05:00", "2027-01-01T00:00:00.000Z"),
        ("2027-01-01T05:45:00+05:45", "2027-01-01T00:00:00.000Z"),
        ("2027-01-01T00:00:00-00:00", "2027-01-01T00:00:00.000Z"),
        ("2027-01-01", "2027-01-01T00:00:00.000Z"),
        ("2028-02-29", "2028-02-29T00:00:00.000Z"),
        ("2000-02-29T23:59:59.999Z", "2000-02-29T23:59:59.999Z"),
        ("now", "2027-03-10T12:00:00.000Z"),
        ("7d", "2027-03-03T12:00:00.000Z"),
        ("36h", "2027-03-09T00:00:00.000Z"),
        ("90m", "2027-03-10T10:30:00.000Z"),
        ("1h30m", "2027-03-10T10:30:00.000Z"),
        ("2w", "2027-02-24T12:00:00.000Z"),
        ("500ms", "2027-03-10T11:59:59.500Z"),
        ("0s", "2027-03-10T12:00:00.000Z"),
    ])
    func aTimeIsRFC3339ADateAloneOrHowLongAgo(text: String, expected: String) throws {
        #expect(try TimeArgument.parse(text, option: "--since", now: Self.now).description == expected)
    }

    @Test(arguments: [
        ("", "give a time, such as 2027-01-01T09:30:00Z"),
        ("2027-01-01T10:00", "add Z (UTC) or an offset, such as 2027-01-01T10:00Z or 2027-01-01T10:00+01:00"),
        ("2027-01-01T10:00:00", "add Z (UTC) or an offset, such as 2027-01-01T10:00:00Z"),
        ("2027-01-01T10:00:00.123", "add Z (UTC) or an offset"),
        ("2027-1-1", "write a date as YYYY-MM-DD"),
        ("27-01-01", "write a date as YYYY-MM-DD"),
        ("2027-01", "write a date as YYYY-MM-DD"),
        ("2027-01-01-02", "write a date as YYYY-MM-DD"),
        ("01/02/2027", "write a date as YYYY-MM-DD, such as 2027-01-02"),
        ("2027-02-29", "there is no such date"),
        ("2027-13-01", "there is no such date"),
        ("2027-04-31", "there is no such date"),
        ("2027-01-00", "there is no such date"),
        ("2027-01-01X10:00Z", "write the time after a T, such as 2027-01-01T09:30:00Z"),
        ("2027-01-01T9:30Z", "write the time as HH:MM:SS, with two digits each"),
        ("2027-01-01T09Z", "write the time as HH:MM:SS"),
        ("2027-01-01T09:3Z", "write the time as HH:MM:SS"),
        ("2027-01-01T09:30:1Z", "write the time as HH:MM:SS"),
        ("2027-01-01T24:00:00Z", "hours go from 00 to 23, minutes and seconds from 00 to 59"),
        ("2027-01-01T23:60:00Z", "hours go from 00 to 23"),
        ("2027-01-01T23:59:60Z", "hours go from 00 to 23"),
        ("2027-01-01T09:30:00.Z", "give the fraction of a second with 1 to 9 digits"),
        ("2027-01-01T09:30:00.1234567890Z", "give the fraction of a second with 1 to 9 digits"),
        ("2027-01-01T09:30:00+0100", "an offset written ±HH:MM, such as +01:00 or -05:00"),
        ("2027-01-01T09:30:00+01", "an offset written ±HH:MM"),
        ("2027-01-01T09:30:00UTC", "end the time with Z (UTC) or an offset"),
        ("2027-01-01T09:30:00 Z", "end the time with Z (UTC) or an offset"),
        ("2027-01-01T09:30:00+24:00", "an offset's hours go from 00 to 23"),
        ("2027-01-01T09:30:00+01:60", "an offset's hours go from 00 to 23, its minutes from 00 to 59"),
        ("0000-01-01T00:00:00+01:00", "the moment is outside the years 0000 to 9999"),
        ("9999-12-31T23:30:00-01:00", "the moment is outside the years 0000 to 9999"),
        ("-7d", "a relative time is how long ago, without a sign: 7d is that long before now"),
        ("+7d", "a relative time is how long ago, without a sign"),
        ("10", "give a unit for how long ago, such as 10d or 10h, or a date, such as 2027-01-01"),
        ("2027", "give a unit for how long ago, such as 2027d"),
        ("1M", "M could be minutes or months"),
        ("7D", "units are lowercase: d, not D"),
        ("1.5d", "write whole numbers"),
        ("yesterday", "give a time, such as 2027-01-01T09:30:00Z"),
        ("soon", "give a time"),
    ])
    func anAmbiguousOrMalformedTimeIsRefusedSayingWhatToWrite(text: String, reason: String) {
        #expect {
            try TimeArgument.parse(text, option: "--since", now: Self.now)
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.message.hasPrefix("--since '\(text)': ") && usage.message.contains(reason) && !usage.message.contains("\n")
        }
    }

    @Test(arguments: [
        ("500ms", 500), ("90s", 90_000), ("30m", 1_800_000), ("30min", 1_800_000), ("1h", 3_600_000), ("1h30m", 5_400_000),
        ("1h30min", 5_400_000), ("2m30s", 150_000), ("1s500ms", 1500), ("7d", 604_800_000), ("1d12h", 129_600_000),
        ("2w", 1_209_600_000), ("1w2d3h4m5s6ms", 788_645_006), ("0s", 0), ("0ms", 0), ("36500d", 3_153_600_000_000),
        ("007s", 7000),
    ] as [(String, Int64)])
    func aDurationIsWholeNumbersEachWithItsUnitTheLargestFirst(text: String, milliseconds: Int64) throws {
        #expect(try DurationArgument.milliseconds(text, option: "--window") == milliseconds)
        #expect(try DurationArgument.parse(text, option: "--window") == .milliseconds(milliseconds))
    }

    @Test(arguments: [
        ("", "give a duration, such as 90s, 30m, 1h30m or 7d"),
        ("10", "give a unit, such as 10s, 10m, 10h or 10d"),
        ("0", "give a unit, such as 0s"),
        ("1M", "M could be minutes or months: write m for minutes, such as 30m, and days for a month, such as 30d"),
        ("1H", "units are lowercase: h, not H"),
        ("5S", "units are lowercase: s, not S"),
        ("500MS", "units are lowercase: ms, not MS"),
        ("30Min", "units are lowercase: min, not Min"),
        ("m", "give a number before the unit, such as 1m"),
        ("h30m", "give a number before the unit, such as 1h"),
        ("1h30", "give a unit after 30, such as 1h30m or 1h30s"),
        ("1.5h", "write whole numbers, a smaller unit for the fraction: 1h30m, not 1.5h"),
        ("0,5s", "write whole numbers"),
        ("-5s", "a duration has no sign; write 5s"),
        ("+5s", "a duration has no sign"),
        ("1h 30m", "write it without spaces, such as 1h30m"),
        ("30m1h", "give each unit once, the largest first, such as 1h30m or 2m30s"),
        ("1m1m", "give each unit once, the largest first"),
        ("30m30min", "give each unit once"),
        ("1mo", "a month has no fixed length: write days, such as 30d"),
        ("2months", "a month has no fixed length"),
        ("1y", "a year has no fixed length: write days, such as 365d"),
        ("3hours", "unknown unit 'hours': the units are ms, s, m (or min), h, d or w"),
        ("10%", "unknown unit '%'"),
        ("10µs", "unknown unit 'µs'"),
        ("soon", "unknown unit 'soon'"),
        ("36501d", "longer than a century, the longest duration taken"),
        ("99999999999999d", "longer than a century"),
        ("9223372036854775807ms", "longer than a century"),
        ("99999999999999999999999s", "longer than a century"),
        ("36500d1ms", "longer than a century"),
    ])
    func anAmbiguousOrMalformedDurationIsRefusedSayingWhatToWrite(text: String, reason: String) {
        #expect {
            try DurationArgument.parse(text, option: "--window")
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.message.hasPrefix("--window '\(text)': ") && usage.message.contains(reason) && !usage.message.contains("\n")
        }
    }

    /// An option whose value was always in seconds (`restore --max-age SECONDS`) keeps a number
    /// alone as seconds, and takes units too.
    @Test func aNumberAloneIsSecondsWhereTheOptionIsInSeconds() throws {
        #expect(try DurationArgument.parse("604800", option: "--max-age", bareUnit: 1000) == .seconds(604_800))
        #expect(try DurationArgument.parse("7d", option: "--max-age", bareUnit: 1000) == .seconds(604_800))
        #expect(throws: UsageError.self) { try DurationArgument.parse("9999999999999", option: "--max-age", bareUnit: 1000) }
    }
}
