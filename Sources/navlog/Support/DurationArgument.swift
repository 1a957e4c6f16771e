/// The one reading of a duration given on the command line (`--idle`, `--window`, `--within`,
/// `restore --crash-window` and `--max-age`, and a relative time, see ``TimeArgument``).
///
/// A duration is whole numbers each followed by its unit, the largest unit first and each at
/// most once: `500ms`, `90s`, `30m` or `30min`, `1h30m`, `7d`, `2w`. Units are `ms`, `s`, `m`
/// (or `min`), `h`, `d` and `w`. What could be read two ways is refused, with the forms meant:
///
/// - a number without a unit, `10` (unless the option is in seconds: ``parse(_:option:bareUnit:)``);
/// - `1M` (minutes or months?), and any unit in capitals;
/// - a unit without a number (`m`), a fraction (`1.5h`: write `1h30m`), a sign, spaces, units
///   out of order or repeated (`30m1h`), a unit of no fixed length (months, years: write `30d`);
/// - anything longer than a century.
enum DurationArgument {
    /// The units, largest first, each with its names and its length in milliseconds.
    static let units: [(names: [String], milliseconds: Int64)] = [
        (["w"], 604_800_000), (["d"], 86_400_000), (["h"], 3_600_000), (["m", "min"], 60_000), (["s"], 1000), (["ms"], 1),
    ]

    /// The longest duration taken: nothing longer makes sense, and no sum of units overflows.
    static let limit: Int64 = 100 * 365 * 86_400_000

    /// The forms of a duration, for help texts and messages.
    static let forms = "90s, 30m, 1h30m or 7d"

    /// The paragraph of a help text that says how a DURATION is written.
    static let help = """
        DURATION is whole numbers each with its unit, the largest first: 500ms, 90s, 30m (or
        30min), 1h30m, 7d, 2w (units ms, s, m or min, h, d, w). A number without a unit (10),
        1M (minutes or months?), a fraction (1.5h: write 1h30m) and units in capitals are
        refused: they could be read several ways.
        """

    /// The duration `text` given to `option` says.
    ///
    /// - Parameter bareUnit: What a number without a unit counts, for an option whose value is
    ///   named in that unit (`--max-age SECONDS`); nil refuses it, as it could mean any unit.
    /// - Throws: A ``UsageError`` naming the option and the value, saying what is wrong and what
    ///   to write instead.
    static func parse(_ text: String, option: String, bareUnit: Int64? = nil) throws -> Duration {
        .milliseconds(try milliseconds(text, option: option, bareUnit: bareUnit))
    }

    /// ``parse(_:option:bareUnit:)`` in milliseconds.
    static func milliseconds(_ text: String, option: String, bareUnit: Int64? = nil) throws -> Int64 {
        func refuse(_ why: String) -> UsageError { UsageError("\(option) '\(text)': \(why)") }
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw refuse("give a duration, such as \(forms)") }
        if bytes.allSatisfy(isDigit) {
            guard let unit = bareUnit else { throw refuse("give a unit, such as \(text)s, \(text)m, \(text)h or \(text)d") }
            return try total([(number(bytes[...]), unit)], refuse)
        }
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            throw refuse("a duration has no sign; write \(String(text.dropFirst()))")
        }
        if bytes.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
            throw refuse("write it without spaces, such as \(text.filter { $0 != " " && $0 != "\t" })")
        }
        if let dot = bytes.firstIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }), dot > 0, isDigit(bytes[dot - 1]) {
            throw refuse("write whole numbers, a smaller unit for the fraction: 1h30m, not 1.5h; 1500ms, not 1.5s")
        }
        var parts: [(Int64, Int64)] = []
        var rank = -1
        var k = 0
        while k < bytes.count {
            let digits = k
            while k < bytes.count, isDigit(bytes[k]) { k += 1 }
            let letters = k
            while k < bytes.count, isLetter(bytes[k]) { k += 1 }
            let unit = String(decoding: bytes[letters..<k], as: UTF8.self)
            if unit.isEmpty {
                guard k < bytes.count else {
                    let count = String(decoding: bytes[digits...], as: UTF8.self)
                    throw refuse("give a unit after \(count), such as \(text)m or \(text)s")
                }
                throw refuse(unknown(String(decoding: bytes[k...], as: UTF8.self)))
            }
            guard let found = units.firstIndex(where: { $0.names.contains(unit) }) else { throw refuse(unknown(unit)) }
            guard letters > digits else { throw refuse("give a number before the unit, such as 1\(unit)") }
            guard found > rank else {
                throw refuse("give each unit once, the largest first, such as 1h30m or 2m30s")
            }
            rank = found
            parts.append((try number(bytes[digits..<letters]), units[found].milliseconds))
        }
        return try total(parts, refuse)
    }

    /// The message for a unit that is not one: `M` could be minutes or months, capitals are not
    /// units, months and years have no fixed length.
    private static func unknown(_ unit: String) -> String {
        let names = "ms, s, m (or min), h, d or w"
        if unit == "M" { return "M could be minutes or months: write m for minutes, such as 30m, and days for a month, such as 30d" }
        if units.contains(where: { $0.names.contains(unit.lowercased()) }) { return "units are lowercase: \(unit.lowercased()), not \(unit)" }
        switch unit.lowercased() {
        case "mo", "mon", "month", "months": return "a month has no fixed length: write days, such as 30d"
        case "y", "yr", "year", "years": return "a year has no fixed length: write days, such as 365d"
        default: return "unknown unit '\(unit)': the units are \(names)"
        }
    }

    /// The number `digits` say, or a refusal past the limit.
    private static func number(_ digits: ArraySlice<UInt8>) throws -> Int64 {
        var value: Int64 = 0
        for digit in digits {
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
            if value > limit { return limit + 1 }
        }
        return value
    }

    /// The sum of `parts`, each a number of a unit; a refusal past a century.
    private static func total(_ parts: [(Int64, Int64)], _ refuse: (String) -> UsageError) throws -> Int64 {
        var sum: Int64 = 0
        for (count, unit) in parts {
            let (product, overflow) = count.multipliedReportingOverflow(by: unit)
            guard !overflow, product <= limit - sum else { throw refuse("longer than a century, the longest duration taken") }
            sum += product
        }
        return sum
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
}
