import Dispatch
import Foundation

/// Runs `body` with each of `0..<count` at once, each on a thread of its own — the calling thread
/// runs 0 — and returns once all are done.
///
/// Threads of their own rather than `DispatchQueue.concurrentPerform`'s: when the pool's threads
/// are busy, as under Swift tasks that block, it runs its iterations one after another on the
/// calling thread, and a chunked reading would read its chunks one after another.
func onThreads(_ count: Int, _ body: (Int) -> Void) {
    withoutActuallyEscaping(body) { body in
        let done = DispatchSemaphore(value: 0)
        for k in 1..<max(count, 1) {
            let lent = Lent(body)
            Thread {
                // Given back before the signal: `withoutActuallyEscaping` checks that no thread
                // still holds it once all are done.
                lent.take()(k)
                done.signal()
            }.start()
        }
        body(0)
        for _ in 1..<max(count, 1) { done.wait() }
    }
}

/// A closure lent to one thread, which takes it once.
private final class Lent: @unchecked Sendable {
    private var body: ((Int) -> Void)?

    init(_ body: @escaping (Int) -> Void) { self.body = body }

    func take() -> (Int) -> Void {
        defer { body = nil }
        return body!
    }
}

/// The cores this process may run on, read once: asking Foundation reads the scheduler's affinity
/// and the cgroup's quota, about 1.5% of a seek's time (`NavlogBench timeline --seek-log`), and
/// every seek makes a reader. The library asks nowhere else.
@usableFromInline let activeCores = ProcessInfo.processInfo.activeProcessorCount
