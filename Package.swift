// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "NavigationHistory",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "NavigationHistory", targets: ["NavigationHistory"]),
        .library(name: "NavigationRouting", targets: ["NavigationRouting"]),
        .library(name: "NavigationAnalytics", targets: ["NavigationAnalytics"]),
        .library(name: "NavigationSimulation", targets: ["NavigationSimulation"]),
        .executable(name: "navlog", targets: ["navlog"]),
    ],
    targets: [
        .target(name: "CNavigationHistory"),
        .target(name: "NavigationHistory", dependencies: ["CNavigationHistory"]),
        .target(name: "NavigationRouting", dependencies: ["NavigationHistory"]),
        .target(name: "NavigationAnalytics", dependencies: ["NavigationHistory"]),
        .target(name: "NavigationSimulation", dependencies: ["NavigationHistory"]),
        .target(name: "RecipeApp", dependencies: ["NavigationHistory", "NavigationRouting"], path: "Examples/RecipeApp"),
        .executableTarget(name: "navlog", dependencies: ["NavigationHistory", "NavigationRouting", "NavigationAnalytics",
                                                        "NavigationSimulation", "RecipeApp"]),
        .executableTarget(name: "NavlogBench", dependencies: ["NavigationHistory", "NavigationRouting", "NavigationSimulation", "RecipeApp"],
                          path: "Tools/bench/NavlogBench"),
        .executableTarget(name: "NavlogStoreChild", dependencies: ["NavigationHistory", "NavigationRouting", "RecipeApp"],
                          path: "Tools/NavlogStoreChild"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NavigationHistoryTests", dependencies: ["NavigationHistory", "NavigationSimulation", "TestSupport"]),
        .testTarget(name: "NavigationAnalyticsTests", dependencies: ["NavigationAnalytics", "NavigationHistory", "NavigationSimulation",
                                                                    "TestSupport"]),
        .testTarget(name: "NavigationRoutingTests", dependencies: ["NavigationRouting", "NavigationHistory", "NavigationSimulation", "RecipeApp",
                                                                  "TestSupport"]),
        .testTarget(name: "NavlogTests", dependencies: ["navlog", "NavigationHistory", "NavigationSimulation", "TestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "DocumentationSnippetTests", dependencies: ["NavigationAnalytics", "NavigationHistory", "NavigationRouting",
                                                                     "NavigationSimulation"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
