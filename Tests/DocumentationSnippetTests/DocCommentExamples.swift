import NavigationAnalytics
import NavigationHistory

/// The examples of the analytics' doc comments, compiled; see ``ReadmeExamples``.
enum DocCommentExamples {
    static func viewQuery() throws {
        var screens = ScreensQuery()
        try ViewStream.read("app.navlog") { view in screens.add(view) }
        for row in screens.finalize() { print(row.screen, row.views) }
    }

    static func screens() throws {
        let (rows, _) = try ViewStream.run(ScreensQuery(), over: "app.navlog")
        for row in rows { print(row.screen, row.views, row.dwellMedian ?? 0) }
    }

    static func manyLogs() throws {
        let many = try ViewStream.run(ScreensQuery(), over: ["devices/a.navlog", "devices/b.jsonl"])
        for log in many.logs { print(log.path, log.report.events) }
    }

    static func paths() throws {
        let (rows, _) = try ViewStream.run(PathsQuery(length: 3, from: "home"), over: "app.navlog")
        for row in rows.prefix(10) { print(row.screens.joined(separator: " → "), row.occurrences) }
    }

    static func funnel() throws {
        let funnel = FunnelQuery(steps: ["home", "recipe", "reviews"], mode: .strict, window: .seconds(600))
        let (rows, _) = try ViewStream.run(funnel, over: "app.navlog")
        for row in rows { print(row.step, row.screen, row.sessions, row.conversionFromFirst ?? 0) }
    }

    static func deepLinks() throws {
        var links = DeepLinksQuery()
        try ViewStream.read("app.navlog", events: { event, app, state in links.consume(event, app: app, stateAfter: state) }) { _ in }
        for row in links.finalize().rows { print(row.outcome, row.pattern, row.links, row.backedOut) }
    }

    static func sessionRows() throws {
        let path = "app.navlog"
        var rows = SessionRows()
        try ViewStream.read(path, events: { event, app, state in rows.see(event, app: app, stateAfter: state) },
                            endings: { session, ending in if let row = rows.end(session, ending: ending) { print(row) } }) { _ in }
    }

    static func report() throws {
        let result = try ReportQuery(options: .init(funnels: [["home", "recipe"]])).run(over: "app.jsonl")
        let (data, lines, leftOut) = result.json(path: "app.jsonl", filter: AnalyticsFilter())
        print(data.count, lines.count, leftOut.omitted.count)
    }

    static func reportOfManyLogs() throws {
        let result = try ReportQuery().run(over: ["devices/a.navlog", "devices/b.jsonl"])
        for log in result.logs { print(log.path, log.report.events) }
    }
}
