import NavigationHistory

/// The rows of the `sessions` table: one per session (one per part with `--idle`), named as its
/// views are, with how it ended and how long it was in the foreground.
///
/// Fed with the events and the endings of a ``ViewStream`` reading; a row is complete when its
/// session's end is learnt:
///
/// ```swift
/// var rows = SessionRows()
/// try ViewStream.read(path, events: { event, app, state in rows.see(event, app: app, stateAfter: state) },
///                     endings: { session, ending in if let row = rows.end(session, ending: ending) { print(row) } }) { _ in }
/// ```
public struct SessionRows: Sendable {
    /// One session, or one part of a session.
    public struct Row: Sendable, Hashable {
        /// The session as its views name it (`ID#2` for its second part).
        public var session: String
        /// The session id as the log has it.
        public var id: String
        /// The app version its `session.start` named.
        public var app: String?
        /// `cold` or `warm`, as its session's `session.start` said (every part's); nil without one.
        public var launch: String?
        /// The seq and time of its first event, and the time of its last (snapshots aside).
        public var startSeq: Int, start: Timestamp, end: Timestamp
        /// How it ended; a part that an idle gap ended, as ``SessionEnding/endOfPart`` says.
        public var ended: SessionEnd = .open
        /// Its events, snapshots aside.
        public var events: Int = 0
        /// The scenes open after any of its events.
        public var scenes: Set<String> = []
        /// The time from ``start`` to ``end`` during which at least one open scene was not in
        /// `background`, in milliseconds: the sum, over each of its events but the last, of the
        /// time to the next one when after that event some open scene was not in `background`.
        public var foregroundMilliseconds: Int64 = 0
    }

    private var current: Row?
    /// The session id of the last row begun, and its launch: a later part keeps it.
    private var launch: (id: String, kind: String?)?
    /// Whether, after the last event seen, some open scene was not in `background`.
    private var inForeground = false

    /// No session seen yet.
    public init() {}

    /// Sees `event` of a session whose app version is `app`, with the state after it.
    public mutating func see(_ event: NavigationEvent, app: String?, stateAfter state: NavigationState) {
        guard !event.isSnapshot else { return }
        if current == nil || current!.id != event.session {
            if case .sessionStart(_, let kind, _) = event.action {
                launch = (event.session, kind.rawValue)
            } else if launch?.id != event.session {
                launch = (event.session, nil)
            }
            current = Row(session: event.session, id: event.session, app: app, launch: launch!.kind, startSeq: event.seq,
                          start: event.timestamp, end: event.timestamp)
        } else {
            // Never negative: a clock that went back adds no time.
            if inForeground { current!.foregroundMilliseconds += max(0, event.timestamp.millisecondsSince1970 - current!.end.millisecondsSince1970) }
            current!.end = event.timestamp
        }
        current!.events += 1
        for scene in state.scenes.keys { current!.scenes.insert(scene) }
        inForeground = !state.isInBackground
    }

    /// Learns that `session`, as views name it, ended as `ending` says: returns its row, if its
    /// events were seen. The events seen after begin the next row.
    public mutating func end(_ session: String, ending: SessionEnd) -> Row? {
        guard var row = current, row.events > 0 else { return nil }
        current = nil
        inForeground = false
        row.session = session
        row.ended = ending
        return row
    }
}
