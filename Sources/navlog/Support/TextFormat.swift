/// Numbers as a person reads them, for text output only: JSON and CSV keep exact numbers in
/// machine units (integer milliseconds, rates as percentages exact from basis points: ``Percent``),
/// which is what programs and the SQL compare.
///
/// Every rounding is half up, and a value that rounds up to the next unit is shown in it:
/// 59,950 ms is `1 min`, not `60.0 s`.
enum TextFormat {
    /// A count with thousands separators: `47,046,899`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (k, digit) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A duration: `0 ms`…`999 ms`, then `1.0 s`…`59.9 s`, `1 min 5 s`, `1 h 3 min`, `2 d 4 h`;
    /// a zero part is left out (`1 h`).
    static func duration(milliseconds ms: Int64) -> String {
        if ms < 0 { return "-" + duration(milliseconds: ms == .min ? .max : -ms) }
        if ms < 1000 { return "\(ms) ms" }
        let tenths = rounded(ms, 100)
        if tenths < 600 { return "\(tenths / 10).\(tenths % 10) s" }
        let seconds = rounded(ms, 1000)
        if seconds < 3600 { return parts(seconds / 60, "min", seconds % 60, "s") }
        let minutes = rounded(ms, 60_000)
        if minutes < 24 * 60 { return parts(minutes / 60, "h", minutes % 60, "min") }
        let hours = rounded(ms, 3_600_000)
        return parts(hours / 24, "d", hours % 24, "h")
    }

    /// `duration` as ``duration(milliseconds:)`` shows it, to the millisecond below.
    static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return self.duration(milliseconds: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// A rate given in basis points, as a percentage with one decimal: 8205 is `82.1 %`.
    static func rate(basisPoints: Int) -> String {
        let tenths = Int(rounded(Int64(basisPoints.magnitude), 10))
        return (basisPoints < 0 ? "-" : "") + "\(count(tenths / 10)).\(tenths % 10) %"
    }

    /// `value` divided by `unit`, rounded half up; `value` is not negative.
    private static func rounded(_ value: Int64, _ unit: Int64) -> Int64 {
        value / unit + (value % unit * 2 >= unit ? 1 : 0)
    }

    /// `5 min 3 s`, or `5 min` when the smaller part is 0.
    private static func parts(_ large: Int64, _ largeUnit: String, _ small: Int64, _ smallUnit: String) -> String {
        small == 0 ? "\(count(Int(large))) \(largeUnit)" : "\(count(Int(large))) \(largeUnit) \(small) \(smallUnit)"
    }
}
