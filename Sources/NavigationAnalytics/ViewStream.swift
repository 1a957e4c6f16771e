import NavigationHistory

/// The screen views of a log in one streaming pass, filtered: what every analytics query reads.
///
/// Views come as they end. Within one (session, scene) that is also the order they began in, which
/// is all that paths and transitions need. Views still open at the end of the log end at its last
/// event.
public enum ViewStream {
    /// Reads the log at `path` and hands each screen view that passes `filter` to `body`.
    ///
    /// - Returns: The reader's report (events, seq range, defects tolerated by `mode`).
    /// - Throws: What reading the log throws in `mode`.
    @discardableResult
    public static func read(_ path: String, mode: RecoveryMode = .tolerateTornTail, filter: AnalyticsFilter = AnalyticsFilter(),
                            _ body: (AnalyticsView) throws -> Void) throws -> ReadReport {
        var tracker = ScreenViewTracker()
        var apps: [String: String] = [:]
        func deliver(_ views: [ScreenView]) throws {
            for view in views {
                let row = AnalyticsView(view, app: apps[view.session])
                if filter.admits(row) { try body(row) }
            }
        }
        let report = try LogReader(path: path, mode: mode).read { event in
            if case .sessionStart(let app?, _, _) = event.action { apps[event.session] = app }
            try deliver(tracker.consume(event).ended)
        }
        try deliver(tracker.finish().views)
        return report
    }
}
