/// Where the fold last found a key in a dictionary of scenes or stacks.
///
/// Nearly every event names a scene and a stack, mostly the ones the event before named; finding
/// them again by their remembered index spares hashing their ids. An index stays valid while no
/// element is added or removed, so elements are only ever added or removed through the public
/// `scenes` and `stacks` accessors, which forget the lookup; the remembered index is only used to
/// change or read an element in place.
struct Lookup<Value>: Sendable where Value: Sendable {
    var key: String
    var index: [String: Value].Index
}

extension Dictionary where Key == String, Value: Sendable {
    /// The index of `key`, taken from `last` when it names the same key, and remembered in it.
    /// Always inlined, where `Value` is known: a merged copy for both dictionaries copied `last`
    /// through its type's value witnesses (4% of a query's instructions).
    @inline(__always)
    func index(forKey key: String, remembering last: inout Lookup<Value>?) -> Index? {
        if let last, last.key == key { return last.index }
        guard let index = index(forKey: key, after: nil) else { return nil }
        last = Lookup(key: key, index: index)
        return index
    }

    /// The index of `key`, taken from `last` when it names the same key; where `last` cannot be
    /// changed, as the screen-view tracker reads a scene.
    @inline(__always)
    func index(forKey key: String, after last: Lookup<Value>?) -> Index? {
        if let last, last.key == key { return last.index }
        return count <= 8 ? indexByComparing(key) : index(forKey: key)
    }

    /// The index of `key`, found by comparing it with each key: a scene's stacks and an app's
    /// scenes are a few, and hashing a key cost more than comparing it with all of them (equal
    /// short strings compare as two words).
    private func indexByComparing(_ key: String) -> Index? {
        var index = startIndex
        while index != endIndex {
            if keys[index] == key { return index }
            formIndex(after: &index)
        }
        return nil
    }
}
