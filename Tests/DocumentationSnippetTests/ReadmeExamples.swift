import Foundation
import NavigationAnalytics
import NavigationHistory
import NavigationRouting
import Testing

// The examples of README.md, of the DocC articles and of the analytics' doc comments, compiled
// so that they cannot drift: each function holds one, verbatim but for its imports, with what
// it leaves to the reader (a log directory, a recorder, a state) as parameters. They are compiled,
// not run; `SnippetsMatchTheirSources` checks that every example here is still the documented one.

/// The README's route type: one screen with an id.
enum AppRoute: NavigationRoute {
    case recipe(id: String)

    var screen: String { "recipe" }
    var id: String? { if case .recipe(let id) = self { id } else { nil } }
    var params: [String: String]? { nil }

    init?(screen: String, id: String?, params: [String: String]?) {
        guard screen == "recipe", let id else { return nil }
        self = .recipe(id: id)
    }
}

enum ReadmeExamples {
    static func recording(logDirectory: URL) async throws {
        // One writer per log directory; opening finishes whatever a crash interrupted.
        let recorder = try await Recorder(directory: logDirectory.path)   // durable within 50 ms by default
        let whereTheUserWas = recorder.stateAtOpen                         // the state the last session left
        recorder.record(.sessionStart(app: "2.1", launch: .cold, meta: nil))
        recorder.record(.push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "apple-pie")))
        let durableSeq = try await recorder.flush()                         // or just go on; close() at the end
    }

    @MainActor
    static func navigating(recorder: Recorder, links: DeepLinkTable<AppRoute>, logDirectory: URL) throws {
        let router = Router<AppRoute>(recorder: recorder, deepLinks: links)   // AppRoute: your NavigationRoute enum
        let restorer = Restorer(options: .init(resolve: { AppRoute($0) != nil }, currentSession: recorder.session))
        router.start(app: "2.1", restoring: try restorer.restore(from: logDirectory.path))
        router.select(tab: "home")
        router.push(.recipe(id: "apple-pie"))          // one event per mutation, recorded without blocking
        router.open(url: "recipes://category/soups/recipe/pumpkin-soup")
    }

    @MainActor
    static func lifecycle(router: Router<AppRoute>) {
        router.setPhase(.inactive)            // the scene's lifecycle, recorded only when it changes
        router.setPhase(.background)          // the session goes on: no router.end(reason:) here
    }

    /// What the README's in-app overlay stands for.
    struct Overlay { func show(_ event: NavigationEvent) {} }

    static func following(recorder: Recorder, overlay: Overlay) async throws {
        // Any process, on a log directory or .jsonl file that another process writes (or that does not exist yet).
        for try await step in LogFollower(path: "app.navlog").events(from: .seq(1042)).withStates() {
            print(step.event.seq, step.state.scenes["main"]?.visibleScreen.route.screen ?? "-")
        }
        // In the recording process: new events come from the writer once durable, without reading the disk.
        for try await event in recorder.events(from: .end) { overlay.show(event) }
    }

    static func timeTravel(before: NavigationState) throws {
        let timeline = try Timeline(path: "app.navlog")       // builds or extends the snapshot index
        try timeline.seek(to: 1042)                           // or seek(toTime:), stepForward(), stepBackward()
        print(timeline.state.scenes["main"]?.visibleScreen.route.text ?? "-")
        print(StateDiff(from: before, to: timeline.state).changes)
    }

    static func analytics() throws {
        // A query runs over the log on every core: in chunks that begin at session starts, merged.
        let funnel = FunnelQuery(steps: ["home", "recipe", "reviews"], mode: .ordered, entry: .any, window: .seconds(3600))
        let (steps, report) = try ViewStream.run(funnel, over: "app.navlog", filter: AnalyticsFilter(apps: ["2.1"]), idle: .seconds(1800))
        print(steps.map(\.sessions), report.events)

        // Or take the views one by one, in order; the answer is read once they are all counted.
        var screens = ScreensQuery()
        try ViewStream.read("app.navlog") { view in screens.add(view) }
        for row in screens.finalize() { print(row.screen, row.views) }
    }

    static func reading() throws {
        // Read a log — a directory of segments NNNNNNNN.jsonl, or one .jsonl file — as checked events.
        let reader = LogReader(path: "Library/NavigationLog", mode: .tolerateTornTail)
        var folding = StateFolding()                // the state, and where the fold last looked
        let report = try reader.read { event in
            folding.fold(event)                     // Projection.fold: the one function that defines what an event does
        }
        print(report.events, report.lastSeq ?? 0, report.tornTail as Any, folding.state.scenes.count)

        // Encode an event as a line of the store's format (fixed member order, CRC-32C last).
        let line = LineEncoder.encode(NavigationEvent(
            seq: 1, timestamp: Timestamp("2026-11-29T12:00:00.123Z")!, session: "s1",
            action: .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "apple-pie"))))
    }
}

enum DocCExamples {
    static func navigationHistory(logDirectory: URL) async throws {
        let recorder = try await Recorder(directory: logDirectory.path)
        recorder.record(.push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "apple-pie")))
        try await recorder.close()

        let timeline = try Timeline(path: logDirectory.path)
        try timeline.seek(to: 42)
        print(timeline.state.scenes["main"]?.visibleScreen.route.text ?? "-")
    }
}
