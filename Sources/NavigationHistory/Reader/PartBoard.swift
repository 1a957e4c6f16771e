import Dispatch
import Foundation

/// The parts of a range of lines and who decodes them: each is claimed once, the first unclaimed
/// one by the delivering thread and the last unclaimed one by a worker, so that the two meet in the
/// middle; a worker leaves its decoded part here until the delivering thread takes it.
final class PartBoard: @unchecked Sendable {
    let parts: Int
    private let lock = NSLock()
    private var next = 0
    private var last: Int
    private var results: [DecodedPart?]
    private let done: [DispatchSemaphore]

    init(parts: Int) {
        self.parts = parts
        last = parts
        results = Array(repeating: nil, count: parts)
        done = (0..<parts).map { _ in DispatchSemaphore(value: 0) }
    }

    /// The last unclaimed part, now claimed; nil when none is left.
    func claimLast() -> Int? {
        lock.withLock {
            guard next < last else { return nil }
            last -= 1
            return last
        }
    }

    /// Claims part `k` when it is the first unclaimed one.
    func claimFirst(_ k: Int) -> Bool {
        lock.withLock {
            guard next == k, next < last else { return false }
            next += 1
            return true
        }
    }

    /// Leaves no part to claim: the workers stop after the parts they hold.
    func cancel() { lock.withLock { last = next } }

    /// Leaves part `k`'s decoded lines for the delivering thread.
    func finish(_ k: Int, _ decoded: DecodedPart) {
        lock.withLock { results[k] = decoded }
        done[k].signal()
    }

    /// Waits for part `k` to be decoded, and takes it.
    func decoded(_ k: Int) -> DecodedPart {
        done[k].wait()
        return take(k)
    }

    private func take(_ k: Int) -> DecodedPart {
        lock.withLock {
            defer { results[k] = nil }
            return results[k]!
        }
    }
}
