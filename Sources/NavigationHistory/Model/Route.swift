/// One screen in a navigation stack: the screen's name, the instance it shows, and optional parameters.
///
/// Routes carry identifiers (store IDs), never whole model objects, so a log stays small and a
/// restored route can be checked against the app's current data.
///
/// ```swift
/// let route = Route(screen: "recipe", id: "apple-pie", params: ["tab": "reviews"])
/// ```
public struct Route: Sendable, Hashable {
    /// The screen's name: what analytics group by.
    public var screen: String
    /// The instance the screen shows, such as a store ID.
    public var id: String?
    /// Optional string parameters of the screen.
    public var params: [String: String]?

    /// Creates a route.
    public init(screen: String, id: String? = nil, params: [String: String]? = nil) {
        self.screen = screen
        self.id = id
        self.params = params
    }
}

extension Route {
    /// This route, copied member by member. Copied whole, its optional members were copied
    /// through `Optional`'s value witnesses — a metadata lookup and an indirect call each, in the
    /// code Swift 6.3 makes — where unwrapped they are a retain each: a third of a push's cost.
    @inline(__always) var copied: Route {
        var id: String?
        if let value = self.id { id = value }
        var params: [String: String]?
        if let value = self.params { params = value }
        return Route(screen: screen, id: id, params: params)
    }
}
