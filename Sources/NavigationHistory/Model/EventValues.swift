/// How a session's process started.
public enum LaunchKind: String, Sendable, Hashable, CaseIterable {
    /// `cold`: the process started anew; `warm`: it came back from the background.
    case cold, warm
}

/// A scene's lifecycle phase, as SwiftUI's `ScenePhase` names it.
public enum ScenePhase: String, Sendable, Hashable, CaseIterable {
    /// In the foreground and interactive; visible but not interactive (the app switcher, a
    /// system alert); not visible, and may be terminated without notice.
    case active, inactive, background
}

/// Why a whole stack was replaced by a `setPath` event.
public enum PathCause: String, Sendable, Hashable, CaseIterable {
    /// Set by the app, by a deep link, or by restoring the last state at launch.
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
    /// SwiftUI's three ways: a sheet, a full-screen cover, a popover.
    case sheet, fullScreenCover, popover
}

/// A selectable column of a split view.
public enum SplitColumn: String, Sendable, Hashable, CaseIterable {
    /// The split view's leading column, or its middle one.
    case sidebar, content
}

/// Which columns of a split view are visible.
public enum SplitVisibility: String, Sendable, Hashable, CaseIterable {
    /// As SwiftUI's `NavigationSplitViewVisibility`: every column, the
    /// content and detail columns, the detail column alone, or the platform's choice.
    case all, doubleColumn, detailOnly, automatic
}
