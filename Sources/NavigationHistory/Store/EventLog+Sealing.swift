/// Sealing: closing the current segment on demand, so that what was recorded can be shipped.
extension EventLog {
    /// Closes the current segment, so that every event appended so far is in a sealed segment —
    /// every segment but the last is sealed, and none is ever written again — as rotation does:
    /// the segment is synced, and the next one is written as a temporary file starting with a
    /// `snapshot` of the state, synced, renamed into place and its directory synced.
    ///
    /// Call it when the app goes to the background, before an upload of ``pendingShipments()``.
    /// The snapshot is written in the session of the last event, at the later of now and that
    /// event's time; it is the next segment's first event and ships with it.
    ///
    /// - Returns: Whether a segment was sealed: false when the log has no events, or when the
    ///   current segment holds nothing but its opening snapshot (sealing it again is a no-op).
    /// - Throws: `readOnly` after an earlier failure; `io` when a write or sync fails (the log is
    ///   then read-only, and the segment goes on as the current one).
    @discardableResult
    public func seal() throws -> Bool {
        try checkWritable()
        guard hasSegment, segmentBytes > openingBytes else { return false }
        let (session, last) = lastEvent
        guard try rotate(session: session, at: max(Timestamp.now, last)) else {
            // The budget keeps every state a snapshot line in the session of the event that led to
            // it, so this is a state an earlier version of the store let grow.
            throw NavigationHistoryError(code: .invalidEvent, message: "the state is too large for the snapshot that would"
                                         + " start the next segment; the segment stays the current one", path: directory)
        }
        return true
    }
}
