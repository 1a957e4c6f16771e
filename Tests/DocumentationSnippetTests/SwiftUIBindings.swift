import NavigationHistory
import NavigationRouting

/// The README's SwiftUI bindings, `$router[...]`, as the key paths `@Bindable` forms of them:
/// compiled here on every platform, spelled as the README spells them
/// (`everySwiftUIBindingOfTheREADMEIsAKeyPathCompiledOnEveryPlatform` checks each is here).
@MainActor
enum SwiftUIBindings {
    static func keyPaths(scene: String, tab: String, sheet: PresentedSheet<AppRoute>) -> [PartialKeyPath<Router<AppRoute>>] {
        [\.[columnVisibility: scene], \.[selection: .sidebar, in: scene], \.[tab: scene], \.[path: tab, in: scene],
         \.[sheet: scene], \.[path: sheet.id, in: scene], \.[phase: scene]]
    }

    /// Each is writable, as a binding needs.
    static func writable(scene: String, tab: String) -> (ReferenceWritableKeyPath<Router<AppRoute>, [AppRoute]>,
                                                          ReferenceWritableKeyPath<Router<AppRoute>, String>,
                                                          ReferenceWritableKeyPath<Router<AppRoute>, PresentedSheet<AppRoute>?>,
                                                          ReferenceWritableKeyPath<Router<AppRoute>, AppRoute?>,
                                                          ReferenceWritableKeyPath<Router<AppRoute>, SplitVisibility>,
                                                          ReferenceWritableKeyPath<Router<AppRoute>, ScenePhase>) {
        (\.[path: tab, in: scene], \.[tab: scene], \.[sheet: scene], \.[selection: .sidebar, in: scene], \.[columnVisibility: scene],
         \.[phase: scene])
    }
}
