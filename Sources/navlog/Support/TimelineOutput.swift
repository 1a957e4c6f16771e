import NavigationHistory

/// Opening a timeline with the options `state`, `replay` and `diff` share, and printing states.
enum TimelineOutput {
    static let options: Set<String> = ["--mode", "--interval"]
    static let flags: Set<String> = ["--no-index"]
    static let optionsHelp = """
          --mode MODE       Recovery mode, as in `navlog verify` (default tolerateTornTail).
          --interval K      Events between two states of the snapshot index (default 4096).
          --no-index        Do not read or write the index file beside the log; build it in memory.
        """

    /// Opens the timeline of `path`, printing warnings (a tolerated torn tail, an index that could
    /// not be saved) to standard error.
    static func open(_ path: String, _ parsed: Arguments) throws -> Timeline {
        let mode: RecoveryMode = try parsed.choice("--mode", default: .tolerateTornTail)
        let interval = try parsed.integer("--interval", range: 1...1_000_000) ?? 4096
        let timeline = try Timeline(path: path, interval: interval, mode: mode, indexFile: !parsed.has("--no-index"))
        for warning in timeline.report.warnings where warning.kind != .unknownType { Diagnostics.warning(warning) }
        if let problem = timeline.indexSaveError {
            Diagnostics.print("\(LogInput.shown(path)): warning: the snapshot index could not be saved (\(problem)); it was built in memory")
        }
        return timeline
    }

    /// With `--strict`, refuses a state that anomalies led to.
    static func refuseAnomalies(_ timeline: Timeline, _ parsed: Arguments) throws {
        guard parsed.has("--strict"), let first = timeline.firstAnomalyThroughSeq else { return }
        throw NavigationHistoryError(code: .corruptLog,
                                     message: "--strict: \(timeline.anomalies) event\(timeline.anomalies == 1 ? "" : "s") up to seq \(timeline.seq) did not fit the state; the first: \(first)",
                                     path: timeline.path)
    }

    /// The state as JSON: the State shape of the event format, with `format`, `seq` and `ts` first.
    static func json(_ state: NavigationState, seq: Int, event: NavigationEvent?, scene: String?) -> [UInt8] {
        var shown = state
        if let scene { shown.scenes = shown.scenes.filter { $0.key == scene } }
        var w = JSONWriter()
        w.raw("{")
        w.key("format", first: true); w.integer(1)
        w.key("seq"); w.integer(seq)
        w.key("ts"); if let event { w.timestamp(event.timestamp) } else { w.raw("null") }
        w.key("session"); if let event { w.string(event.session) } else { w.raw("null") }
        var body = JSONWriter()
        body.state(shown)
        w.raw(",")
        w.bytes += body.bytes.dropFirst()   // the state's members, after its opening brace
        w.raw("\n")
        return w.bytes
    }

    /// The state as an indented tree: each scene, its stacks with the selected tab marked `*`, its
    /// sheets and split view, and the visible route marked `<- visible`.
    static func text(_ state: NavigationState, scene only: String?) -> [String] {
        var lines: [String] = []
        let scenes = state.scenes.keys.sorted().filter { only == nil || $0 == only }
        if scenes.isEmpty { lines.append(only.map { "no scene \($0)" } ?? "no open scene") }
        for name in scenes {
            let scene = state.scenes[name]!
            let visible = scene.visibleScreen
            lines.append("scene \(name)" + (state.active == name ? " (active)" : ""))
            for stack in scene.stacks.keys.sorted() {
                let routes = scene.stacks[stack]!
                lines.append("  \(stack == scene.tab ? "*" : " ") \(stack)")
                if routes.isEmpty {
                    lines.append("      (root)" + (visible.source == .root && visible.stack == stack ? "  <- visible" : ""))
                }
                for (k, route) in routes.enumerated() {
                    let shown = visible.source == .stack && visible.stack == stack && k == routes.count - 1
                    lines.append("      \(route.text)" + (shown ? "  <- visible" : ""))
                }
            }
            for (k, sheet) in scene.sheets.enumerated() {
                let top = k == scene.sheets.count - 1
                lines.append("  sheet \(sheet.id) (\(sheet.style.rawValue))")
                lines.append("      \(sheet.root.text) [root]" + (top && sheet.stack.isEmpty ? "  <- visible" : ""))
                for (i, route) in sheet.stack.enumerated() {
                    lines.append("      \(route.text)" + (top && i == sheet.stack.count - 1 ? "  <- visible" : ""))
                }
            }
            if let split = scene.split {
                func mark(_ source: VisibleScreen.Source) -> String { visible.source == source ? " <- visible" : "" }
                lines.append("  split \(split.visibility.rawValue): sidebar \(split.sidebar?.text ?? "none")\(mark(.splitSidebar)),"
                             + " content \(split.content?.text ?? "none")\(mark(.splitContent))")
            }
            if visible.source == .root && (scene.tab.map { scene.stacks[$0] == nil } ?? true) {
                lines.append("  (root: \(visible.route.screen))  <- visible")
            }
        }
        return lines
    }

