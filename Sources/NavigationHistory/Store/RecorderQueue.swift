import Foundation

/// The queue between ``Recorder/record(_:at:)`` and the writer thread that owns the ``EventLog``.
///
/// Every recorded event gets a ticket (its number among the recorded events). The writer takes
/// whole batches, appends them, syncs, and then knows that every ticket up to the batch's last is
/// durable; waiting callers are resumed by ticket. All state is guarded by `condition`; `log` is
/// touched only by the writer thread (and by `start` before the thread exists).
final class RecorderQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let log: EventLog
    /// The log's subscriptions' feed, and its directory: touched by any thread.
    let feed: LiveFeed, directory: String
    /// When the writer takes a batch: at once, or once it is `size` events or `delay` old.
    private let batching: (delay: Duration, size: Int)?
    private let syncsEachBatch: Bool

    private var pending: [EventDraft] = []
    /// The writer's batch; swapped with `pending` when the writer takes one.
    private var spare: [EventDraft] = []
    private var oldestPending: ContinuousClock.Instant?
    private var recorded = 0
    private var durableTickets = 0
    private var durableSeq: Int
    /// `enqueue` signals the writer once this many events are pending.
    private var wakeAt = 1
    private var syncRequested = false
    private var closing = false
    private var finished = false
    private var failure: NavigationHistoryError?
    private var refused = 0
    private var droppedAfterClose = 0
    private var lastRefusal: NavigationHistoryError?
    private var waiters: [(ticket: Int, continuation: CheckedContinuation<Int, any Error>)] = []
    /// Work to do on the log itself, each after the events recorded before it was asked for.
    private var tasks: [(EventLog) -> Void] = []

    init(log: EventLog) {
        self.log = log
        feed = log.feed
        directory = log.directory
        durableSeq = log.durableSeq
        switch log.options.durability {
        case .everyEvent: batching = nil; syncsEachBatch = true
        case .batched(let delay, let size): batching = (delay, max(size, 1)); syncsEachBatch = true
        case .none: batching = (.milliseconds(50), 1000); syncsEachBatch = false
        }
        pending.reserveCapacity(1024)
        spare.reserveCapacity(1024)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "NavigationHistory.Recorder"
        thread.start()
    }

    // MARK: Callers

    func enqueue(_ draft: EventDraft) {
        condition.lock()
        recorded += 1
        if closing || finished {
            droppedAfterClose += 1
        } else if failure == nil {
            pending.append(draft)
            if oldestPending == nil { oldestPending = .now }
            if pending.count >= wakeAt {
                wakeAt = .max
                condition.signal()
            }
        }
        condition.unlock()
    }

    /// Waits until every event recorded before the call is durable; with `closing`, also stops
    /// the writer and closes the log.
    func waitUntilDurable(closing close: Bool) async throws -> Int {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            condition.lock()
            if finished || (failure != nil && !close) {
                let result: Result<Int, any Error> = failure.map { .failure($0) }
                    ?? (durableTickets < recorded ? .failure(closedError()) : .success(durableSeq))
                condition.unlock()
                continuation.resume(with: result)
                return
            }
            if !close && durableTickets >= recorded {
                let seq = durableSeq
                condition.unlock()
                continuation.resume(returning: seq)
                return
            }
            waiters.append((close ? .max : recorded, continuation))
            if close { closing = true } else { syncRequested = true }
            wakeAt = .max
            condition.signal()
            condition.unlock()
        }
    }

    /// Runs `body` on the writer thread with the log, once every event recorded before this call
    /// is appended (so a seal seals them), also after a failure made the log read-only.
    ///
    /// - Throws: what `body` throws; `readOnly` once the recorder is closed.
    func perform<T: Sendable>(_ body: @escaping @Sendable (EventLog) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            condition.lock()
            guard !closing && !finished else {
                condition.unlock()
                continuation.resume(throwing: NavigationHistoryError(code: .readOnly, message: "the recorder is closed", path: directory))
                return
            }
            tasks.append { log in continuation.resume(with: Result { try body(log) }) }
            wakeAt = .max
            condition.signal()
            condition.unlock()
        }
    }

    func status() -> Recorder.Status {
        condition.lock()
        defer { condition.unlock() }
        return Recorder.Status(recorded: recorded, durableSeq: durableSeq, refused: refused,
                               lastRefusal: lastRefusal, droppedAfterClose: droppedAfterClose, failure: failure)
    }

    // MARK: The writer thread

    private func run() {
        condition.lock()
        while true {
            waitForWork()
            // The full queue becomes the batch and the emptied spare becomes the queue: nothing is
            // allocated or copied while callers wait for the lock.
            swap(&pending, &spare)
            oldestPending = nil
            let work = tasks
            tasks.removeAll()
            let tickets = recorded
            let mustSync = syncRequested || closing
            let isClosing = closing
            syncRequested = false
            wakeAt = .max
            let failedBefore = failure != nil
            condition.unlock()

            var refusals: [NavigationHistoryError] = []
            var error: NavigationHistoryError?
            if !failedBefore {
                do {
                    refusals = try append(spare)
                    if syncsEachBatch || mustSync { try log.sync() }
                } catch let failed as NavigationHistoryError {
                    error = failed
                } catch {
                    preconditionFailure("EventLog throws only NavigationHistoryError, not \(error)")
                }
            }
            for task in work { task(log) }
            if isClosing && error == nil && !failedBefore {
                do { try log.close() } catch let failed as NavigationHistoryError { error = failed } catch {
                    preconditionFailure("EventLog throws only NavigationHistoryError, not \(error)")
                }
            }
            if isClosing { try? log.close() }   // releases the lock, also after a failure
            spare.removeAll(keepingCapacity: true)

            condition.lock()
            refused += refusals.count
            if let last = refusals.last { lastRefusal = last }
            if let error, failure == nil { failure = error }
            durableSeq = log.durableSeq
            if failure == nil && log.durableSeq == log.nextSeq - 1 { durableTickets = tickets }
            if isClosing { finished = true }
            let ready = takeReadyWaiters()
            let done = finished
            condition.unlock()
            for (continuation, result) in ready { continuation.resume(with: result) }
            if done { return }
            condition.lock()
        }
    }

    /// Waits, with the lock held, until there is a batch to take or a sync or close to do.
    private func waitForWork() {
        while !closing && !syncRequested && tasks.isEmpty {
            if pending.isEmpty {
                wakeAt = 1
                condition.wait()
                continue
            }
            guard let batching, let oldest = oldestPending else { return }
            let deadline = oldest + batching.delay
            if pending.count >= batching.size || ContinuousClock.now >= deadline { return }
            wakeAt = batching.size
            _ = condition.wait(until: Date(timeIntervalSinceNow: max(0, (deadline - .now).seconds)))
        }
    }

    /// Appends a batch; an event the format cannot hold is refused alone.
    private func append(_ batch: [EventDraft]) throws -> [NavigationHistoryError] {
        var refusals: [NavigationHistoryError] = []
        var remaining = batch[...]
        while !remaining.isEmpty {
            do {
                try log.append(contentsOf: remaining)
                break
            } catch let refusal as NavigationHistoryError where refusal.code == .invalidEvent {
                refusals.append(refusal)
                remaining = remaining.dropFirst(log.appendedByLastCall + 1)
            }
        }
        return refusals
    }

    /// The waiters that can be resumed now, removed from the list; with the lock held.
    private func takeReadyWaiters() -> [(CheckedContinuation<Int, any Error>, Result<Int, any Error>)] {
        var ready: [(CheckedContinuation<Int, any Error>, Result<Int, any Error>)] = []
        waiters.removeAll { waiter in
            let closes = waiter.ticket == .max
            // A close returns only once the log is closed and its lock released.
            if closes && !finished { return false }
            if let failure {
                ready.append((waiter.continuation, .failure(failure)))
            } else if closes || durableTickets >= waiter.ticket {
                ready.append((waiter.continuation, .success(durableSeq)))
            } else if finished {
                ready.append((waiter.continuation, .failure(closedError())))   // recorded after close()
            } else {
                return false
            }
            return true
        }
        return ready
    }

    /// The error for events recorded after `close()`; with the lock held.
    private func closedError() -> NavigationHistoryError {
        NavigationHistoryError(code: .readOnly,
                               message: "the recorder is closed: \(droppedAfterClose) event\(droppedAfterClose == 1 ? "" : "s") recorded after close() were not written")
    }

    /// Closes the log without anyone waiting: what a recorder released without `close()` does.
    func shutDown() {
        condition.lock()
        if !finished {
            closing = true
            condition.signal()
        }
        condition.unlock()
    }
}
