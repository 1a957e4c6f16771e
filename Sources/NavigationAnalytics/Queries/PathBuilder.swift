/// Follows the paths of a log — the screen views of each (session, scene) in order — as views
/// stream in, handing each step to the queries built on paths.
struct PathBuilder {
    private struct Key: Hashable { var session: String, scene: String }
    /// The last `keep` screens of each open path, and how many views it has had.
    private var paths: [Key: (recent: [String], length: Int)] = [:]
    private let keep: Int
    private var session: String?

    init(keep: Int) { self.keep = max(1, keep) }

    /// Adds a view to its path; `body` gets the path's recent screens (this one last) and the
    /// view's 1-based position in the path.
    mutating func add(_ view: AnalyticsView, _ body: (_ recent: [String], _ position: Int) -> Void) {
        if view.session != session {   // a session's paths end when the next session begins
            paths.removeAll(keepingCapacity: true)
            session = view.session
        }
        let key = Key(session: view.session, scene: view.scene)
        var entry = paths.removeValue(forKey: key) ?? ([], 0)
        entry.recent.append(view.screen)
        if entry.recent.count > keep { entry.recent.removeFirst(entry.recent.count - keep) }
        entry.length += 1
        body(entry.recent, entry.length)
        paths[key] = entry
    }
}
