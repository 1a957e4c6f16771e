import NavigationHistory

/// Deep-link URL patterns and the routes they open, parents first.
///
/// A pattern is `scheme://first/segments/:capture/...`; `:name` segments capture a percent-decoded
/// value. Its builder turns the captures into routes, parents first, each nil when that item does
/// not exist: the link is then `partial` and opens the routes before the first nil. A URL that
/// matches no pattern, is longer than 2 KiB, or has malformed percent-encoding is `unmatched`.
///
/// ```swift
/// var links = DeepLinkTable<AppRoute>()
/// links.add("recipes://category/:name/recipe/:id", tab: "home") { captures in
///     [AppRoute(screen: "category", id: captures["name"], params: nil),
///      AppRoute(screen: "recipe", id: captures["id"], params: nil)]
/// }
/// ```
public struct DeepLinkTable<R: NavigationRoute>: Sendable {
    /// The longest URL looked at, in bytes.
    public static var maximumURLLength: Int { 2048 }

    /// What a URL matched.
    public struct Match: Sendable {
        /// Whether every segment resolved, some did not, or the URL matched no pattern.
        public var outcome: DeepLinkOutcome
        /// The tab and stack the pattern names, if any.
        public var tab: String?, stack: String?
        /// The routes to open, parents first (those before the first that did not resolve).
        public var routes: [R]
    }

    private struct Pattern: Sendable {
        var scheme: String
        var segments: [String]
        var tab: String?, stack: String?
        var build: @Sendable ([String: String]) -> [R?]
    }

    private var patterns: [Pattern] = []

    /// Creates an empty table.
    public init() {}

    /// Adds a pattern, tried after the ones added before it.
    ///
    /// - Parameters:
    ///   - pattern: `scheme://segment/:capture/...`.
    ///   - tab: The tab the link selects, if any.
    ///   - stack: The stack it sets (by default the tab's, else the current one).
    ///   - build: The routes for the captures, parents first; nil for one that does not resolve.
    public mutating func add(_ pattern: String, tab: String? = nil, stack: String? = nil,
                             _ build: @escaping @Sendable ([String: String]) -> [R?]) {
        guard let (scheme, segments) = Self.split(pattern) else { preconditionFailure("not a deep-link pattern: \(pattern)") }
        patterns.append(Pattern(scheme: scheme, segments: segments, tab: tab, stack: stack, build: build))
    }

    /// Matches a URL against the patterns, in order.
    public func match(_ url: String) -> Match {
        let unmatched = Match(outcome: .unmatched, tab: nil, stack: nil, routes: [])
        guard url.utf8.count <= Self.maximumURLLength, let (scheme, raw) = Self.split(url) else { return unmatched }
        var segments: [String] = []
        for segment in raw {
            guard let decoded = Self.percentDecoded(segment) else { return unmatched }
            segments.append(decoded)
        }
        for pattern in patterns where pattern.scheme == scheme && pattern.segments.count == segments.count {
            var captures: [String: String] = [:]
            var matches = true
            for (expected, actual) in zip(pattern.segments, segments) {
                if expected.hasPrefix(":") {
                    guard !actual.isEmpty else { matches = false; break }
                    captures[String(expected.dropFirst())] = actual
                } else if expected != actual {
                    matches = false
                    break
                }
            }
            guard matches else { continue }
            let built = pattern.build(captures)
            let resolved = Array(built.prefix { $0 != nil }.compactMap { $0 })
            let outcome: DeepLinkOutcome = resolved.count == built.count ? .resolved : .partial
            return Match(outcome: outcome, tab: pattern.tab, stack: pattern.stack, routes: resolved)
        }
        return unmatched
    }

    /// The scheme (lowercased) and the path segments after `scheme://`, the query and fragment left
    /// out; nil when the text is not of that form.
    private static func split(_ text: String) -> (String, [String])? {
        guard let colon = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<colon.lowerBound]
        guard !scheme.isEmpty, scheme.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || "+-.".unicodeScalars.contains($0) || ("0"..."9").contains($0) }) else {
            return nil
        }
        var rest = text[colon.upperBound...]
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        var segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        while segments.last == "" { segments.removeLast() }
        return (scheme.lowercased(), segments)
    }

    /// Percent-decodes one segment; nil when an escape is malformed or the bytes are not UTF-8.
    private static func percentDecoded(_ segment: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = segment.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hex), let low = utf8.next().flatMap(hex) else { return nil }
            bytes.append(high << 4 | low)
        }
        // String(validating:) needs macOS 15; the package's own validator works everywhere.
        guard UTF8Validation.isValid(bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
