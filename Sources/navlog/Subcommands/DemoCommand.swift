import Foundation
import NavigationHistory
import NavigationRouting
import NavigationSimulation
import RecipeApp

/// `navlog demo [--events N] [--seed S] [--dir DIR]`
enum DemoCommand: Subcommand {
    static let name = "demo"
    static let summary = "Generate a log, verify it, and show what the tools see."
    static let help = """
        Usage: navlog demo [--events N] [--seed S] [--dir DIR]

        The main job on a generated log, end to end: writes a synthetic log of N events (default
        1,000,000) as a log directory of segments, reads and verifies every line with the fast reader,
        and prints the counts, the read rate and the first events. Then the app side: the recipe
        example's Router records a scripted session into a second log, with its scene's phases; the
        app goes to the background (scene.phase inactive, then background) and the system kills it
        there, without a session.end, as iOS does. A relaunch restores every tab where the user was,
        as `navlog state` and `navlog restore` see it, and the last session counts as ended in the
        background, not as a crash.

        Everything stays in DIR for you to look at: DIR/log (the generated log), DIR/app (the app's
        log) and DIR/report.html (`navlog report` of DIR/log). The demo ends with three commands to
        try next on it: a report, the replay of a session that crashed, and a funnel.

        Options:
          --events N   How many events to generate (default 1000000).
          --seed S     The random seed (default 1).
          --dir DIR    Where to write: a new or empty directory (default: navlog-demo in the current
                       directory, or navlog-demo-2, -3, ... when that one is taken).

        Examples:
          navlog demo
          navlog demo --dir demo --events 100000
        """

    static let options: [CommandOption] = [.option("--events", "N"), .option("--seed", "S"), .directory("--dir")]
    static let operands = Operands.none

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let events = try parsed.integer("--events", range: 1...100_000_000) ?? 1_000_000
        let seed = try parsed.integer("--seed", range: 0...Int.max) ?? 1
        let root = try parsed.value("--dir") ?? freeDirectory()
        try makeEmptyDirectory(root)
        let directory = root + "/log"

        var generator = LogGenerator(seed: UInt64(seed))
        var clock = ContinuousClock.now
        let written: LogGenerator.WriteSummary
        do {
            written = try generator.writeLog(to: directory, events: events)
        } catch let error as NavigationHistoryError where error.errno == EEXIST {
            throw UsageError("\(directory) is not empty; give --dir a new or empty directory")
        }
        let writeTime = ContinuousClock.now - clock
        try say("Generated \(counted(written.events, "event")) in \(counted(written.segments, "segment")) (\(written.bytes / 1_048_576) MiB) in \(TextFormat.duration(writeTime)) → \(directory)")

