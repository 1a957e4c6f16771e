import Testing
@testable import NavigationHistory
import NavigationSimulation

/// SceneIndex numbers scenes as an array of them would, through its table beyond a few scenes and
/// by comparing below, across growth and removal past the threshold both ways.
@Suite struct SceneIndexTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aSceneIndexNumbersScenesAsAnArrayOfThemDoes(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var index = SceneIndex()
        var model: [String] = []
        for step in 0..<4000 {
            let scene = "scene\(random.next() % 24)"
            switch random.next() % 3 {
            case 0, 1:
                let (number, inserted) = index.index(inserting: scene)
                if let place = model.firstIndex(of: scene) {
                    #expect(!inserted && number == place, "step \(step)")
                } else {
                    model.append(scene)
                    #expect(inserted && number == model.count - 1, "step \(step)")
                }
            default:
                guard let place = model.firstIndex(of: scene) else {
                    #expect(index.index(of: scene) == nil, "step \(step)")
                    continue
                }
                index.remove(at: place)
                model.swapAt(place, model.count - 1)
                model.removeLast()
            }
            #expect(index.scenes == model, "step \(step)")
            let probe = "scene\(random.next() % 30)"
            #expect(index.index(of: probe) == model.firstIndex(of: probe), "step \(step): \(probe)")
            if random.chance(0.01) {
                index.removeAll()
                model.removeAll()
            }
        }
    }
}
