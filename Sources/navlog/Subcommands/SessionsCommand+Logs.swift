import NavigationAnalytics
import NavigationHistory

extension SessionsCommand {
    /// The sessions of several logs: each log's timeline opened on its own, the rows told apart
    /// by their log.
    static func many(_ inputs: LogInputs, _ parsed: Arguments, format: OutputFormat) throws {
        let timelines = try inputs.inputs.map { try TimelineOutput.open($0.path, parsed) }
        let every = timelines.map(\.sessions)
        let selection = try Selection(parsed)
        let logs = selection.apply(every)
        let repeated = ViewStream.repeatedSessions(every.map { sessions in
            var ids = StringSet()
            for session in sessions { ids.insert(session.id) }
            return ids
        })
        let many = AnalyticsOutput.ManyLogs(inputs, reports: every.map { sessions in
            var report = ReadReport(mode: .tolerateTornTail)
            report.events = sessions.reduce(0) { $0 + $1.events }
            report.firstSeq = sessions.first?.firstSeq
            report.lastSeq = sessions.last?.lastSeq
            return report
        }, repeated: repeated)
        many.warn()
        var out = StandardOutput()
        switch format {
        case .text:
            let all = logs.joined()
            let total = every.reduce(0) { $0 + $1.count }
            out.line(countsLine(inputs.shown, every.joined()))
            if let note = selection.note(shown: all.count, of: total) { out.line(note) }
            let shown = inputs.inputs.map { Terminal.escaped($0.shown) }
            let logWidth = max(3, shown.map(\.count).max() ?? 0)
            let idWidth = max(7, all.map { Terminal.escaped($0.id).count }.max() ?? 0)
            func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
                let fill = String(repeating: " ", count: max(0, width - text.count))
                return right ? fill + text : text + fill
            }
            out.line([pad("log", logWidth), pad("session", idWidth), pad("app", 8), pad("start", 24), pad("end", 24), pad("ending", 10),
                      pad("events", 7, right: true), pad("scenes", 6, right: true), "seq"].joined(separator: "  "))
            for (k, sessions) in logs.enumerated() {
                for s in sessions {
                    out.line([pad(shown[k], logWidth), pad(Terminal.escaped(s.id), idWidth), pad(Terminal.escaped(s.app ?? "-"), 8),
                              pad(s.start.description, 24), pad(s.end.description, 24), pad(s.ending.rawValue, 10),
                              pad(TextFormat.count(s.events), 7, right: true), pad(TextFormat.count(s.scenes), 6, right: true),
                              "\(s.firstSeq)...\(s.lastSeq)"].joined(separator: "  "))
                }
            }
        case .json:
            let dropped = try DroppedOutput(inputs, reports: timelines.map(\.report))
            try JSONOutput.write(ManyOutput(dropped: dropped, logs: zip(many.logs, logs).map { log, sessions in
                ManyOutput.Log(path: log.path, events: log.events, sessions: sessions.map { session in JSONFragment { $0.session(session, snakeCase: true) } })
            }, repeated: many.repeated), to: &out)
        }
        try out.flush()
    }

    /// The JSON output over several logs.
    struct ManyOutput: Encodable {
        struct Log: Encodable {
            var path: String
            var events: Int
            var sessions: [JSONFragment]
        }

        var dropped: DroppedOutput
        var logs: [Log]
        var repeated: [AnalyticsOutput.ManyLogs.Repeated]

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: AnyKey.self)
            try members.encode(JSONOutput.format, forKey: AnyKey("format"))
            try members.encode(dropped.json, forKey: AnyKey("dropped_lines"))
            try members.encode(logs, forKey: AnyKey("logs"))
            try members.encode(repeated, forKey: AnyKey("repeated_sessions"))
        }
    }
}
