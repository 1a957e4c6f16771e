/// What a redacted export or shipment leaves out; ``Redactor`` says what replaces a value.
///
/// Each promises that no such value of the log leaves it. A deep link's URL can carry route ids
/// and param values in its path and query, so every one of them also redacts deep-link URLs, as
/// `urls` does. Session ids, scenes, tabs, stacks, sheet ids, screens and times are kept.
public enum Redaction: String, Sendable, CaseIterable, Hashable {
    /// Route ids, wherever a route is: the id of every pushed, presented, selected, restored or
    /// snapshotted route, and deep-link URLs.
    case ids
    /// Route param values (their keys are kept), and deep-link URLs.
    case params
    /// Deep-link URLs: no userinfo, path segment, query or fragment is left.
    case urls
}
