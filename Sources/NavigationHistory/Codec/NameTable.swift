/// Names matched against bytes of a line — the format's member names, its type names — built once
/// from the vocabulary and kept in memory that is never freed: a lookup retains nothing, so
/// decoding threads share the table without contending for a reference count, as they did for an
/// array's storage (`Tools/bench/run --only read`, all cores).
package struct NameTable<Value: Sendable>: @unchecked Sendable {
    /// Every name's bytes, one after another.
    private let bytes: UnsafeMutablePointer<UInt8>
    /// Each entry's offset in `bytes`, sorted by the names' lengths.
    private let offsets: UnsafeMutablePointer<Int>
    private let values: UnsafeMutablePointer<Value>
    /// For each length from 0 to `longest`, the range of entries of that length.
    private let ranges: UnsafeMutablePointer<Range<Int>>
    private let longest: Int

    /// A table of `entries`; names are compared byte for byte.
    package init(_ entries: [(name: String, value: Value)]) {
        let sorted = entries.map { (Array($0.name.utf8), $0.value) }.sorted { $0.0.count < $1.0.count }
        longest = sorted.last?.0.count ?? 0
        let total = sorted.reduce(0) { $0 + $1.0.count }
        bytes = .allocate(capacity: max(1, total))
        offsets = .allocate(capacity: max(1, sorted.count))
        values = .allocate(capacity: max(1, sorted.count))
        ranges = .allocate(capacity: longest + 1)
        var offset = 0
        for (index, (name, value)) in sorted.enumerated() {
            (bytes + offset).initialize(from: name, count: name.count)
            offsets[index] = offset
            (values + index).initialize(to: value)
            offset += name.count
        }
        for length in 0...longest {
            let first = sorted.firstIndex { $0.0.count >= length } ?? sorted.count
            let end = sorted.firstIndex { $0.0.count > length } ?? sorted.count
            ranges[length] = first..<end
        }
    }

    /// The value of the name that `count` bytes at `p` spell; nil when none does.
    @inline(__always)
    package func value(named p: UnsafePointer<UInt8>, _ count: Int) -> Value? {
        guard count <= longest else { return nil }
        for index in ranges[count] where memcmpEqual(p, bytes + offsets[index], count) { return values[index] }
        return nil
    }
}

extension EventMember {
    private static let names = NameTable(allCases.map { ($0.name, $0) })

    /// The member a key names, from its raw bytes (keys with escapes are decoded first).
    @inline(__always)
    package static func named(_ p: UnsafePointer<UInt8>, _ count: Int) -> EventMember? { names.value(named: p, count) }
}

extension EventType {
    private static let names = NameTable(allCases.map { ($0.rawValue, $0) })

    /// The type a `type` member's raw bytes name, without making a `String`.
    @inline(__always)
    package static func named(_ p: UnsafePointer<UInt8>, _ count: Int) -> EventType? { names.value(named: p, count) }
}
