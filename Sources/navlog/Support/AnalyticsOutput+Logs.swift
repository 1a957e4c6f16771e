import Foundation
import NavigationAnalytics
import NavigationHistory

extension AnalyticsOutput {
    /// What an answer over several logs read: each log and the events it gave, and the session
    /// ids several logs use (kept apart, renamed `ID@K` in the K-th log).
    struct ManyLogs {
        /// One log read.
        struct Log: Encodable {
            var path: String
            var events: Int
            var firstSeq: Int?
            var lastSeq: Int?

            func encode(to encoder: any Encoder) throws {
                var members = encoder.container(keyedBy: AnyKey.self)
                try members.encode(path, forKey: AnyKey("path"))
                try members.encode(events, forKey: AnyKey("events"))
                try members.encode(firstSeq, forKey: AnyKey("first_seq"))
                try members.encode(lastSeq, forKey: AnyKey("last_seq"))
            }
        }

        /// A session id several logs use.
        struct Repeated: Encodable {
            var session: String
            var logs: [String]
            var names: [String]

            func encode(to encoder: any Encoder) throws {
                var members = encoder.container(keyedBy: AnyKey.self)
                try members.encode(session, forKey: AnyKey("session"))
                try members.encode(logs, forKey: AnyKey("logs"))
                try members.encode(names, forKey: AnyKey("names"))
            }
        }

        var logs: [Log]
        var repeated: [Repeated]

        /// The events of every log.
        var events: Int { logs.reduce(0) { $0 + $1.events } }

        init(_ inputs: LogInputs, reports: [ReadReport], repeated: [ViewStream.RepeatedSession]) {
            logs = zip(inputs.inputs, reports).map { Log(path: $0.shown, events: $1.events, firstSeq: $1.firstSeq, lastSeq: $1.lastSeq) }
            self.repeated = repeated.map { session in
                Repeated(session: session.id, logs: session.logs.map { inputs.inputs[$0].shown }, names: session.names)
            }
        }

        /// Warns on standard error of each session id several logs use.
        func warn() {
            for session in repeated.prefix(3) {
                Diagnostics.warning("session \(session.session) is in \(session.logs.count) logs (\(session.logs.joined(separator: ", "))):"
                                + " counted apart, as \(session.names.joined(separator: ", "))")
            }
            if repeated.count > 3 {
                Diagnostics.warning("and \(repeated.count - 3) more session ids in several logs, each counted apart"
                                + " (--format json lists them under repeated_sessions)")
            }
        }
    }

    /// Runs `query` over the screen views of `inputs` with the common options: one log as
    /// ``run(_:over:_:recoveryModeOption:)`` runs it, several each on its own, several at once,
    /// their answers merged (``ViewStream/run(_:over:mode:filter:cleaning:idle:progress:)``).
    static func run<Query: ViewQuery>(_ query: Query, over inputs: LogInputs, _ parsed: Arguments, recoveryModeOption: Bool = true,
                                      naming screens: (Query.Result) -> [(option: String, name: String)] = { _ in [] })
        throws -> (Query.Result, ViewsRead, AnalyticsFilter) {
        guard inputs.isMany else {
            return try run(query, over: inputs.paths[0], parsed, recoveryModeOption: recoveryModeOption, naming: screens)
        }
        let common = try Common(parsed, recoveryModeOption: recoveryModeOption)
        let progress = SharedProgress(inputs.shown)
        let run = try ViewStream.run(query, over: inputs.paths, mode: common.mode, filter: common.filter, cleaning: common.cleaning,
                                     idle: common.idle, progress: progress.enabled ? progress.add : nil)
        progress.finish()
        let many = ManyLogs(inputs, reports: run.logs.map(\.report), repeated: run.repeatedSessions)
        many.warn()
        return (run.result, ViewsRead(report: run.logs[0].report, dropped: try DroppedOutput(inputs, reports: run.logs.map(\.report)),
                                      unknownNames: try unknownNames(inputs.paths, parsed, common, screens: screens(run.result)),
                                      clockWentBack: run.logs.reduce(0) { $0 + $1.clockWentBack }, many: many),
                common.filter)
    }
}
