import NavigationHistory

/// Path cleaning: `REGEX=NAME` rules applied in order to every screen name before anything else
/// (PostHog's path cleaning). Each rule replaces every match of its pattern with its name, as SQL's
/// `regexp_replace(screen, REGEX, NAME, 'g')` does.
public struct PathCleaning: Sendable {
    private let rules: [(pattern: String, name: String)]

    /// No rules: names are kept.
    public init() { rules = [] }

    /// Rules written `REGEX=NAME` (the last `=` separates them).
    ///
    /// - Throws: ``NavigationHistoryError`` with code `invalidEvent` for a rule without `=` or with
    ///   a pattern that is not a regular expression.
    public init(rules texts: [String]) throws {
        rules = try texts.map { text in
            guard let equals = text.lastIndex(of: "=") else {
                throw NavigationHistoryError(code: .invalidEvent, message: "--alias '\(text)' is not REGEX=NAME")
            }
            let pattern = String(text[..<equals])
            do { _ = try Regex(pattern) } catch {
                throw NavigationHistoryError(code: .invalidEvent, message: "--alias '\(text)': not a regular expression (\(error))")
            }
            return (pattern, String(text[text.index(after: equals)...]))
        }
    }

    /// Whether there are rules at all.
    public var isEmpty: Bool { rules.isEmpty }

    /// A function that cleans names: the rules compiled once, each distinct name cleaned once.
    public func cleaner() -> (String) -> String {
        guard !rules.isEmpty else { return { $0 } }
        let compiled = rules.compactMap { rule in (try? Regex(rule.pattern)).map { ($0, rule.name) } }
        var memo: [String: String] = [:]
        return { screen in
            if let known = memo[screen] { return known }
            var name = screen
            for (regex, replacement) in compiled { name = name.replacing(regex, with: replacement) }
            memo[screen] = name
            return name
        }
    }
}
