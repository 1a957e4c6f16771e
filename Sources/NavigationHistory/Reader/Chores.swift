import Dispatch
import Foundation

/// What a reading's delivering thread is done with and leaves to its workers to put away: the
/// windows' mappings to unmap and the workers' decoded parts to free. A worker does them when it
/// starts on the next window's lines, where the parts' balance takes the work into account, and
/// where the parts' memory goes back to the malloc arena it came from.
///
/// Done on the delivering thread, unmapping was a twelfth of that thread's samples, and freeing
/// the parts there contended for the workers' arenas' locks (`strace -c`: about 2,000 futex calls a
/// reading of 1M events); done by the global queue beside two busy threads, on two cores, it took
/// a core from one of them. `NavlogBench read`, 2 cores, 60 runs each in turns: median 0.1415 s
/// by the global queue against 0.1368 s by the workers, with 2–13% less CPU.
final class Chores: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [@Sendable () -> Void] = []
    private var pendingMappings = 0

    /// Leaves `parts` to be freed.
    func free(_ parts: [DecodedPart]) {
        lock.withLock { pending.append { _ = parts } }
    }

    /// Leaves `mapping` to be unmapped, once unguarded; false when one is left already, as each
    /// holds one of the guard's slots till then: the caller unmaps it itself.
    func unmap(_ mapping: MappedBytes) -> Bool {
        nonisolated(unsafe) let mapping = mapping
        return lock.withLock {
            guard pendingMappings == 0 else { return false }
            pendingMappings += 1
            pending.append { mapping.unmap() }
            return true
        }
    }

    /// Does what was left, on this thread.
    func run() {
        let work = lock.withLock {
            defer {
                pending = []
                pendingMappings = 0
            }
            return pending
        }
        for chore in work { chore() }
    }

    /// Does what was left on another thread: at a reading's end, whose caller has nothing to wait for.
    func runAside() {
        guard lock.withLock({ !pending.isEmpty }) else { return }
        DispatchQueue.global().async { self.run() }
    }
}
