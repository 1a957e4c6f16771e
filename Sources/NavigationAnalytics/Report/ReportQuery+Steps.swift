import NavigationHistory

extension ReportQuery.Result {
    /// One step of a replay: the event — its seq, its time in milliseconds since `origin` (the
    /// session's first event, the replay's `ts`; negative when the clock went back), what the
    /// time axis marks it as, its summary, which begins with its type — and what it changed,
    /// folded into `fold`; and, for each scene whose tabs it changed (every scene, when it set the
    /// state whole), the scene's tabs, as `tabs` finds them. The event's line is written apart
    /// (``JSONWriter/line(of:)``).
    /// Returns what the event changed.
    static func step(_ event: NavigationEvent, since origin: Timestamp, folding fold: inout DiffingFold,
                             tabs: inout ReplayTabs, into w: inout JSONWriter) -> [StateDiff.Change] {
        // A stack is made by the event that first names it, and stays while its scene is open;
        // popToRoot, an empty setPath or a deep link's empty path make one with no change in the
        // diff. So a scene's stacks changed exactly when their number did.
        let scene = event.action.scene
        let stacksBefore = scene.flatMap { fold.after.scenes[$0]?.stacks.count } ?? 0
        let (anomaly, changes) = fold.fold(event)
        w.raw("{"); w.key("seq", first: true); w.integer(event.seq)
        w.key("t"); w.integer(Int(event.timestamp.millisecondsSince1970 - origin.millisecondsSince1970))
        if let mark = event.replayMark { w.key("mark"); w.string(mark) }
        w.key("event"); w.string(event.summary)
        if let anomaly { w.key("anomaly"); w.string(anomaly.kind.rawValue) }
        if event.setsWholeState {
            let scenes = fold.after.scenes.keys.sorted()
            w.key("state"); w.state(fold.after)
            w.key("visible"); visible(fold.after, scenes, naming: Set(scenes), into: &w)
            _ = tabs.update(fold.after, scenes: fold.before.scenes.keys)   // scenes closed
            _ = tabs.update(fold.after, scenes: scenes)
            w.key("tabs"); Self.tabs(scenes, of: tabs, into: &w)
        } else {
            // A stack change names a sheet's stack by the sheet's id: the page gets the sheet's
            // place, found as the fold finds it (the topmost sheet of that id).
            w.key("changes")
            w.array(changes) { w, change in
                var sheet: Int?
                if case .stack(let scene, let stack, _, _) = change {
                    sheet = fold.after.scenes[scene]?.sheets.lastIndex { $0.id == stack }
                }
                w.change(change, sheet: sheet)
            }
            // The scene's stacks, empty ones too, when the event made one: no change says so.
            if let scene, let stacks = fold.after.scenes[scene]?.stacks, stacks.count != stacksBefore {
                w.key("stacks"); w.raw("{"); w.key(named: scene, first: true)
                w.value(.array(stacks.keys.sorted().map { .string($0) }))
                w.raw("}")
            }
            var scenes: [String] = []
            for change in changes {
                if let scene = change.scene, !scenes.contains(scene) { scenes.append(scene) }
            }
            var tabbed: Set<String> = []
            for case .tab(let scene, _, _) in changes { tabbed.insert(scene) }
            w.key("visible"); visible(fold.after, scenes, naming: tabbed, into: &w)
            let changed = tabs.update(fold.after, scenes: scenes)
            if !changed.isEmpty { w.key("tabs"); Self.tabs(changed, of: tabs, into: &w) }
        }
        w.raw("}")
        return changes
    }

    /// The tabs of each of `scenes`, as an object of sorted lists.
    static func tabs(_ scenes: [String], of tabs: ReplayTabs, into w: inout JSONWriter) {
        w.raw("{")
        for (k, name) in scenes.enumerated() {
            w.key(named: name, first: k == 0)
            w.value(.array(tabs.tabs(of: name).map { .string($0) }))
        }
        w.raw("}")
    }

