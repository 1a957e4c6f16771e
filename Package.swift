// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "NavigationHistory",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "NavigationHistory", targets: ["NavigationHistory"]),
        .library(name: "NavigationRouting", targets: ["NavigationRouting"]),
        .library(name: "NavigationAnalytics", targets: ["NavigationAnalytics"]),
        .executable(name: "navlog", targets: ["navlog"]),
    ],
    targets: [
        .target(name: "CNavigationHistory"),
        .target(name: "NavigationHistory", dependencies: ["CNavigationHistory"]),
        .target(name: "NavigationRouting", dependencies: ["NavigationHistory"]),
        .target(name: "NavigationAnalytics", dependencies: ["NavigationHistory"]),
        .target(name: "RecipeApp", dependencies: ["NavigationHistory", "NavigationRouting"], path: "Examples/RecipeApp"),
        .executableTarget(name: "navlog", dependencies: ["NavigationHistory", "NavigationRouting", "NavigationAnalytics", "RecipeApp"]),
        .executableTarget(name: "NavlogBench", dependencies: ["NavigationHistory", "NavigationRouting", "RecipeApp"], path: "Tools/bench/NavlogBench"),
        .executableTarget(name: "NavlogStoreChild", dependencies: ["NavigationHistory", "NavigationRouting", "RecipeApp"],
                          path: "Tools/NavlogStoreChild"),
        .testTarget(name: "NavigationHistoryTests", dependencies: ["NavigationHistory"]),
        .testTarget(name: "NavigationAnalyticsTests", dependencies: ["NavigationAnalytics", "NavigationHistory"]),
        .testTarget(name: "NavigationRoutingTests", dependencies: ["NavigationRouting", "NavigationHistory", "RecipeApp"]),
        .testTarget(name: "NavlogTests", dependencies: ["navlog", "NavigationHistory"], exclude: ["Golden"]),
        .testTarget(name: "DocumentationSnippetTests", dependencies: ["NavigationAnalytics", "NavigationHistory", "NavigationRouting"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