        clock = ContinuousClock.now
        var types = [String: Int]()
        var first: [NavigationEvent] = []
        let report = try LogReader(path: directory).read { event in
            types[event.type, default: 0] += 1
            if first.count < 5 { first.append(event) }
        }
        let readTime = ContinuousClock.now - clock
        try say("Read and verified \(counted(report.events, "event")) in \(TextFormat.duration(readTime)): \(Int(Double(report.events) / readTime.seconds / 1000))K events/s, \(report.isClean ? "no defects" : counted(report.defectCount, "defect"))")
        try say("Sessions: \(TextFormat.count(report.sessions)), seq \(report.firstSeq ?? 0)...\(report.lastSeq ?? 0)")
        try say("")
        try say("Events by type:")
        for (type, count) in types.sorted(by: { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }) {
            try say("  " + type.padding(toLength: 18, withPad: " ", startingAt: 0) + TextFormat.count(count))
        }
        try say("")
        try say("First events (normalized):")
        for event in first { try say("  " + String(decoding: LineEncoder.encode(event).dropLast(), as: UTF8.self)) }
        try await appSide(in: root + "/app")
        if !report.isClean {
            throw Failure(status: ExitCode.dataError, diagnostics: [.error("the generated log has \(counted(report.defectCount, "defect"))")])
        }
        try say("")
        try await ReportCommand.run([directory, "-o", root + "/report.html"])
        try say("Open \(root)/report.html in a browser. Try next:")
        let crashed = try Timeline(path: directory).sessions.first { $0.ending == .unclean }
        let log = shellQuoted(directory)
        try say("  navlog report \(log) -o \(shellQuoted(root + "/report.html")) --funnel home,recipe,reviews")
        try say(crashed.map { "  navlog replay \(log) --session \(shellQuoted($0.id))    # a session that crashed" }
                ?? "  navlog sessions \(log) --ending unclean    # no session crashed in this log")
        try say("  navlog funnel \(log) --steps home,recipe,reviews")
    }

    /// `navlog-demo` in the current directory, or the first of `navlog-demo-2`, `-3`, ... that
    /// does not exist.
    private static func freeDirectory() throws -> String {
        for k in 1...1000 {
            let name = k == 1 ? "navlog-demo" : "navlog-demo-\(k)"
            if !FileManager.default.fileExists(atPath: name) { return name }
        }
        throw UsageError("navlog-demo ... navlog-demo-1000 are all taken here; give --dir DIR")
    }

    /// Makes `path` a directory, refusing one that holds anything: the demo writes only where
    /// nothing would be replaced.
    private static func makeEmptyDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue, (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true else {
                throw UsageError("\(path) is not an empty directory; give --dir a new or empty directory")
            }
            return
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `text` as one word of a POSIX shell: as it is when it holds only safe characters, else in
    /// single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+=:@,".unicodeScalars.contains($0)) }
        return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The recipe example: a scripted session through the Router, a kill in the background, and a
    /// restoring relaunch.
    private static func appSide(in log: String) async throws {
        try say("")
        try say("The app side (Examples/RecipeApp): a scripted session recorded by the Router into \(log)")
        let first = try await Recorder(directory: log, session: "first-launch")
        let router = Router<RecipeApp.Screen>(recorder: first, deepLinks: RecipeApp.deepLinks)
        router.start(app: "2.1")
        RecipeApp.scriptedSession(router)
        RecipeApp.goToBackground(router)   // scene.phase inactive, then background: the session goes on
        let durable = try await first.close()   // and then the system kills the app: no session.end
        try say("  \(counted(durable, "event")) durable; the app goes to the background (scene.phase inactive, background)")
        try say("  and the system kills it there, without notice: no session.end, as iOS does")
        var ending = SessionEnding()
        var folded = NavigationState()
        try LogReader(path: log).read { event in
            Projection.fold(&folded, event)
            ending.see(event, stateAfter: folded)
        }
        let second = try await Recorder(directory: log, session: "second-launch")
        let restorer = Restorer(options: .init(resolve: { RecipeApp.Screen($0) != nil }, knowsScreen: RecipeApp.Screen.knows(screen:),
                                               currentSession: second.session))
        let result = try restorer.restore(from: log)
        let relaunched = Router<RecipeApp.Screen>(recorder: second, deepLinks: RecipeApp.deepLinks)
        relaunched.start(app: "2.1", restoring: result)
        try await second.close()
        // A restore begins a new launch: its scenes are active, the rest is where the user was.
        var left = router.state
        for name in left.scenes.keys { left.scenes[name]!.phase = .active }
        try say("  the last session ended \(ending.end(over: true).rawValue) (SessionEnding over its events): not a crash")
        try say("  relaunch: restored from seq \(result.from) (\(result.sessionEnding?.rawValue ?? "-") end), crash-loop guard "
                + (result.guardFired.map { "fired: \($0)" } ?? "not fired") + ", the same navigation: \(relaunched.state == left)")
        for tab in ["home", "search"] {
            try say("  \(tab): " + relaunched.path(for: tab).map(\.route.text).joined(separator: " › "))
        }
        try say("  visible: \(relaunched.visibleScreen()?.route.text ?? "-"), phase \(relaunched.state.scenes["main"]?.phase.rawValue ?? "-")")
    }

    /// Prints one line at once: the demo shows each step as it is done.
    private static func say(_ text: String) throws {
        var out = StandardOutput()
        out.line(text)
        try out.flush()
    }
}