    /// What each of `scenes` shows in `state`, as the format defines it (null for a scene not
    /// open), so that the page need not work it out: the visible route, where it comes from, the
    /// route a back button names (``backRoute(of:in:)``; absent when there is none), the stack
    /// shown when no sheet is (absent when it is the visible route's stack, or `main` for none),
    /// as `under` the title and back label of each layer drawn beneath the visible one
    /// (``ReplayLayers/covered(in:showing:)``; absent when there is none), as `columns` the split
    /// view's columns beside its detail (``ReplayLayers/columns(of:)``; absent with no split
    /// view), and for `roots`, the scenes whose tab changed, the root's name at the head of a
    /// stack's trail (``ReplayLayers/rootName(of:)``): the page keeps it until it changes.
    static func visible(_ state: NavigationState, _ scenes: [String], naming roots: Set<String>, into w: inout JSONWriter) {
        w.raw("{")
        for (k, name) in scenes.enumerated() {
            w.key(named: name, first: k == 0)
            guard let scene = state.scenes[name] else {
                w.raw("null")
                continue
            }
            let screen = scene.visibleScreen
            w.raw("{")
            w.key("source", first: true); w.string(screen.source.rawValue)
            w.key("stack"); if let stack = screen.stack { w.string(stack) } else { w.raw("null") }
            w.key("route"); w.string(screen.route.text)
            if let back = backRoute(of: screen, in: scene) { w.key("back"); w.string(back.text) }
            if scene.currentStack != screen.stack ?? "main" { w.key("current"); w.string(scene.currentStack) }
            if roots.contains(name) { w.key("root"); w.string(ReplayLayers.rootName(of: scene)) }
            if let split = scene.split {
                w.key("columns")
                w.array(ReplayLayers.columns(of: split)) { w, column in
                    w.raw("{"); w.key("column", first: true); w.string(column.column); w.key("title"); w.string(column.title); w.raw("}")
                }
            }
            let covered = ReplayLayers.covered(in: scene, showing: screen)
            if !covered.isEmpty {
                w.key("under")
                w.array(covered) { w, layer in
                    w.raw("{"); w.key("title", first: true); w.string(layer.title)
                    if let back = layer.back { w.key("back"); w.string(back) }
                    w.raw("}")
                }
            }
            w.raw("}")
        }
        w.raw("}")
    }

    /// The route a back button over `screen` names: the one below it on its stack, the sheet's
    /// root under a sheet's first pushed route, the root (named by the selected tab, or `root`)
    /// under a stack's first route; nil at a sheet's root, a split selection or a root, where
    /// there is no going back.
    static func backRoute(of screen: VisibleScreen, in scene: SceneState) -> Route? {
        switch screen.source {
        case .sheet:
            guard let sheet = scene.sheets.last, !sheet.stack.isEmpty else { return nil }
            return sheet.stack.count >= 2 ? sheet.stack[sheet.stack.count - 2] : sheet.root
        case .stack:
            guard let stack = screen.stack, let routes = scene.stacks[stack], !routes.isEmpty else { return nil }
            return routes.count >= 2 ? routes[routes.count - 2] : Route(screen: ReplayLayers.rootName(of: scene))
        case .splitContent, .splitSidebar, .root:
            return nil
        }
    }
}

extension JSONWriter {
    /// The line of `event` as navlog writes it, as a JSON object from its `type` on: the `v`
    /// (always 1), `seq`, `ts` and `session` that begin every line are left out, the replay
    /// holding them (the page puts them back), so that the page grows by the event's own members.
    mutating func line(of event: NavigationEvent) {
        var line = JSONWriter(capacity: 256)
        LineEncoder.append(event, to: &line)
        if line.bytes.last == 0x0A { line.bytes.removeLast() }
        // The first `,"type":` is the member's: within the session's string a quote is escaped.
        let type = Array(#","type":"#.utf8)
        guard let at = line.bytes.indices.first(where: { line.bytes[$0...].starts(with: type) }) else { return bytes += line.bytes }
        raw("{")
        bytes += line.bytes[(at + 1)...]
    }
}

extension StateDiff.Change {
    /// The scene the change is in; nil for a change of the active scene.
    fileprivate var scene: String? {
        switch self {
        case .sceneOpened(let scene), .sceneClosed(let scene), .tab(let scene, _, _), .stack(let scene, _, _, _),
             .sheetPresented(let scene, _), .sheetDismissed(let scene, _), .split(let scene, _, _), .phase(let scene, _, _):
            scene
        case .activeScene:
            nil
        }
    }
}

