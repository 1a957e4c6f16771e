/// The names closest to one a person typed that is not among the known ones: what a message says
/// after "did you mean".
///
/// Names are compared case-insensitively by their Damerau–Levenshtein distance (optimal string
/// alignment: an insertion, a deletion, a substitution or a swap of two neighbours each count
/// one), and a name is close when that distance is at most ``maximumDistance(for:)`` of the
/// typed text. A known name that begins with the typed text (of at least 3 characters) is close
/// too, after the others: a session id is a long random string of which one types the start.
///
/// ```swift
/// Suggestions.closest(to: "categroy", among: ["home", "category", "recipe"])   // ["category"]
/// Suggestions.closest(to: "rep", among: ["replay", "report", "repair", "verify"])   // ["repair", "replay", "report"]
/// ```
enum Suggestions {
    /// The known names of `names` closest to `typed`, at most `limit`, the closest first (ties in
    /// the order of the names' text); none is `typed` itself.
    ///
    /// - Complexity: O(n · m · k) for n names of at most m characters and `typed` of k, and much
    ///   less for names far from it: their lengths alone, or the first rows of the distance, rule
    ///   them out.
    static func closest(to typed: String, among names: some Sequence<String>, limit: Int = 3) -> [String] {
        guard limit > 0 else { return [] }
        let target = Array(typed.lowercased().unicodeScalars)
        let allowed = maximumDistance(for: target.count)
        var close: [(distance: Int, name: String)] = []
        for name in names where name != typed {
            let candidate = Array(name.lowercased().unicodeScalars)
            if let distance = distance(target, candidate, atMost: allowed) {
                close.append((distance, name))
            } else if target.count >= 3, candidate.starts(with: target) {
                close.append((allowed + 1, name))
            }
        }
        close.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        var suggested: [String] = []
        for (_, name) in close where !suggested.contains(name) {
            suggested.append(name)
            if suggested.count == limit { break }
        }
        return suggested
    }

    /// How far a name may be from a typed text of `length` characters to be suggested: 1 up to
    /// 5 characters, 2 up to 8, then 3. Beyond that, what is suggested has little to do with
    /// what was typed.
    static func maximumDistance(for length: Int) -> Int { min(3, max(1, length / 3)) }

    /// The optimal string alignment distance of `a` and `b`, nil when it is above `limit`.
    ///
    /// Only the cells at most `limit` from the table's diagonal are filled: any other is over
    /// `limit` by its place alone. And the rows' smallest cells never decrease, so once one is
    /// over `limit`, so is the distance.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let far = limit + 1   // any distance over the limit
        // Three rows of the table: the one before the last, the last, and the one being filled.
        var beforeLast = [Int](repeating: far, count: b.count + 1)
        var last = (0...b.count).map { min($0, far) }
        var row = [Int](repeating: far, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit), high = min(b.count, i + limit)
            row[0] = min(i, far)
            if low > 1 { row[low - 1] = far }
            var smallest = low == 1 ? row[0] : far
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, beforeLast[j - 2] + 1) }
                row[j] = min(value, far)
                smallest = min(smallest, row[j])
            }
            if high < b.count { row[high + 1] = far }   // the next row reads it as beyond the band
            if smallest > limit { return nil }
            (beforeLast, last, row) = (last, row, beforeLast)
        }
        return last[b.count] <= limit ? last[b.count] : nil
    }

    /// `names` as a message ends with them: `; did you mean 'a'?`, `'a' or 'b'?`, `'a', 'b' or
    /// 'c'?`; empty when there are none.
    static func phrase(_ names: [String]) -> String {
        guard let lastName = names.last else { return "" }
        let quoted = names.dropLast().map { "'\($0)'" }
        return "; did you mean " + (quoted.isEmpty ? "" : quoted.joined(separator: ", ") + " or ") + "'\(lastName)'?"
    }
}
