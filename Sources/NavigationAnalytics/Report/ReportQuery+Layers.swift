import NavigationHistory

/// What a replay's device draws for a scene beyond its visible screen, found from the fold's
/// state so that the page decides nothing about navigation: the title and back label of each
/// layer drawn under the visible one, and the scene's tabs.
enum ReplayLayers {
    /// The title and back label of one drawn layer.
    struct Layer: Equatable {
        /// The route shown, as ``Route/text`` writes it (the root's name for an empty stack).
        var title: String
        /// The route a back button names; nil where there is no going back.
        var back: String?
    }

    /// A scene's root as a title and a back button name it: the selected tab, or `root`.
    static func rootName(of scene: SceneState) -> String { scene.tab ?? "root" }

    /// The layer a stack of `routes` over a root named `root` shows: its top route, or the root
    /// when empty; a back button names the route below, or the root under the first route.
    static func layer(_ routes: [Route], root: String) -> Layer {
        guard let top = routes.last else { return Layer(title: root, back: nil) }
        return Layer(title: top.text, back: routes.count >= 2 ? routes[routes.count - 2].text : root)
    }

    /// The columns a split view shows beside its detail (the scene's stack), each with its
    /// selection's text or, with none selected, the column's name: the sidebar with visibility
    /// `all` or `automatic`, the content unless `detailOnly`.
    static func columns(of split: SplitState) -> [(column: String, title: String)] {
        var columns: [(column: String, title: String)] = []
        if split.visibility == .all || split.visibility == .automatic { columns.append(("sidebar", split.sidebar?.text ?? "sidebar")) }
        if split.visibility != .detailOnly { columns.append(("content", split.content?.text ?? "content")) }
        return columns
    }

    /// The layers drawn under the visible one, bottom first: the scene's current stack (when a
    /// sheet or a split view's column is what shows), then every sheet but the topmost. Empty when
    /// the current stack is what shows.
    static func covered(in scene: SceneState, showing screen: VisibleScreen) -> [Layer] {
        if scene.sheets.isEmpty && (screen.source == .stack || screen.source == .root) { return [] }
        var layers = [layer(scene.stacks[scene.currentStack] ?? [], root: rootName(of: scene))]
        for sheet in scene.sheets.dropLast() { layers.append(layer(sheet.stack, root: sheet.root.text)) }
        return layers
    }
}

/// The tabs of each scene of a replay, as its tab bar names them.
///
/// The state does not tell a tab's stack from any other (a stack is named by a tab id, `main`,
/// `detail` or anything an app chose, and is made when first named): a scene's tabs are taken
/// to be the stacks it has had selected as its tab (by `tab.select`, a deep link, or a state set
/// whole) since it was opened in the replay, sorted.
struct ReplayTabs {
    private var seen: [String: [String]] = [:]

    /// Takes in the tab `scenes` of `state` have selected; returns those whose tabs this changed.
    mutating func update(_ state: NavigationState, scenes: some Sequence<String>) -> [String] {
        var changed: [String] = []
        for name in scenes {
            guard let scene = state.scenes[name] else {
                if seen.removeValue(forKey: name) != nil { changed.append(name) }
                continue
            }
            guard let tab = scene.tab, !(seen[name]?.contains(tab) ?? false) else { continue }
            seen[name, default: []].append(tab)
            seen[name]?.sort()
            changed.append(name)
        }
        return changed
    }

    /// The tabs of scene `name`, sorted; empty when it has had none selected.
    func tabs(of name: String) -> [String] { seen[name] ?? [] }
}

/// The spans each scene of a replay spent in the background: from the step it went there to the
/// step it came back, closed or had the state set whole (nil while it never did), in the order
/// they began.
struct ReplayAway {
    /// One span: the scene, and the 0-based steps it began and ended at.
    struct Span {
        var scene: String
        var from: Int
        var to: Int?
    }

    /// The spans so far, in the order they began.
    private(set) var spans: [Span] = []
    private var open: [String: Int] = [:]

    /// Takes in the state a replay starts at, or one set whole at step `index`.
    mutating func restate(_ state: NavigationState, at index: Int) {
        for k in open.values { spans[k].to = index }
        open = [:]
        for name in state.scenes.keys.sorted() where state.scenes[name]?.phase == .background { leave(name, at: index) }
    }

    /// Takes in what step `index` changed.
    mutating func take(_ changes: [StateDiff.Change], at index: Int) {
        for change in changes {
            switch change {
            case .phase(let scene, _, .background): leave(scene, at: index)
            case .phase(let scene, .background, _), .sceneClosed(let scene): back(scene, at: index)
            default: break
            }
        }
    }

    private mutating func leave(_ scene: String, at index: Int) {
        guard open[scene] == nil else { return }
        open[scene] = spans.count
        spans.append(Span(scene: scene, from: index, to: nil))
    }

    private mutating func back(_ scene: String, at index: Int) {
        guard let k = open.removeValue(forKey: scene) else { return }
        spans[k].to = index
    }
}
