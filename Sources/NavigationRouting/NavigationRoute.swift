import NavigationHistory

/// An app's own route type — usually an enum — as the router records and restores it.
///
/// A route goes out as a screen name, an instance id and string parameters, and comes back through
/// ``init(screen:id:params:)``, which returns nil when the item no longer exists (or the screen is
/// unknown to this version of the app): that initializer *is* the resolver a restore uses.
///
/// ```swift
/// enum AppRoute: NavigationRoute {
///     case category(String), recipe(id: String)
///     var screen: String { switch self { case .category: "category"; case .recipe: "recipe" } }
///     var id: String? { switch self { case .category(let name): name; case .recipe(let id): id } }
///     var params: [String: String]? { nil }
///     init?(screen: String, id: String?, params: [String: String]?) {
///         switch (screen, id) {
///         case ("category", let name?): self = .category(name)
///         case ("recipe", let id?) where RecipeStore.shared.exists(id): self = .recipe(id: id)
///         default: return nil
///         }
///     }
/// }
/// ```
public protocol NavigationRoute: Hashable, Sendable {
    /// The screen's name: what analytics group by.
    var screen: String { get }
    /// The instance the screen shows, such as a store ID; never a whole model object.
    var id: String? { get }
    /// Optional string parameters.
    var params: [String: String]? { get }
    /// The route for a recorded screen, id and parameters; nil when it no longer exists.
    init?(screen: String, id: String?, params: [String: String]?)
    /// Whether this version of the app knows a screen at all (by default, whether any route of it
    /// can be made; override for a faster answer). Routes of unknown screens are dropped on restore.
    static func knows(screen: String) -> Bool
}

extension NavigationRoute {
    public static func knows(screen: String) -> Bool { true }

    /// The route as the log records it.
    public var route: Route { Route(screen: screen, id: id, params: params) }

    /// The app's route for a recorded one, or nil when it no longer exists.
    public init?(_ route: Route) {
        self.init(screen: route.screen, id: route.id, params: route.params)
    }
}
