// NavlogBench bindings: the writes a SwiftUI binding makes through the Router's key paths — a
// path set (push, push, swipe back, pop), a tab selected, a phase set — beside the explicit calls
// that record the same events, through a Recorder with the default policy, in turns of one round
// each so that both meet the same machine. Issue 42's target: a key-path write costs at most 1.2x
// the explicit call, for each kind. Beside them, in the same turns, the floor no member can go
// under: a write through an opaque key path to a trivial computed member of a final class, which
// is what Swift's key-path runtime alone costs (a generic projection through a writeback buffer
// it allocates, calling the getter, then the setter).
import Foundation
import NavigationHistory
import NavigationRouting
import RecipeApp

let bindingsUsage = """
    Usage: NavlogBench bindings [--rounds N] [--json OUT]
    """

/// Nanoseconds of each write of one kind, explicit and through its key path, sorted.
struct BindingTimes {
    var kind: String
    var explicit: [Double] = []
    var keyPaths: [Double] = []
}

/// A final class with a trivial computed member: the cost of a write through its key path is the
/// key-path runtime's own.
final class KeyPathFloor {
    private var value = ""
    var member: String {
        get { value }
        set { value = newValue }
    }
}

/// `key`, hidden from the optimizer, which folds a write through a key path literal it can see
/// into a direct call; a SwiftUI binding's key path reaches the write opaque.
@inline(never)
func opaque<Root, Value>(_ key: ReferenceWritableKeyPath<Root, Value>) -> ReferenceWritableKeyPath<Root, Value> {
    [key][0]
}

/// `rounds` rounds of the writes of each kind, explicit and through the key paths in turns.
@MainActor
func measureBindingWrites(_ rounds: Int, in directory: String) async throws -> [BindingTimes] {
    typealias Keys = Router<RecipeApp.Screen>
    let recorder = try await Recorder(directory: try freshDirectory(directory), session: "bench")
    let router = Router<RecipeApp.Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
    router.open(scene: "main")
    router.select(tab: "home")
    let paths: [[RecipeApp.Screen]] = [[.category("desserts")], [.category("desserts"), .recipe("apple-pie")], [.category("desserts")], []]
    let tabs = ["search", "home"], phases: [ScenePhase] = [.inactive, .active]
    // Formed once, as a binding holds its key path: `$router[path: "home"]` forms it as the view's
    // body is evaluated, and each write of that binding goes through it.
    let pathKey = opaque(\Keys[path: "home"]), tabKey = opaque(\Keys[tab: "main"]), phaseKey = opaque(\Keys[phase: "main"])
    let floor = KeyPathFloor(), floorKey = opaque(\KeyPathFloor.member)
    var times = [BindingTimes(kind: "path"), BindingTimes(kind: "tab"), BindingTimes(kind: "phase"), BindingTimes(kind: "floor")]
    for round in 0..<(2 * rounds) {
        let viaKeyPaths = round % 2 == 1
        func timed(_ kind: Int, _ write: () -> Void) {
            let start = monotonicNanoseconds()
            write()
            let nanos = Double(monotonicNanoseconds() - start)
            if viaKeyPaths { times[kind].keyPaths.append(nanos) } else { times[kind].explicit.append(nanos) }
        }
        for path in paths {
            timed(0) { if viaKeyPaths { router[keyPath: pathKey] = path } else { router.setPath(path, for: "home") } }
        }
        for tab in tabs {
            timed(1) { if viaKeyPaths { router[keyPath: tabKey] = tab } else { router.select(tab: tab) } }
        }
        for phase in phases {
            timed(2) { if viaKeyPaths { router[keyPath: phaseKey] = phase } else { router.setPhase(phase) } }
        }
        if viaKeyPaths {
            for tab in tabs { timed(3) { floor[keyPath: floorKey] = tab } }
        }
    }
    try await recorder.close()
    return times.map { BindingTimes(kind: $0.kind, explicit: $0.explicit.sorted(), keyPaths: $0.keyPaths.sorted()) }
}

func runBindings(_ arguments: [String]) async throws -> Int32 {
    var rounds = 25_000
    var jsonOut: String?
    var arguments = Arguments(arguments)
    while let argument = arguments.next() {
        switch argument {
        case "--rounds": rounds = try arguments.integer(argument)
        case "--json": jsonOut = try arguments.value(argument)
        case "-h", "--help": print(bindingsUsage); return 0
        default: throw BenchError("unknown argument \(argument)\n\(bindingsUsage)")
        }
    }
    let directory = NSTemporaryDirectory() + "navlog-bench-bindings-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let times = try await measureBindingWrites(rounds, in: directory)
    func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
    var items: [String] = []
    print("Router binding writes, in turns, \(grouped(rounds)) rounds")
    for kind in times where kind.kind != "floor" {
        let (explicit, keyPath) = (kind.explicit[kind.explicit.count / 2], kind.keyPaths[kind.keyPaths.count / 2])
        print("  \(kind.kind): \(grouped(kind.explicit.count)) writes each: explicit p50 \(format(explicit / 1000, 2)) µs, mean"
              + " \(format(mean(kind.explicit) / 1000, 2)) µs; key path p50 \(format(keyPath / 1000, 2)) µs, mean"
              + " \(format(mean(kind.keyPaths) / 1000, 2)) µs; \(format(keyPath / explicit, 2))x")
        items.append("{\"kind\":\"\(kind.kind)\",\"writes\":\(kind.explicit.count),\"explicit_p50_us\":\(explicit / 1000),"
                     + "\"explicit_mean_us\":\(mean(kind.explicit) / 1000),\"key_path_p50_us\":\(keyPath / 1000),"
                     + "\"key_path_mean_us\":\(mean(kind.keyPaths) / 1000)}")
    }
    let floor = times[3].keyPaths[times[3].keyPaths.count / 2], tab = times[1].explicit[times[1].explicit.count / 2]
    print("  floor: a write through an opaque key path to a trivial member of a final class: p50 \(format(floor / 1000, 2)) µs,"
          + " \(format(floor / tab, 2))x of an explicit tab write")
    items.append("{\"kind\":\"key_path_runtime_floor\",\"writes\":\(times[3].keyPaths.count),\"key_path_p50_us\":\(floor / 1000)}")
    if let out = jsonOut {
        try "{\"bindings\":[\(items.joined(separator: ","))]}\n".write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}
