import NavigationHistory

/// Opening a timeline with the options `state`, `replay` and `diff` share, and printing states.
enum TimelineOutput {
    static let options: [CommandOption] = [.recoveryMode, .option("--interval", "K"), .flag("--no-index")]
    static let optionsHelp = """
          --mode MODE       Recovery mode, as in `navlog verify` (default tolerateTornTail); what it
                            drops is said on standard error, one line each (with salvage, the first
                            10 lines skipped and how many in all), and in JSON as "dropped_lines".
                            With salvage the index is built in memory, not read or written.
          --interval K      Events between two states of the snapshot index (default 4096).
          --no-index        Do not read or write the index file beside the log; build it in memory.
        """

    /// Opens the timeline of `path`, printing warnings to standard error: what the reading dropped
    /// (``DroppedOutput``), an index that could not be saved. In `salvage` the index is built in
    /// memory: one saved would spare the next reading the lines before its end, and with them
    /// the saying of the lines skipped there.
    static func open(_ path: String, _ parsed: Arguments) throws -> Timeline {
        let mode: RecoveryMode = try parsed.choice("--mode", default: .tolerateTornTail)
        let interval = try parsed.integer("--interval", range: 1...1_000_000) ?? 4096
        let timeline = try Timeline(path: path, interval: interval, mode: mode, indexFile: !parsed.has("--no-index") && mode != .salvage)
        try DroppedOutput(LogInput.shown(path), timeline.report).warn()
        if let problem = timeline.indexSaveError {
            Diagnostics.warning("the snapshot index could not be saved (\(problem)); it was built in memory", at: LogInput.shown(path))
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

    /// `navlog state`'s JSON: the State shape of the event format after `format`, what the
    /// reading dropped, `seq`, and the `ts` and `session` of the event at `seq` (null before the
    /// first event).
    struct StateOutput: Encodable {
        let format = JSONOutput.format
        var droppedLines: JSONFragment
        var seq: Int
        var ts: JSONFragment?
        var session: String?
        var active: String?
        var scenes: JSONFragment

        enum CodingKeys: String, CodingKey {
            case format, droppedLines = "dropped_lines", seq, ts, session, active, scenes
        }

        /// `state` after the event at `seq`, only `scene` when it is given; `dropped`, what the
        /// reading dropped.
        init(_ state: NavigationState, seq: Int, event: NavigationEvent?, scene: String?, dropped: DroppedOutput) {
            var shown = state
            if let scene { shown.scenes = shown.scenes.filter { $0.key == scene } }
            droppedLines = dropped.json
            (self.seq, session, active) = (seq, event?.session, shown.active)
            ts = event.map { event in JSONFragment { $0.timestamp(event.timestamp) } }
            scenes = JSONFragment { $0.scenes(shown) }
        }
    }

    /// The state as an indented tree: each scene, its stacks with the selected tab marked `*`, its
    /// sheets and split view, its phase in brackets when it is not `active`, and the visible route
    /// marked `<- visible`.
    static func text(_ state: NavigationState, scene only: String?) -> [String] {
        var lines: [String] = []
        let scenes = state.scenes.keys.sorted().filter { only == nil || $0 == only }
        if scenes.isEmpty { lines.append(only.map { "no scene \($0)" } ?? "no open scene") }
        for name in scenes {
            let scene = state.scenes[name]!
            let visible = scene.visibleScreen
            lines.append("scene \(name)" + (state.active == name ? " (active)" : "") + (scene.phase == .active ? "" : " [\(scene.phase.rawValue)]"))
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
}
