/// The navigation state of an app: every open scene with its tabs, stacks, sheets and split view.
///
/// This is the `State` shape of the event format, used by `snapshot` and `restore` events and by
/// every tool that prints a state. It holds everything the fold needs, so a snapshot followed by the
/// rest of a log folds to the same state as the whole log.
public struct NavigationState: Sendable, Hashable {
    /// The scene last opened or activated; nil after it closes until another is opened or activated.
    public var active: String?
    /// The open scenes by id.
    public var scenes: [String: SceneState]

    /// Creates a state; the default is an app with no scenes.
    public init(active: String? = nil, scenes: [String: SceneState] = [:]) {
        self.active = active
        self.scenes = scenes
    }
}

/// One scene (window): its selected tab, one stack per tab (or `main`, `detail`), sheets, split view.
public struct SceneState: Sendable, Hashable {
    /// The selected tab, if the scene has tabs.
    public var tab: String?
    /// The stacks by id: a tab id, `detail`, or `main`. Each tab keeps its own stack.
    public var stacks: [String: [Route]]
    /// The presented sheets, bottom first; each has its own stack.
    public var sheets: [Sheet]
    /// The split view's column selections and visibility, if the scene has a split view.
    public var split: SplitState?
    /// The scene's lifecycle phase: `active` unless a `scene.phase` event said otherwise.
    public var phase: ScenePhase

    /// Creates a scene state; the default is an active scene with nothing shown.
    public init(tab: String? = nil, stacks: [String: [Route]] = [:], sheets: [Sheet] = [], split: SplitState? = nil,
                phase: ScenePhase = .active) {
        self.tab = tab
        self.stacks = stacks
        self.sheets = sheets
        self.split = split
        self.phase = phase
    }
}

/// A presented sheet: its id, presentation style, root route, and its own stack above the root.
public struct Sheet: Sendable, Hashable {
    /// The sheet's id, also the `stack` id that addresses its stack.
    public var id: String
    /// How the sheet is presented.
    public var style: SheetStyle
    /// The sheet's root route.
    public var root: Route
    /// The routes pushed inside the sheet, above its root.
    public var stack: [Route]

    /// Creates a sheet.
    public init(id: String, style: SheetStyle = .sheet, root: Route, stack: [Route] = []) {
        self.id = id
        self.style = style
        self.root = root
        self.stack = stack
    }
}

/// The state of a split view: the sidebar and content selections and the column visibility.
public struct SplitState: Sendable, Hashable {
    /// The sidebar column's selection.
    public var sidebar: Route?
    /// The content column's selection.
    public var content: Route?
    /// Which columns are visible.
    public var visibility: SplitVisibility

    /// Creates a split state.
    public init(sidebar: Route? = nil, content: Route? = nil, visibility: SplitVisibility = .automatic) {
        self.sidebar = sidebar
        self.content = content
        self.visibility = visibility
    }
}
