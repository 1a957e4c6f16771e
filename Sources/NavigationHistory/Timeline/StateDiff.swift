/// What changed between two navigation states: scenes opened and closed, the active scene, tabs,
/// which stacks gained or lost which routes, sheets, split views, and lifecycle phases.
///
/// A stack's change is given as the routes removed from its top and the routes added after the
/// part both states share, so a push is one route added and a pop of two is two removed.
///
/// ```swift
/// for change in StateDiff(from: before, to: after).changes { print(change) }
/// ```
public struct StateDiff: Sendable, Hashable {
    /// One difference.
    public enum Change: Sendable, Hashable, CustomStringConvertible {
        /// A scene was opened.
        case sceneOpened(scene: String)
        /// A scene was closed.
        case sceneClosed(scene: String)
        /// The active scene changed.
        case activeScene(from: String?, to: String?)
        /// A scene's selected tab changed.
        case tab(scene: String, from: String?, to: String?)
        /// A stack (a tab's, `main`, `detail`, or a sheet's) lost `removed` from its top and gained `added`.
        case stack(scene: String, stack: String, removed: [Route], added: [Route])
        /// A sheet was presented, as it is in the later state.
        case sheetPresented(scene: String, sheet: Sheet)
        /// A sheet was dismissed, as it was in the earlier state.
        case sheetDismissed(scene: String, sheet: Sheet)
        /// A scene's split view changed: its selections or visible columns.
        case split(scene: String, from: SplitState?, to: SplitState?)
        /// A scene's lifecycle phase changed.
        case phase(scene: String, from: ScenePhase, to: ScenePhase)

        public var description: String {
            func routes(_ list: [Route]) -> String { list.map(\.text).joined(separator: ", ") }
            switch self {
            case .sceneOpened(let scene): return "scene \(scene) opened"
            case .sceneClosed(let scene): return "scene \(scene) closed"
            case .activeScene(let from, let to): return "active scene \(from ?? "none") → \(to ?? "none")"
            case .tab(let scene, let from, let to): return "\(scene): tab \(from ?? "none") → \(to ?? "none")"
            case .stack(let scene, let stack, let removed, let added):
                var parts: [String] = []
                if !removed.isEmpty { parts.append("−[\(routes(removed))]") }
                if !added.isEmpty { parts.append("+[\(routes(added))]") }
                return "\(scene)/\(stack): \(parts.joined(separator: " "))"
            case .sheetPresented(let scene, let sheet): return "\(scene): sheet \(sheet.id) presented (\(sheet.root.text))"
            case .sheetDismissed(let scene, let sheet): return "\(scene): sheet \(sheet.id) dismissed"
            case .split(let scene, let from, let to):
                func text(_ split: SplitState?) -> String {
                    guard let split else { return "none" }
                    return "sidebar \(split.sidebar?.text ?? "none"), content \(split.content?.text ?? "none"), \(split.visibility.rawValue)"
                }
                return "\(scene): split \(text(from)) → \(text(to))"
            case .phase(let scene, let from, let to): return "\(scene): phase \(from.rawValue) → \(to.rawValue)"
            }
        }
    }

    /// The differences, scene by scene in name order.
    public var changes: [Change]

    /// Whether the two states are the same.
    public var isEmpty: Bool { changes.isEmpty }

    /// The differences that lead from `old` to `new`.
    public init(from old: NavigationState, to new: NavigationState) {
        var changes: [Change] = []
        for scene in Set(old.scenes.keys).union(new.scenes.keys).sorted() {
            changes += Self.changes(of: scene, from: old, to: new, edits: nil)
        }
        if old.active != new.active { changes.append(.activeScene(from: old.active, to: new.active)) }
        self.changes = changes
    }

    /// The changes of `scene` from `old` to `new`: opened, closed, or changed within (where `edits`
    /// says, when it is given).
    private static func changes(of scene: String, from old: NavigationState, to new: NavigationState, edits: FoldEdits?) -> [Change] {
        switch (old.scenes[scene], new.scenes[scene]) {
        case (nil, let added?):
            return [.sceneOpened(scene: scene)] + changes(in: scene, from: SceneState(), to: added)
        case (_?, nil):
            return [.sceneClosed(scene: scene)]
        case (let before?, let after?):
            return edits.map { changes(in: scene, from: before, to: after, edits: $0) } ?? changes(in: scene, from: before, to: after)
        case (nil, nil):
            return []
        }
    }

