/// Keeps every state the store reaches small enough to be written as a `snapshot` line, which the
/// store must be able to write at any moment: it starts each segment with one.
///
/// A state whose snapshot line would be longer than a line may be (64 KiB) could be folded, but
/// never written, so the event leading to it is refused instead, before anything is written or
/// shown: the ``EventLog`` refuses it when appending, and the `Router` asks first.
///
/// Measuring a state means encoding it, so the budget keeps an upper bound on the length of the
/// state's snapshot line instead, and measures only when the bound nears the limit. The bound holds
/// because no event makes the state's encoding grow by more than twice its own line plus a
/// constant: every string an event adds to the state is in its line, and none is written more than
/// twice (a tab's or a scene's id, as the selection and as a key).
package struct SnapshotBudget: Sendable {
    /// The longest line the store may write, as its reader accepts.
    package static let limit = LineDecoder.maximumLineLength

    /// An upper bound on the length of the state's snapshot line.
    package private(set) var bound: Int

    /// A budget for `state`, measured.
    package init(_ state: NavigationState, session: String) {
        bound = Self.snapshotLength(of: state, session: session)
    }

    /// Folds `event`, whose line takes `lineLength` bytes, into `state` when the state it leads to
    /// fits a snapshot line; otherwise leaves `state` as it was.
    ///
    /// - Returns: The fold's anomaly, if any.
    /// - Throws: ``NavigationHistoryError/Code/invalidEvent`` saying how large the state would be.
    /// - Complexity: O(1) beyond the fold while the bound is far from the limit; O(size of the
    ///   state) when it is near.
    package mutating func fold(_ event: NavigationEvent, lineLength: Int, into state: inout NavigationState)
        throws(NavigationHistoryError) -> Projection.Anomaly? {
        let growth = 2 * lineLength + Self.slack
        if bound + growth <= Self.limit {
            bound += growth
            return Projection.fold(&state, event)
        }
        let before = state
        let anomaly = Projection.fold(&state, event)
        let length = Self.snapshotLength(of: state, session: event.session)
        guard length <= Self.limit else {
            state = before
            throw NavigationHistoryError(
                code: .invalidEvent,
                message: "a '\(event.type)' event the store cannot write: the state after it would take \(length) bytes"
                    + " as a snapshot line, over the \(Self.limit)-byte line limit, and the store must be able to write"
                    + " the state as a snapshot at every segment's start (keep route ids and params short: store ids,"
                    + " never whole model objects)")
        }
        bound = length
        return anomaly
    }

    /// The length of the `snapshot` line of `state` in `session`, with the largest `seq` a line may hold,
    /// so that it bounds the line of any snapshot of that state.
    package static func snapshotLength(of state: NavigationState, session: String) -> Int {
        var writer = JSONWriter(capacity: 4096)
        LineEncoder.append(NavigationEvent(seq: LineDecoder.maximumSeq, timestamp: Timestamp(millisecondsSince1970: 0), session: session,
                                           action: .snapshot(state: state)), to: &writer)
        return writer.bytes.count - 1
    }

    /// What the structure around an event's strings adds to the state at most: a new scene's or
    /// sheet's or split view's empty members and punctuation.
    static let slack = 512
}
