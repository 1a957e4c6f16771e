/// How a session's process started.
public enum LaunchKind: String, Sendable, Hashable, CaseIterable {
    case cold, warm
}

/// Why a whole stack was replaced by a `setPath` event.
public enum PathCause: String, Sendable, Hashable, CaseIterable {
    case programmatic, deeplink, restore
}

/// What became of a deep link.
public enum DeepLinkOutcome: String, Sendable, Hashable, CaseIterable {
    /// Every segment of the URL resolved to a route.
    case resolved
    /// Some segments resolved; the path holds those that did.
    case partial
    /// The URL matched no pattern; nothing changed.
    case unmatched
}

/// How a sheet is presented.
public enum SheetStyle: String, Sendable, Hashable, CaseIterable {
    case sheet, fullScreenCover, popover
}

/// A selectable column of a split view.
public enum SplitColumn: String, Sendable, Hashable, CaseIterable {
    case sidebar, content
}

/// Which columns of a split view are visible.
public enum SplitVisibility: String, Sendable, Hashable, CaseIterable {
    case all, doubleColumn, detailOnly, automatic
}