    /// One event in words: its type, scene, stack and what it names.
    static func summary(_ event: NavigationEvent) -> String {
        switch event.action {
        case .sessionStart(let app, let launch, _): return "session.start \(launch.rawValue)" + (app.map { " app \($0)" } ?? "")
        case .sessionEnd(let reason): return "session.end" + (reason.map { " (\($0))" } ?? "")
        case .sceneOpen(let scene, _): return "scene.open \(scene)"
        case .sceneClose(let scene, _): return "scene.close \(scene)"
        case .sceneActivate(let scene): return "scene.activate \(scene)"
        case .tabSelect(let scene, let tab): return "tab.select \(scene) \(tab)"
        case .push(let scene, let stack, let route): return "push \(scene)/\(stack) \(route.text)"
        case .pop(let scene, let stack, let count): return "pop \(scene)/\(stack)" + (count == 1 ? "" : " \(count)")
        case .popToRoot(let scene, let stack): return "popToRoot \(scene)/\(stack)"
        case .replace(let scene, let stack, let route): return "replace \(scene)/\(stack) \(route.text)"
        case .setPath(let scene, let stack, let path, let cause):
            return "setPath \(scene)/\(stack) [\(path.map(\.text).joined(separator: ", "))] (\(cause.rawValue))"
        case .deeplink(let scene, let url, let outcome, _, _, _): return "deeplink \(scene) \(url) (\(outcome.rawValue))"
        case .sheetPresent(let scene, let sheet, let route, _): return "sheet.present \(scene) \(sheet) \(route.text)"
        case .sheetDismiss(let scene, let sheet): return "sheet.dismiss \(scene)" + (sheet.map { " \($0)" } ?? "")
        case .splitSelect(let scene, let column, let route): return "split.select \(scene) \(column.rawValue) \(route?.text ?? "none")"
        case .splitVisibility(let scene, let visibility): return "split.visibility \(scene) \(visibility.rawValue)"
        case .snapshot: return "snapshot"
        case .restore(_, let from, let dropped): return "restore from seq \(from)" + (dropped.isEmpty ? "" : ", \(dropped.count) dropped")
        case .unknown(let type, _): return "\(type) (unknown type)"
        }
    }
}

extension JSONWriter {
    /// A state change as an object: `{"change": KIND, "scene": ..., ...}`; a stack change of a
    /// sheet's stack with `"sheet"`, the sheet's place in the scene's sheets, when it is given.
    mutating func change(_ change: StateDiff.Change, sheet: Int? = nil) {
        raw("{")
        switch change {
        case .sceneOpened(let scene):
            key("change", first: true); string("sceneOpened"); key("scene"); string(scene)
        case .sceneClosed(let scene):
            key("change", first: true); string("sceneClosed"); key("scene"); string(scene)
        case .activeScene(let from, let to):
            key("change", first: true); string("activeScene")
            key("from"); if let from { string(from) } else { raw("null") }
            key("to"); if let to { string(to) } else { raw("null") }
        case .tab(let scene, let from, let to):
            key("change", first: true); string("tab"); key("scene"); string(scene)
            key("from"); if let from { string(from) } else { raw("null") }
            key("to"); if let to { string(to) } else { raw("null") }
        case .stack(let scene, let stack, let removed, let added):
            key("change", first: true); string("stack"); key("scene"); string(scene); key("stack"); string(stack)
            if let sheet { key("sheet"); integer(sheet) }
            key("removed"); routes(removed)
            key("added"); routes(added)
        case .sheetPresented(let scene, let sheet):
            key("change", first: true); string("sheetPresented"); key("scene"); string(scene)
            key("sheet"); string(sheet.id); key("style"); string(sheet.style.rawValue); key("root"); route(sheet.root)
        case .sheetDismissed(let scene, let sheet):
            key("change", first: true); string("sheetDismissed"); key("scene"); string(scene); key("sheet"); string(sheet.id)
        case .split(let scene, _, let to):
            key("change", first: true); string("split"); key("scene"); string(scene)
            key("sidebar"); optionalRoute(to?.sidebar)
            key("content"); optionalRoute(to?.content)
            key("visibility"); if let to { string(to.visibility.rawValue) } else { raw("null") }
        }
        raw("}")
    }
}
