import Foundation
import NavigationHistory
import NavigationRouting

/// A small recipe app's navigation model, for the README, the tests and `navlog demo`: its routes,
/// the data they point into (which can change between launches), its deep links, and a scripted
/// session that drives a ``Router`` the way a user would.
public enum RecipeApp {
    /// The app's data: which recipes exist. Deleting one makes its routes stop resolving.
    public final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var recipes: Set<String>

        public init(recipes: Set<String> = ["apple-pie", "pumpkin-soup", "lemonade", "carrot-cake"]) {
            self.recipes = recipes
        }

        public func exists(recipe id: String) -> Bool { lock.withLock { recipes.contains(id) } }
        public func delete(recipe id: String) { lock.withLock { _ = recipes.remove(id) } }
        public func add(recipe id: String) { lock.withLock { _ = recipes.insert(id) } }

        /// The store the app's routes resolve against.
        public static let shared = Store()
    }

    /// The app's routes.
    public enum Screen: NavigationRoute {
        case category(String)
        case recipe(String)
        case reviews(recipe: String, sort: String)
        case settings
        case notifications

        public var screen: String {
            switch self {
            case .category: "category"
            case .recipe: "recipe"
            case .reviews: "reviews"
            case .settings: "settings"
            case .notifications: "notifications"
            }
        }

        public var id: String? {
            switch self {
            case .category(let name): name
            case .recipe(let id), .reviews(let id, _): id
            case .settings, .notifications: nil
            }
        }

        public var params: [String: String]? {
            if case .reviews(_, let sort) = self { return ["sort": sort] }
            return nil
        }

        public init?(screen: String, id: String?, params: [String: String]?) {
            switch (screen, id) {
            case ("category", let name?): self = .category(name)
            case ("recipe", let id?) where Store.shared.exists(recipe: id): self = .recipe(id)
            case ("reviews", let id?) where Store.shared.exists(recipe: id): self = .reviews(recipe: id, sort: params?["sort"] ?? "top")
            case ("settings", nil): self = .settings
            case ("notifications", nil): self = .notifications
            default: return nil
            }
        }

        public static func knows(screen: String) -> Bool {
            ["category", "recipe", "reviews", "settings", "notifications"].contains(screen)
        }
    }

    /// The app's deep links: `recipes://category/:name` and `recipes://category/:name/recipe/:id`.
    public static var deepLinks: DeepLinkTable<Screen> {
        var table = DeepLinkTable<Screen>()
        table.add("recipes://category/:name/recipe/:id", tab: "home") { captures in
            [Screen(screen: "category", id: captures["name"], params: nil), Screen(screen: "recipe", id: captures["id"], params: nil)]
        }
        table.add("recipes://category/:name", tab: "home") { captures in
            [Screen(screen: "category", id: captures["name"], params: nil)]
        }
        return table
    }

    /// A user's session: browse, read reviews, lock the phone and come back, open a deep link, look
    /// at settings in a sheet. It ends in the foreground; ``goToBackground(_:)`` sends it away.
    @MainActor
    public static func scriptedSession(_ router: Router<Screen>) {
        router.open(scene: "main")
        router.select(tab: "home")
        router.push(.category("desserts"))
        router.push(.recipe("apple-pie"))
        router.push(.reviews(recipe: "apple-pie", sort: "recent"))
        router.setPath([.category("desserts"), .recipe("apple-pie")], for: "home")   // a swipe back: one pop
        goToBackground(router)                // the phone is locked: the session goes on
        router.setPhase(.inactive)            // and unlocked, as SwiftUI's scenePhase says
        router.setPhase(.active)
        router.select(tab: "search")
        router.push(.recipe("lemonade"))
        router.open(url: "recipes://category/soups/recipe/pumpkin-soup")
        router.present(sheet: "settings", .settings)
        router.push(.notifications)
        router.dismiss()
        router.select(tab: "home")
        router.push(.recipe("carrot-cake"))
    }

    /// The app leaves the screen, as SwiftUI's `scenePhase` says: `inactive`, then `background`.
    /// No `session.end`: the session goes on until the process ends, which the system may do
    /// without notice — a session ended so is not a crash.
    @MainActor
    public static func goToBackground(_ router: Router<Screen>, in scene: String = "main") {
        router.setPhase(.inactive, in: scene)
        router.setPhase(.background, in: scene)
    }
}
