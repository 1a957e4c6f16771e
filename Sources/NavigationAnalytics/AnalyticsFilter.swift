import NavigationHistory

/// Which screen views a query looks at: the common filters of every analytics query.
public struct AnalyticsFilter: Sendable, Hashable {
    /// Views that began at or after this moment.
    public var since: Timestamp?
    /// Views that began before this moment.
    public var until: Timestamp?
    /// Sessions of these app versions (empty: all).
    public var apps: Set<String>
    /// These sessions (empty: all).
    public var sessions: Set<String>
    /// These scenes (empty: all).
    public var scenes: Set<String>

    /// Creates a filter; by default every view passes.
    public init(since: Timestamp? = nil, until: Timestamp? = nil, apps: Set<String> = [], sessions: Set<String> = [], scenes: Set<String> = []) {
        self.since = since
        self.until = until
        self.apps = apps
        self.sessions = sessions
        self.scenes = scenes
    }

    /// Whether every view passes: no filter is set.
    public var admitsEverything: Bool {
        since == nil && until == nil && apps.isEmpty && sessions.isEmpty && scenes.isEmpty
    }

    /// Whether `view` passes.
    public func admits(_ view: AnalyticsView) -> Bool {
        admits(start: view.start, app: view.app, session: view.session, scene: view.scene)
    }

    /// Whether something that began at `start` in this app version, session and scene passes.
    public func admits(start: Timestamp, app: String?, session: String, scene: String) -> Bool {
        if let since, start < since { return false }
        if let until, !(start < until) { return false }
        if !apps.isEmpty, !(app.map { apps.contains($0) } ?? false) { return false }
        if !sessions.isEmpty, !sessions.contains(session) { return false }
        if !scenes.isEmpty, !scenes.contains(scene) { return false }
        return true
    }

    /// The filters in words, for the header of a text table.
    public var summary: String {
        var parts: [String] = []
        if let since { parts.append("since \(since)") }
        if let until { parts.append("until \(until)") }
        if !apps.isEmpty { parts.append("app " + apps.sorted().joined(separator: ",")) }
        if !sessions.isEmpty { parts.append("session " + sessions.sorted().joined(separator: ",")) }
        if !scenes.isEmpty { parts.append("scene " + scenes.sorted().joined(separator: ",")) }
        return parts.isEmpty ? "no filters" : parts.joined(separator: ", ")
    }
}
