/// What a scene shows: its visible route and where that route sits.
///
/// As event format v1 defines it: the top of the topmost sheet (its last pushed route, else the
/// sheet's root); else the top of the current stack (the selected tab's, or `main` when no tab is
/// selected); else the split view's `content` selection, else its `sidebar` selection; else the
/// root, named by the selected tab's id (or `root`).
///
/// ```swift
/// let screen = state.scenes["main"]!.visibleScreen
/// print(screen.route.screen, screen.stack ?? "root", screen.depth)
/// ```
public struct VisibleScreen: Sendable, Hashable {
    /// Where the visible route comes from.
    public enum Source: String, Sendable, Hashable {
        /// The topmost sheet, the current stack, the split view's content or sidebar selection, or the root.
        case sheet, stack, splitContent, splitSidebar, root
    }

    /// The visible route.
    public var route: Route
    /// Where it comes from.
    public var source: Source
    /// The stack it is on: the sheet's id, the tab's id or `main`; nil for a split selection or a root.
    public var stack: String?
    /// How many routes are on that stack (0 for a sheet's root, a split selection or a root).
    public var depth: Int
    /// How many sheets are presented over the scene's stacks.
    public var sheets: Int

    /// Whether two visible screens show the same thing: the same screen and id (params aside).
    /// A screen view begins whenever this changes.
    public func showsSameRoute(as other: VisibleScreen) -> Bool {
        route.screen == other.route.screen && route.id == other.route.id
    }
}

extension SceneState {
    /// The stack shown when no sheet is: the selected tab's, or `main` when no tab is selected.
    public var currentStack: String { tab ?? "main" }

    /// The routes of the stack `id`: the topmost sheet's with that id, else the scene's stack;
    /// nil when there is neither.
    public func routes(of id: String) -> [Route]? {
        sheets.last(where: { $0.id == id })?.stack ?? stacks[id]
    }

    /// The stack a `deeplink` that selects `tab` and names `stack` (each optional) writes its path
    /// to: the named stack, else the tab's, else the current stack.
    public func deepLinkStack(tab: String?, stack: String?) -> String {
        stack ?? tab ?? currentStack
    }

    /// What the scene shows now.
    public var visibleScreen: VisibleScreen { Self.visibleScreen(of: self) }

    /// What `scene` shows and its tab, unless `detailed` without the stack, the route's params and
    /// the tab (nil). The scene is `inout` only to be read where it lies, through a dictionary's
    /// modify accessor.
    @inline(__always)
    static func visibleScreenAndTab(of scene: inout SceneState, detailed: Bool, lastStack: Lookup<[Route]>?) -> (VisibleScreen, String?) {
        // Each way with a constant, for the screen's code to be made for it.
        detailed ? (visibleScreen(of: scene, detailed: true, lastStack: lastStack), scene.tab)
            : (visibleScreen(of: scene, detailed: false, lastStack: lastStack), nil)
    }

    /// What `scene` shows, its members read where they lie: a method gets its scene as a value,
    /// copied for each call. Unless `detailed`, without the stack and the route's params (nil).
    /// `lastStack` is where the fold last found a stack of this scene, if it did.
    @inline(__always)
    static func visibleScreen(of scene: borrowing SceneState, detailed: Bool = true, lastStack: Lookup<[Route]>? = nil) -> VisibleScreen {
        if let sheet = scene.sheets.last {
            return VisibleScreen(route: (sheet.stack.last ?? sheet.root).kept(detailed: detailed), source: .sheet,
                                 stack: detailed ? sheet.id : nil, depth: sheet.stack.count, sheets: scene.sheets.count)
        }
        let stack = scene.currentStack
        // Found as the fold finds it, without hashing `stack` when it is the stack found last.
        if let index = scene.stacks.index(forKey: stack, after: lastStack),
           let top = scene.stacks.values[index].last {
            return VisibleScreen(route: top.kept(detailed: detailed), source: .stack, stack: detailed ? stack : nil,
                                 depth: scene.stacks.values[index].count, sheets: 0)
        }
        if let content = scene.split?.content {
            return VisibleScreen(route: content.kept(detailed: detailed), source: .splitContent, stack: nil, depth: 0, sheets: 0)
        }
        if let sidebar = scene.split?.sidebar {
            return VisibleScreen(route: sidebar.kept(detailed: detailed), source: .splitSidebar, stack: nil, depth: 0, sheets: 0)
        }
        let tab = scene.tab
        return VisibleScreen(route: Route(screen: tab ?? "root"), source: .root, stack: detailed ? tab : nil, depth: 0, sheets: 0)
    }
}

extension Route {
    /// This route, or unless `detailed` this route without its params.
    @inline(__always) fileprivate func kept(detailed: Bool) -> Route { detailed ? self : Route(screen: screen, id: id) }
}
