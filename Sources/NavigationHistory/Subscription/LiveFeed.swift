import Foundation

/// Hands the events a log in this process writes to its subscriptions, without the disk: the
/// ``EventLog`` publishes each batch once it is as durable as its policy makes it.
///
/// Each subscription has a ``Mailbox`` that holds at most ``Mailbox/capacity`` events: one whose
/// reader falls further behind is told so, drops what it held, and reads the files instead until
/// it has caught up, so a slow reader never makes the writer wait or hold memory for it.
package final class LiveFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var mailboxes: [ObjectIdentifier: Mailbox] = [:]
    /// Set once the log is closed (nil error) or failed.
    private var end: NavigationHistoryError??

    package init() {}

    /// Whether any subscription listens: only then does the log keep its events for publishing.
    package var isListened: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !mailboxes.isEmpty
    }

    /// Starts delivering to `mailbox`; one attached after the log ended is ended at once.
    package func attach(_ mailbox: Mailbox) {
        lock.lock()
        if let end {
            lock.unlock()
            mailbox.end(end)
            return
        }
        mailboxes[ObjectIdentifier(mailbox)] = mailbox
        lock.unlock()
    }

    /// Stops delivering to `mailbox`.
    package func detach(_ mailbox: Mailbox) {
        lock.lock()
        mailboxes[ObjectIdentifier(mailbox)] = nil
        lock.unlock()
    }

    /// Delivers `events`, in order, to every attached mailbox, and that the log is durable
    /// `through` that seq: a mailbox attached while a batch was written gets none of its events,
    /// and learns from `through` that the files hold them.
    package func publish(_ events: [NavigationEvent], through: Int) {
        lock.lock()
        let all = Array(mailboxes.values)
        lock.unlock()
        for mailbox in all { mailbox.deliver(events, through: through) }
    }

    /// Ends every subscription fed here: normally when the log is closed, with `error` when it failed.
    package func finish(_ error: NavigationHistoryError?) {
        lock.lock()
        if end != nil {
            lock.unlock()
            return
        }
        end = .some(error)
        let all = Array(mailboxes.values)
        mailboxes = [:]
        lock.unlock()
        for mailbox in all { mailbox.end(error) }
    }
}

/// The events published to one subscription and not yet taken.
package final class Mailbox: @unchecked Sendable {
    /// What ``take()`` finds.
    package enum Contents {
        /// Events (perhaps none), and the last seq the log has published through.
        case events([NavigationEvent], through: Int)
        /// More than ``Mailbox/capacity`` events came while nobody took them: they were dropped.
        case overflowed
        /// The log was closed (nil) or failed.
        case ended(NavigationHistoryError?)
    }

    /// The most events a mailbox holds.
    package static let capacity = 65_536

    private let lock = NSLock()
    private let wakeup: Wakeup
    private var events: [NavigationEvent] = []
    private var through = 0
    private var overflowed = false
    private var ending: NavigationHistoryError??

    /// A mailbox that signals `wakeup` whenever something comes.
    package init(wakeup: Wakeup) {
        self.wakeup = wakeup
    }

    func deliver(_ batch: [NavigationEvent], through: Int) {
        lock.lock()
        self.through = max(self.through, through)
        if !overflowed {
            if events.count + batch.count > Self.capacity {
                events = []
                overflowed = true
            } else {
                events += batch
            }
        }
        lock.unlock()
        wakeup.signal()
    }

    func end(_ error: NavigationHistoryError?) {
        lock.lock()
        ending = .some(error)
        lock.unlock()
        wakeup.signal()
    }

    /// Takes everything delivered so far; the end only once every event before it was taken.
    package func take() -> Contents {
        lock.lock()
        defer { lock.unlock() }
        if overflowed {
            overflowed = false
            return .overflowed
        }
        if !events.isEmpty {
            defer { events = [] }
            return .events(events, through: through)
        }
        if let ending { return .ended(ending) }
        return .events([], through: through)
    }
}
