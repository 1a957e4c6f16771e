// NavlogBench bindings: the writes a SwiftUI binding makes through the Router's key paths — a
// path set (push, push, swipe back, pop), a tab selected, a phase set — beside the explicit calls
// that record the same events, through a Recorder with the default policy, in turns of one round
// each so that both meet the same machine. Issue 42's target: a key-path write costs at most 1.2x
// the explicit call, for each kind.
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
    let pathKey = \Keys[path: "home"], tabKey = \Keys[tab: "main"], phaseKey = \Keys[phase: "main"]
    var times = [BindingTimes(kind: "path"), BindingTimes(kind: "tab"), BindingTimes(kind: "phase")]
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
    for kind in times {
        let (explicit, keyPath) = (kind.explicit[kind.explicit.count / 2], kind.keyPaths[kind.keyPaths.count / 2])
        print("  \(kind.kind): \(grouped(kind.explicit.count)) writes each: explicit p50 \(format(explicit / 1000, 2)) µs, mean"
              + " \(format(mean(kind.explicit) / 1000, 2)) µs; key path p50 \(format(keyPath / 1000, 2)) µs, mean"
              + " \(format(mean(kind.keyPaths) / 1000, 2)) µs; \(format(keyPath / explicit, 2))x")
        items.append("{\"kind\":\"\(kind.kind)\",\"writes\":\(kind.explicit.count),\"explicit_p50_us\":\(explicit / 1000),"
                     + "\"explicit_mean_us\":\(mean(kind.explicit) / 1000),\"key_path_p50_us\":\(keyPath / 1000),"
                     + "\"key_path_mean_us\":\(mean(kind.keyPaths) / 1000)}")
    }
    if let out = jsonOut {
        try "{\"bindings\":[\(items.joined(separator: ","))]}\n".write(toFile: out, atomically: true, encoding: .utf8)
    }
    return 0
}
