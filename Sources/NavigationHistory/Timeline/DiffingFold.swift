/// Folds events one at a time and says what each changed: the changes ``StateDiff`` finds between
/// the states before and after it, found in time that grows with the event and its change, not
/// with the state. A replay of a session 50,000 pushes deep compares no stack whole and copies
/// none.
///
/// It keeps two states, each changed in place by the fold (``StateFolding``): the state after the
/// last event, and the state before it, which folds that event in turn before the next one. A
/// copy of the state before would share the stacks, and the fold would then copy the stack it
/// changes, routes and all, at every event.
package struct DiffingFold {
    /// The state after the last event folded.
    package var after: NavigationState { afterFolding.state }
    /// The state before the last event folded (``after`` before any): it folds that event at the
    /// next one.
    package var before: NavigationState { beforeFolding.state }
    private var afterFolding: StateFolding
    private var beforeFolding: StateFolding
    /// The last event, when ``before`` has yet to fold it.
    private var pending: NavigationEvent?

    /// Begins at `state`.
    package init(_ state: NavigationState) {
        afterFolding = StateFolding(state)
        beforeFolding = StateFolding(state)
    }

    /// Folds `event`; returns its anomaly and what it changed, which is nothing for an anomaly.
    package mutating func fold(_ event: NavigationEvent) -> (anomaly: Projection.Anomaly?, changes: [StateDiff.Change]) {
        catchUp()
        var edits = FoldEdits()
        let anomaly = afterFolding.fold(event, edits: &edits)
        guard anomaly == nil else { return (anomaly, []) }   // an anomaly changes nothing
        pending = event
        // The one scene the event names, the only one it can change, unless it replaced the
        // state: only then is every scene compared.
        if event.setsWholeState { return (nil, StateDiff(from: before, to: after).changes) }
        return (nil, StateDiff(from: before, to: after, in: event.action.scene, edits: edits).changes)
    }

    /// Folds the last event into the state before it, which then equals the state after it.
    private mutating func catchUp() {
        guard let event = pending.take() else { return }
        beforeFolding.fold(event)
    }
}
