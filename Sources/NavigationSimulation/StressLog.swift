import NavigationHistory

/// Logs shaped to find work that grows faster than the log: for the tests and the benchmark that
/// check that reading, replaying and reporting them takes time in proportion to their events.
package enum StressLog: Sendable {
    /// One session that opens `n` scenes, follows a deep link in each, then navigates a little in
    /// each, in turns, and closes every other one.
    case manyScenes(Int)
    /// One session of one scene and `n` pushes onto its stack.
    case deepStack(Int)
    /// One session of one scene that presents `n` / 2 sheets, each over the last, then dismisses
    /// them one by one.
    case stackedSheets(Int)
    /// `sessions` sessions of one scene, each `pushes` pushes deep, ended cleanly.
    case longSessions(sessions: Int, pushes: Int)
    /// One session that opens `n` / 2 scenes one after another, each closed before the next opens.
    case sceneChurn(Int)

    /// The log's events, numbered from 1, 7 ms apart.
    package var events: [NavigationEvent] {
        var actions: [(session: String, action: NavigationAction)] = []
        func add(_ action: NavigationAction, _ session: String = "s1") { actions.append((session, action)) }
        func route(_ screen: String, _ k: Int) -> Route { Route(screen: screen, id: String(k)) }
        switch self {
        case .manyScenes(let n):
            add(.sessionStart(app: "1.0", launch: .cold, meta: nil))
            for k in 0..<n { add(.sceneOpen(scene: "scene\(k)", kind: "window")) }
            for k in 0..<n {
                add(.tabSelect(scene: "scene\(k)", tab: "home"))
                add(.deeplink(scene: "scene\(k)", url: "app://recipe/\(k)", outcome: .resolved, tab: "home", stack: "home",
                              path: [route("recipe", k)]))
            }
            for _ in 0..<2 {
                for k in 0..<n {
                    add(.sceneActivate(scene: "scene\(k)"))
                    add(.push(scene: "scene\(k)", stack: "home", route: route("reviews", k)))
                    add(.pop(scene: "scene\(k)", stack: "home", count: 1))
                }
            }
            for k in stride(from: 0, to: n, by: 2) { add(.sceneClose(scene: "scene\(k)", kind: nil)) }
        case .deepStack(let n):
            add(.sessionStart(app: "1.0", launch: .cold, meta: nil))
            add(.sceneOpen(scene: "main", kind: nil))
            for k in 0..<n { add(.push(scene: "main", stack: "main", route: route("recipe", k))) }
        case .stackedSheets(let n):
            add(.sessionStart(app: "1.0", launch: .cold, meta: nil))
            add(.sceneOpen(scene: "main", kind: nil))
            for k in 0..<n / 2 { add(.sheetPresent(scene: "main", sheet: "sheet\(k)", route: route("detail", k), style: nil)) }
            for _ in 0..<n / 2 { add(.sheetDismiss(scene: "main", sheet: nil)) }
        case .longSessions(let sessions, let pushes):
            for s in 0..<sessions {
                add(.sessionStart(app: "1.0", launch: .cold, meta: nil), "s\(s)")
                add(.sceneOpen(scene: "main", kind: nil), "s\(s)")
                for k in 0..<pushes { add(.push(scene: "main", stack: "main", route: route("recipe", k)), "s\(s)") }
                add(.sessionEnd(reason: nil), "s\(s)")
            }
        case .sceneChurn(let n):
            add(.sessionStart(app: "1.0", launch: .cold, meta: nil))
            for k in 0..<n / 2 {
                add(.sceneOpen(scene: "scene\(k)", kind: "window"))
                add(.sceneClose(scene: "scene\(k)", kind: nil))
            }
        }
        let start: Int64 = 1_800_000_000_000
        return actions.enumerated().map { k, pair in
            NavigationEvent(seq: k + 1, timestamp: Timestamp(millisecondsSince1970: start + Int64(k) * 7), session: pair.session, action: pair.action)
        }
    }

    /// Writes the log as one `.jsonl` file at `path`, its lines as the store encodes them.
    package func write(to path: String) throws {
        var bytes: [UInt8] = []
        for event in events { bytes += LineEncoder.encode(event) }
        try FileSystem.writeNewFile(path, bytes, sync: false)
    }
}
