import Foundation

/// A signal one waiting task waits for: set by whoever has news (a file changed, events were
/// published), taken by the waiter. A signal given while nobody waits is kept for the next wait,
/// so news between a look and the wait that follows it is never lost.
package final class Wakeup: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?

    package init() {}

    /// Wakes the waiter, or the next one to wait.
    package func signal() {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume()
        } else {
            pending = true
            lock.unlock()
        }
    }

    /// Waits until a signal comes (at once when one came since the last wait), or the task is
    /// cancelled. Suspends without a thread: nothing spins.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if pending || Task.isCancelled {
                    pending = false
                    lock.unlock()
                    continuation.resume()
                    return
                }
                waiter = continuation
                lock.unlock()
            }
        } onCancel: {
            signal()
        }
    }
}
