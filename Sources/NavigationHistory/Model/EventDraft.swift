/// An event before the store numbers it: what happened, in which session, and when.
///
/// ```swift
/// let draft = EventDraft(action: .tabSelect(scene: "main", tab: "search"), session: "s1")
/// ```
public struct EventDraft: Sendable, Hashable {
    /// What happens.
    public var action: NavigationAction
    /// The session it belongs to.
    public var session: String
    /// When it happens.
    public var timestamp: Timestamp

    /// Creates a draft; by default it happens now.
    public init(action: NavigationAction, session: String, timestamp: Timestamp = .now) {
        self.action = action
        self.session = session
        self.timestamp = timestamp
    }
}
