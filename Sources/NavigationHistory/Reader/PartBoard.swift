import Dispatch
import Foundation

/// The parts of a range of lines and who decodes them: each is claimed once, in order, by a worker
/// or by the delivering thread; a worker leaves its decoded part here until it is delivered, and
/// frees it once it was.
///
/// A part is freed on the thread that made it: freeing its events elsewhere returns their memory
/// to the other thread's malloc arena under that arena's lock, which the two threads then contend
/// for (`strace -c`: about 2,000 futex calls a reading of 1M events; `NavlogBench read`, all cores).
final class PartBoard: @unchecked Sendable {
    let parts: Int
    private let lock = NSLock()
    private var next = 0
    private var results: [DecodedPart?]
    private let done: [DispatchSemaphore]
    /// Parts a worker decoded, delivered, for a worker to free.
    private var delivered: [DecodedPart] = []

    init(parts: Int) {
        self.parts = parts
        results = Array(repeating: nil, count: parts)
        done = (0..<parts).map { _ in DispatchSemaphore(value: 0) }
    }

    /// The next unclaimed part, now claimed; nil when none is left.
    func claim() -> Int? {
        lock.withLock {
            guard next < parts else { return nil }
            next += 1
            return next - 1
        }
    }

    /// Claims part `k` when it is the next unclaimed one.
    func claim(_ k: Int) -> Bool {
        lock.withLock {
            guard next == k else { return false }
            next += 1
            return true
        }
    }

    /// Leaves no part to claim: the workers stop after the parts they hold.
    func cancel() { lock.withLock { next = parts } }

    /// Leaves part `k`'s decoded lines for the delivering thread.
    func finish(_ k: Int, _ decoded: DecodedPart) {
        lock.withLock { results[k] = decoded }
        done[k].signal()
    }

    /// Leaves a part a worker decoded, now delivered, for a worker to free.
    func retire(_ part: DecodedPart) {
        lock.withLock { delivered.append(part) }
    }

    /// Frees the delivered parts left for a worker, on its thread.
    func freeDelivered() {
        _ = takeDelivered()
    }

    /// Has the delivered parts no worker freed, delivered after the workers were done, freed on
    /// another thread: freeing them here would cost the delivering thread a tenth of a seek's time,
    /// which reads one window (`NavlogBench timeline --seek-log`).
    func freeDeliveredElsewhere() {
        let left = takeDelivered()
        guard !left.isEmpty else { return }
        DispatchQueue.global().async { _ = left }
    }

    /// The delivered parts left for a worker, no longer left.
    private func takeDelivered() -> [DecodedPart] {
        var parts: [DecodedPart] = []
        lock.withLock { swap(&parts, &delivered) }
        return parts
    }

    /// Waits for part `k` to be decoded, and takes it.
    func decoded(_ k: Int) -> DecodedPart {
        done[k].wait()
        return take(k)
    }

    /// Takes part `k` if it is decoded; nil while it is not.
    func decodedIfDone(_ k: Int) -> DecodedPart? {
        done[k].wait(timeout: .now()) == .success ? take(k) : nil
    }

    private func take(_ k: Int) -> DecodedPart {
        lock.withLock {
            defer { results[k] = nil }
            return results[k]!
        }
    }
}
