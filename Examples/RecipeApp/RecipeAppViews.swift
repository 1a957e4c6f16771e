#if canImport(SwiftUI) && (os(iOS) || os(macOS) || os(visionOS))
import NavigationHistory
import NavigationRouting
import SwiftUI

// The recipe app in SwiftUI, as the README shows it: a window per scene, each with a split view,
// two tabs and a sheet, every binding one of the Router's key paths (`$router[...]`), deep links,
// the scene's phase, and the restore at launch. `RecipeApp.scriptedSession` drives the same
// Router without SwiftUI, for `navlog demo` and the tests. An app marks its `App` type `@main`.

typealias AppRoute = RecipeApp.Screen

struct RecipesApp: App {
    @State private var launch = Launch()
    @Environment(\.scenePhase) private var scenePhase   // in an App: background once every scene is

    var body: some Scene {
        WindowGroup {
            if let router = launch.router { RecipeWindow(router: router) }
            else { ProgressView().task { await launch.start() } }
        }
        .onChange(of: scenePhase) { if scenePhase == .background { launch.ship() } }
    }
}

/// Opens the log, restores where the user was, and starts the session: once, at launch.
@MainActor @Observable final class Launch {
    var router: Router<AppRoute>?
    private var recorder: Recorder?
    private var uploader: SegmentUploader?
    private var shipping: Task<Void, Never>?

    func start() async {
        let log = URL.applicationSupportDirectory.appending(path: "NavigationLog").path
        guard let recorder = try? await Recorder(directory: log) else { return }
        let router = Router<AppRoute>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
        let restorer = Restorer(options: .init(resolve: { AppRoute($0) != nil }, currentSession: recorder.session))
        router.start(app: "2.1", restoring: try? restorer.restore(from: log))
        let device = try? InstallID.load(from: URL.applicationSupportDirectory.appending(path: "install-id"))
        uploader = device.map { SegmentUploader(base: URL(string: "https://logs.example.com/recipes")!, device: $0) }
        (self.recorder, self.router) = (recorder, router)
    }

    /// Seals what was recorded and ships every sealed segment not acknowledged yet, one run at a
    /// time. The system gives an app going to the background a few seconds; for more, ask for them
    /// (`UIApplication.beginBackgroundTask`) or do the same in a `BGTaskScheduler` task (SwiftUI's
    /// `.backgroundTask(.appRefresh(_:))`). What does not ship now ships next time.
    func ship() {
        guard let recorder, let uploader, shipping == nil else { return }
        shipping = Task {
            _ = try? await recorder.seal()
            _ = await uploader.ship(from: recorder)
            shipping = nil
        }
    }
}

/// A window: its scene id is all it keeps, so that a relaunch finds its restored scene.
struct RecipeWindow: View {
    let router: Router<AppRoute>
    @SceneStorage("scene") private var scene = UUID().uuidString

    var body: some View {
        RecipeScene(router: router, scene: scene).onAppear {
            if router.state.scenes[scene] == nil {
                router.open(scene: scene)
                router.select(tab: "home", in: scene)
            }
        }
    }
}

/// One scene: a split view of categories beside two tabs, each a stack, and a sheet over them.
struct RecipeScene: View {
    @Bindable var router: Router<AppRoute>
    let scene: String
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        NavigationSplitView(columnVisibility: $router[visibility: scene]) {
            List(selection: $router[selection: .sidebar, in: scene]) {
                ForEach(["desserts", "soups"], id: \.self) { name in Text(name).tag(AppRoute.category(name)) }
            }
        } detail: {
            TabView(selection: $router[tab: scene]) {
                ForEach(["home", "search"], id: \.self) { tab in
                    NavigationStack(path: $router[path: tab, in: scene]) {
                        RouteView(router: router, scene: scene)
                            .navigationDestination(for: AppRoute.self) { RouteView(router: router, scene: scene, route: $0) }
                    }
                    .tag(tab)
                }
            }
        }
        .sheet(item: $router[sheet: scene]) { sheet in
            NavigationStack(path: $router[path: sheet.id, in: scene]) {
                RouteView(router: router, scene: scene, route: sheet.route)
            }
        }
        .onOpenURL { router.open(url: $0.absoluteString, in: scene) }
        .onChange(of: scenePhase) { _, phase in router[phase: scene] = ScenePhase(phase) }
    }
}

extension NavigationHistory.ScenePhase {
    /// SwiftUI's phase, as the log records it.
    init(_ phase: SwiftUI.ScenePhase) {
        self = phase == .active ? .active : phase == .inactive ? .inactive : .background
    }
}

extension Router {
    /// ``subscript(columnVisibility:)`` as SwiftUI's type, for `NavigationSplitView(columnVisibility:)`.
    subscript(visibility scene: String) -> NavigationSplitViewVisibility {
        get {
            switch self[columnVisibility: scene] {
            case .all: .all
            case .doubleColumn: .doubleColumn
            case .detailOnly: .detailOnly
            case .automatic: .automatic
            }
        }
        set {
            self[columnVisibility: scene] = newValue == .all ? .all : newValue == .doubleColumn ? .doubleColumn
                : newValue == .detailOnly ? .detailOnly : .automatic
        }
    }
}

/// A screen of the app, with the links it offers.
struct RouteView: View {
    let router: Router<AppRoute>
    let scene: String
    var route: AppRoute?

    var body: some View {
        List {
            NavigationLink("Apple pie", value: AppRoute.recipe("apple-pie"))
            Button("Settings") { router.present(sheet: "settings", .settings, in: scene) }
        }
        .navigationTitle(route?.screen ?? "Recipes")
    }
}
#endif
