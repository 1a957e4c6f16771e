import Dispatch

/// Runs independent pieces of work on all cores and returns their results in order.
package enum ParallelMap {
    package static func map<T: Sendable>(count: Int, _ work: @Sendable (Int) -> T) -> [T] {
        if count == 1 { return [work(0)] }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        nonisolated(unsafe) let slots = results
        DispatchQueue.concurrentPerform(iterations: count) { k in slots[k] = work(k) }
        return results.map { $0! }
    }
}
