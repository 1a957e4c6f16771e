extension RandomAccessCollection {
    /// How many elements at the start satisfy `isLeading`, found by binary search: the collection
    /// must be partitioned by it (every element that satisfies it before every one that does not).
    @inlinable package func countOfLeading(where isLeading: (Element) throws -> Bool) rethrows -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if try isLeading(self[index(startIndex, offsetBy: mid)]) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
