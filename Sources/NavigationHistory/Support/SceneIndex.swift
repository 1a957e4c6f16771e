/// Numbers scene ids densely, in the order they come, for what is kept per scene beside it (an
/// open view, a path): the value of the scene numbered `k` is the `k`-th of an array.
///
/// An app has a few scenes: they are found by comparing ids, which costs less than hashing one.
/// Beyond a few, a table finds them, so that a log that opens thousands of scenes costs the same
/// for each event as one that opens a few.
package struct SceneIndex: Sendable {
    /// The scenes, by number.
    package private(set) var scenes: [String] = []
    /// The number of each scene, kept while there are more than ``few`` of them.
    private var numbers: [String: Int] = [:]
    /// How many scenes are found by comparing ids.
    package static let few = 8

    /// Creates an empty index.
    package init() {}

    /// The number of `scene`, nil when it has none.
    package func index(of scene: String) -> Int? {
        scenes.count <= Self.few ? scenes.firstIndex(of: scene) : numbers[scene]
    }

    /// Numbers `scene` next unless it has a number; returns its number and whether it is new.
    package mutating func index(inserting scene: String) -> (index: Int, inserted: Bool) {
        if let index = index(of: scene) { return (index, false) }
        append(scene)
        return (scenes.count - 1, true)
    }

    /// Numbers `scene`, which has no number, next.
    package mutating func append(_ scene: String) {
        scenes.append(scene)
        if scenes.count == Self.few + 1 {
            numbers = Dictionary(uniqueKeysWithValues: scenes.indices.map { (scenes[$0], $0) })
        } else if scenes.count > Self.few {
            numbers[scene] = scenes.count - 1
        }
    }

    /// Removes the scene numbered `index`: the last scene takes its number, as its value must take
    /// the removed one's place (`values.swapAt(index, last); values.removeLast()`).
    package mutating func remove(at index: Int) {
        if scenes.count > Self.few {
            numbers[scenes[index]] = nil
            if index != scenes.count - 1 { numbers[scenes[scenes.count - 1]] = index }
        }
        scenes.swapAt(index, scenes.count - 1)
        scenes.removeLast()
        if scenes.count == Self.few { numbers = [:] }
    }

    /// Removes every scene.
    package mutating func removeAll(keepingCapacity: Bool = false) {
        scenes.removeAll(keepingCapacity: keepingCapacity)
        if !numbers.isEmpty { numbers = [:] }
    }
}
