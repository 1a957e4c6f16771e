/// A JSON value as read from a log line, members kept in their original order.
///
/// Events of a type this version does not know are kept as their members, so a tool can print them
/// again unchanged (forward compatibility).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its JSON text (e.g. `1`, `-0.5`, `1e3`) so nothing is lost to rounding.
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array of values, in order.
    case array([JSONValue])
    /// An object, its members in the order of the line.
    case object([JSONMember])

    /// The value of the first member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
