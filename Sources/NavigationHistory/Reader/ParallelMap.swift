import Dispatch

/// Runs independent pieces of work on all cores and returns their results in order.
package enum ParallelMap {
    package static func map<T: Sendable>(count: Int, _ work: @Sendable (Int) -> T) -> [T] {
        if count == 1 { return [work(0)] }
        var results = [T?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: count) { k in slots[k] = work(k) }
        }
        return results.map { $0! }
    }
}
