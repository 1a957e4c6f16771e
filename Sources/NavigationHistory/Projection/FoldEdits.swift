/// What the fold tells of the routes and sheets it changed in the scene an event names.
///
/// The fold calls it for each change it makes to a stack's routes or to a scene's sheets, with a
/// lower bound on what it left as it was: what a diff of the states before and after the event
/// needs to compare, and no more. A tab, a split view or a scene that opens or closes is not told:
/// each is compared whole at no cost.
package protocol FoldEditRecording {
    /// The routes of the stack `stack` (the topmost sheet's of that id, else the scene's stack)
    /// changed; the first `kept` of them are as they were.
    mutating func changedRoutes(of stack: String, keeping kept: Int)
    /// The scene's sheets changed; the first `kept` of them, and their stacks, are as they were.
    mutating func changedSheets(keeping kept: Int)
}

/// Where nothing is told: the fold of every reader but a diff.
package struct NoFoldEdits: FoldEditRecording {
    /// Tells nothing.
    package init() {}
    @inline(__always) package mutating func changedRoutes(of stack: String, keeping kept: Int) {}
    @inline(__always) package mutating func changedSheets(keeping kept: Int) {}
}

/// The routes and sheets one event changed in its scene, as the fold told them.
package struct FoldEdits: FoldEditRecording {
    /// The stacks whose routes changed, as the event names them (one, for every event of format
    /// v1), each with how many of its routes at the bottom are as they were.
    private(set) var routes: [(stack: String, kept: Int)] = []
    /// How many of the sheets at the bottom are as they were, when the sheets changed.
    private(set) var keptSheets: Int?

    package mutating func changedRoutes(of stack: String, keeping kept: Int) { routes.append((stack, kept)) }

    package mutating func changedSheets(keeping kept: Int) { keptSheets = min(kept, keptSheets ?? kept) }
}
