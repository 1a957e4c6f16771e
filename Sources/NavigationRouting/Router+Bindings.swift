import NavigationHistory

/// Every SwiftUI navigation binding as a writable member of the router: each is a
/// `ReferenceWritableKeyPath`, so `@Bindable var router` gives `$router[path: "home"]`,
/// `$router[tab: "main"]` and the rest directly, without SwiftUI in this package.
///
/// A write records the one event it means, as the explicit call does (a path write becomes a
/// `pop`, a `push`, a `replace`, else a `setPath`); a write of the value already there records
/// nothing, since SwiftUI writes a binding back whenever a view redraws.
///
/// ```swift
/// NavigationStack(path: $router[path: "home"]) { HomeView() }
/// TabView(selection: $router[tab: "main"]) { ... }
/// .sheet(item: $router[sheet: "main"]) { sheet in SheetView(sheet.route) }
/// ```
extension Router {
    /// The path of a stack, for `NavigationStack(path:)`: reading gives ``path(for:in:)``, writing
    /// ``setPath(_:for:in:)`` — a swipe back of one screen records `pop 1`, not a `setPath`.
    public subscript(path stack: String, in scene: String = "main") -> [R] {
        get { path(for: stack, in: scene) }
        set { setPath(newValue, for: stack, in: scene) }
    }

    /// The selected tab of a scene, for `TabView(selection:)` with `.tag("home")` on each tab:
    /// empty while none is selected. Writing the empty string changes nothing: no event
    /// deselects a tab.
    public subscript(tab scene: String) -> String {
        get { selectedTab(in: scene) ?? "" }
        set {
            guard !newValue.isEmpty else { return }
            select(tab: newValue, in: scene)
        }
    }

    /// The topmost sheet of a scene, for `.sheet(item:)` and `.fullScreenCover(item:)`: nil when
    /// none is presented (or its root no longer resolves). Writing nil dismisses it, as a swipe
    /// down does; writing another sheet presents it over the others, and one presented below the
    /// top makes it the top again, dismissing those above it.
    public subscript(sheet scene: String) -> PresentedSheet<R>? {
        get {
            guard let top = state.scenes[scene]?.sheets.last, let root = R(top.root) else { return nil }
            return PresentedSheet(id: top.id, route: root, style: top.style)
        }
        set {
            let sheets = state.scenes[scene]?.sheets ?? []
            guard let sheet = newValue else {
                if let top = sheets.last { dismiss(sheet: top.id, in: scene) }
                return
            }
            if let k = sheets.firstIndex(where: { $0.id == sheet.id }) {
                if k + 1 < sheets.count { dismiss(sheet: sheets[k + 1].id, in: scene) }
                return
            }
            present(sheet: sheet.id, sheet.route, style: sheet.style, in: scene)
        }
    }

    /// Whether the sheet `sheet` is presented in a scene, for `.sheet(isPresented:)`, with
    /// `root` as its root route. Writing true presents it over whatever is on top; writing false
    /// dismisses it and every sheet above it.
    public subscript(isPresented sheet: String, root root: R, in scene: String = "main") -> Bool {
        get { isPresented(sheet, in: scene) }
        set {
            guard newValue != isPresented(sheet, in: scene) else { return }
            if newValue { present(sheet: sheet, root, in: scene) } else { dismiss(sheet: sheet, in: scene) }
        }
    }

    /// Whether the sheet `sheet` is presented in a scene, for `.sheet(isPresented:)`, its root
    /// being the app's route of the screen the sheet is named after (`R(screen: sheet, id: nil,
    /// params: nil)`, such as `.settings` for `"settings"`). Writing true when the app has no such
    /// route presents nothing and keeps the refusal in ``NavigationModel/refusals``.
    public subscript(isPresented sheet: String, in scene: String = "main") -> Bool {
        get { isPresented(sheet, in: scene) }
        set {
            guard newValue != isPresented(sheet, in: scene) else { return }
            guard newValue else { return dismiss(sheet: sheet, in: scene) }
            guard let root = R(screen: sheet, id: nil, params: nil) else {
                return refuse("sheet '\(sheet)' has no root: the app has no route of a screen '\(sheet)' without an id;"
                              + " bind it with router[isPresented: \"\(sheet)\", root: ...]")
            }
            present(sheet: sheet, root, in: scene)
        }
    }

    /// The route selected in a split view's column, for `NavigationSplitView` and
    /// `List(selection:)`; nil when none is (or it no longer resolves). Writing nil clears it.
    public subscript(selection column: SplitColumn, in scene: String = "main") -> R? {
        get {
            guard let split = state.scenes[scene]?.split else { return nil }
            return (column == .sidebar ? split.sidebar : split.content).flatMap { R($0) }
        }
        set {
            let split = state.scenes[scene]?.split
            guard newValue?.route != (column == .sidebar ? split?.sidebar : split?.content) else { return }
            select(newValue, column: column, in: scene)
        }
    }

    /// A split view's column visibility, for `NavigationSplitView(columnVisibility:)` (SwiftUI's
    /// `NavigationSplitViewVisibility` is another type: map its four cases, as for the phase).
    public subscript(columnVisibility scene: String) -> SplitVisibility {
        get { state.scenes[scene]?.split?.visibility ?? .automatic }
        set {
            guard newValue != self[columnVisibility: scene] else { return }
            setSplitVisibility(newValue, in: scene)
        }
    }

    /// A scene's lifecycle phase, for `.onChange(of: scenePhase)`; writing records it as
    /// ``setPhase(_:in:)`` does, only when it changes.
    public subscript(phase scene: String) -> ScenePhase {
        get { state.scenes[scene]?.phase ?? .active }
        set { setPhase(newValue, in: scene) }
    }

    private func isPresented(_ sheet: String, in scene: String) -> Bool {
        state.scenes[scene]?.sheets.contains { $0.id == sheet } ?? false
    }
}

/// A presented sheet as `.sheet(item:)` takes it: identified by the sheet's id.
public struct PresentedSheet<R: NavigationRoute>: Identifiable, Hashable, Sendable {
    /// The sheet's id, which is also the id of its stack.
    public var id: String
    /// Its root route.
    public var route: R
    /// How it is presented.
    public var style: SheetStyle

    /// A sheet `id` with `route` as its root, presented as `style`.
    public init(id: String, route: R, style: SheetStyle = .sheet) {
        self.id = id
        self.route = route
        self.style = style
    }
}