    private static func changes(in scene: String, from old: SceneState, to new: SceneState) -> [Change] {
        var changes: [Change] = []
        if old.tab != new.tab { changes.append(.tab(scene: scene, from: old.tab, to: new.tab)) }
        for stack in Set(old.stacks.keys).union(new.stacks.keys).sorted() {
            if let change = stackChange(scene, stack, old.stacks[stack] ?? [], new.stacks[stack] ?? []) { changes.append(change) }
        }
        var shared = 0
        while shared < min(old.sheets.count, new.sheets.count),
              old.sheets[shared].id == new.sheets[shared].id, old.sheets[shared].root == new.sheets[shared].root {
            if let change = stackChange(scene, old.sheets[shared].id, old.sheets[shared].stack, new.sheets[shared].stack) { changes.append(change) }
            shared += 1
        }
        return changes + sheetsAndSplit(in: scene, from: old, to: new, sharing: shared)
    }

    /// The sheets dismissed and presented above the first `shared` the two scenes have alike,
    /// then the split view's change and the phase's.
    private static func sheetsAndSplit(in scene: String, from old: SceneState, to new: SceneState, sharing shared: Int) -> [Change] {
        var changes: [Change] = []
        for sheet in old.sheets[shared...].reversed() { changes.append(.sheetDismissed(scene: scene, sheet: sheet)) }
        for sheet in new.sheets[shared...] {
            changes.append(.sheetPresented(scene: scene, sheet: sheet))
            if let change = stackChange(scene, sheet.id, [], sheet.stack) { changes.append(change) }
        }
        if old.split != new.split { changes.append(.split(scene: scene, from: old.split, to: new.split)) }
        if old.phase != new.phase { changes.append(.phase(scene: scene, from: old.phase, to: new.phase)) }
        return changes
    }

    /// The change of a stack from `old` to `new` routes, whose first `kept` are known to be equal.
    private static func stackChange(_ scene: String, _ stack: String, _ old: [Route], _ new: [Route], kept: Int = 0) -> Change? {
        let both = min(old.count, new.count)
        var shared = min(kept, both)
        while shared < both, old[shared] == new[shared] { shared += 1 }
        guard shared < old.count || shared < new.count else { return nil }
        return .stack(scene: scene, stack: stack, removed: Array(old[shared...].reversed()), added: Array(new[shared...]))
    }
}

extension StateDiff {
    /// The changes from `old` to `new`, two states that differ at most in `scene` (if any) and in
    /// the active scene, and in that scene at most in its tab, its split view, its phase and the routes and sheets
    /// `edits` names: what one event the fold told `edits` of changed. They are the changes
    /// ``init(from:to:)`` finds, in the same order, found in time that grows with the change,
    /// not with the states.
    init(from old: NavigationState, to new: NavigationState, in scene: String?, edits: FoldEdits) {
        var changes = scene.map { Self.changes(of: $0, from: old, to: new, edits: edits) } ?? []
        if old.active != new.active { changes.append(.activeScene(from: old.active, to: new.active)) }
        self.changes = changes
    }

    /// ``changes(in:from:to:)`` of a scene whose stacks and sheets differ only where `edits` says.
    private static func changes(in scene: String, from old: SceneState, to new: SceneState, edits: FoldEdits) -> [Change] {
        var changes: [Change] = []
        if old.tab != new.tab { changes.append(.tab(scene: scene, from: old.tab, to: new.tab)) }
        // The routes changed: a sheet's stack, found as the fold finds it, or else the scene's.
        var sheetStacks: [(sheet: Int, kept: Int)] = []
        for (stack, kept) in edits.routes.sorted(by: { $0.stack < $1.stack }) {
            if let sheet = new.sheets.lastIndex(where: { $0.id == stack }) {
                sheetStacks.append((sheet, kept))
            } else if let change = stackChange(scene, stack, old.stacks[stack] ?? [], new.stacks[stack] ?? [], kept: kept) {
                changes.append(change)
            }
        }
        // The sheets both have: all of them unless the sheets changed.
        var shared = min(edits.keptSheets ?? new.sheets.count, old.sheets.count, new.sheets.count)
        while shared < min(old.sheets.count, new.sheets.count),
              old.sheets[shared].id == new.sheets[shared].id, old.sheets[shared].root == new.sheets[shared].root {
            shared += 1
        }
        for (sheet, kept) in sheetStacks.sorted(by: { $0.sheet < $1.sheet }) where sheet < shared {
            if let change = stackChange(scene, new.sheets[sheet].id, old.sheets[sheet].stack, new.sheets[sheet].stack, kept: kept) { changes.append(change) }
        }
        return changes + sheetsAndSplit(in: scene, from: old, to: new, sharing: shared)
    }
}

extension Route {
    /// The route as text: `screen`, `screen(id)`, or `screen(id){key=value,...}`.
    public var text: String {
        var text = screen
        if let id { text += "(\(id))" }
        if let params, !params.isEmpty {
            text += "{" + params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
        }
        return text
    }
}
