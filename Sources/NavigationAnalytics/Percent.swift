/// A rate as navlog's JSON and CSV and the report's data write it: a percentage, exactly the
/// integer basis points divided by 100, in its shortest decimal form (9453 is `94.53`, 9450
/// `94.5`, 10000 `100`, 0 `0`). So the same log gives the same bytes, and a program reads the
/// number that `bp / 100.0` computes in SQL (both are the double nearest the exact quotient).
package enum Percent {
    /// `basisPoints` / 100 as a decimal: at most two decimals, no trailing zero, no point when whole.
    package static func text(basisPoints: Int64) -> String {
        let whole = basisPoints.magnitude / 100, hundredths = basisPoints.magnitude % 100
        let sign = basisPoints < 0 ? "-" : ""
        switch hundredths {
        case 0: return "\(sign)\(whole)"
        case let h where h % 10 == 0: return "\(sign)\(whole).\(h / 10)"
        case let h: return "\(sign)\(whole).\(h < 10 ? "0" : "")\(h)"
        }
    }
}
