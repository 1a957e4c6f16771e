import Foundation

/// Records an app's navigation events into a log without ever blocking the caller.
///
/// ``record(_:at:)`` only puts the event in a queue — no file I/O and no JSON encoding happen on
/// the caller's thread, so the main actor can call it on every navigation. A writer thread of its
/// own drains the queue, appends through an ``EventLog`` and makes events durable as the log's
/// ``Durability`` says (group commit). ``flush()`` waits until everything recorded so far is
/// durable and returns the last durable `seq`; ``close()`` does the same and releases the log.
///
/// ```swift
/// let recorder = try await Recorder(directory: logURL.path)
/// recorder.record(.sessionStart(app: "2.1", launch: .cold, meta: nil))
/// recorder.record(.push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "42")))
/// let durable = try await recorder.flush()
/// ```
///
/// A failed write or sync makes the log read-only: events recorded after it are not written, and
/// every later ``flush()`` and ``close()`` throws that failure (with its `errno`), as ``failure``
/// reports it. Open a new recorder to go on: opening cuts whatever the failure left torn. An event
/// the store cannot write (an unknown type, a line over 64 KiB, a state after it too large for a
/// snapshot line) is refused alone and counted in ``Status/refused``.
public actor Recorder {
    /// The session every event of this recorder belongs to.
    public nonisolated let session: String
    /// The navigation state at the end of the log when it was opened: where the last session left
    /// off, whether it ended cleanly or not.
    public nonisolated let stateAtOpen: NavigationState
    /// What opening the log found and repaired.
    public nonisolated let recovery: EventLog.Recovery
    private nonisolated let queue: RecorderQueue

    /// Opens the log in `directory` (creating it when missing) and starts the writer thread.
    ///
    /// - Parameters:
    ///   - directory: The log directory.
    ///   - options: Segment size, durability and retention.
    ///   - session: The session id of every recorded event; by default a new random one.
    /// - Throws: what ``EventLog/init(directory:options:)`` throws: `locked` when another writer
    ///   holds the log, `corruptLog`, `io`; `invalidEvent` for an empty session id.
    public init(directory: String, options: EventLog.Options = EventLog.Options(),
                session: String = UUID().uuidString.lowercased()) async throws {
        guard !session.isEmpty else {
            throw NavigationHistoryError(code: .invalidEvent, message: "a recorder's session id must not be empty")
        }
        self.session = session
        let log = try EventLog(directory: directory, options: options)
        stateAtOpen = log.state
        recovery = log.recovery
        queue = RecorderQueue(log: log)
        queue.start()
    }

    /// A recorder released without ``close()`` still makes what it recorded durable, closes the
    /// log and releases its lock, on its writer thread.
    deinit { queue.shutDown() }

    /// Queues an event of this recorder's session; it happens `at` (now by default).
    ///
    /// Never blocks on I/O and never fails: a failure of the log is reported by ``flush()``,
    /// ``close()`` and ``failure``.
    public nonisolated func record(_ action: NavigationAction, at timestamp: Timestamp = .now) {
        queue.enqueue(EventDraft(action: action, session: session, timestamp: timestamp))
    }

    /// Waits until every event recorded before this call is durable, and returns the last durable
    /// `seq` (0 when the log is empty).
    ///
    /// - Throws: the log's failure, when it failed before those events were durable.
    @discardableResult
    public func flush() async throws -> Int {
        try await queue.waitUntilDurable(closing: false)
    }

    /// Seals the current segment, on the writer thread, once every event recorded before this
    /// call is written: they are then durable and in sealed segments, ready to ship (see
    /// ``EventLog/seal()``). ``record(_:at:)`` never waits for it.
    ///
    /// - Returns: Whether a segment was sealed (false when there was nothing to seal).
    /// - Throws: the log's failure; `readOnly` once the recorder is closed.
    @discardableResult
    public func seal() async throws -> Bool {
        try await queue.perform { try $0.seal() }
    }

    /// The sealed segments not shipped yet, as ``EventLog/pendingShipments()`` lists them, on the
    /// writer thread (also after a failure made the log read-only).
    public func pendingShipments() async throws -> PendingShipments {
        try await queue.perform { try $0.pendingShipments() }
    }

    /// Records that `shipment` was delivered, as ``EventLog/markShipped(_:)`` does, on the writer
    /// thread: call it only once the other side acknowledged it.
    public func markShipped(_ shipment: Shipment) async throws {
        try await queue.perform { try $0.markShipped(shipment) }
    }

    /// Makes everything recorded durable, stops the writer and releases the log.
    ///
    /// - Returns: The last durable `seq`.
    /// - Throws: the log's failure, when it failed.
    @discardableResult
    public func close() async throws -> Int {
        try await queue.waitUntilDurable(closing: true)
    }

    /// The log's events from `start` on, then each one this recorder records, once it is durable,
    /// handed over from the writer thread without reading the disk; see ``LogSubscription``.
    ///
    /// The subscription catches up from the files, then takes each batch the writer makes durable.
    /// It ends when the recorder is closed (or released), and throws the log's failure when a write
    /// or sync fails. What a debug overlay shows:
    ///
    /// ```swift
    /// Task {
    ///     for try await step in recorder.events(from: .end).withStates() {
    ///         overlay.show(step.state.scenes["main"]?.visibleScreen.route.screen ?? "-")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter start: Where to begin; by default the first event the log still holds.
    public nonisolated func events(from start: SubscriptionStart = .oldest) -> LogSubscription {
        LogSubscription(path: queue.directory, start: start, feed: queue.feed)
    }

    /// The last `seq` known to be durable.
    public var durableSeq: Int { queue.status().durableSeq }

    /// The failure that made the log read-only, if any.
    public var failure: NavigationHistoryError? { queue.status().failure }

    /// What the recorder has done so far.
    public var status: Status { queue.status() }

    /// What a recorder has done so far.
    public struct Status: Sendable {
        /// Events recorded (queued) so far.
        public var recorded: Int
        /// The last `seq` known to be durable.
        public var durableSeq: Int
        /// Events refused because the format cannot hold them, with the last reason.
        public var refused: Int
        /// Why the last refused event was refused.
        public var lastRefusal: NavigationHistoryError?
        /// Events recorded after ``Recorder/close()`` began: not written. A ``Recorder/flush()``
        /// waiting for them throws `readOnly`.
        public var droppedAfterClose: Int
        /// The failure that made the log read-only, if any.
        public var failure: NavigationHistoryError?
    }
}
