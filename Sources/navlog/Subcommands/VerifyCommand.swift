import NavigationHistory

/// `navlog verify PATH [--mode M] [--format text|json]`
enum VerifyCommand: Subcommand {
    static let name = "verify"
    static let summary = "Check every line of a log and report each defect."
    static let help = """
        Usage: navlog verify PATH [--mode MODE] [--format text|json] [--threads N]

        Reads the whole log and checks every line: UTF-8, JSON, the crc (required in the segments of a
        log directory), the format version, the members each type requires, the timestamp format, the
        64 KiB line limit, that seq increases by one across all segments, and that every `snapshot`
        equals the state the events before it fold to (a `snapshotMismatch` defect otherwise). Events
        that do not fit the state (anomalies: a pop beyond the root, a push to a closed scene, ...) are
        counted as a warning.

        Options:
          --mode MODE       How defects are treated (default tolerateTornTail):
                              tolerateTornTail  a torn last line is dropped and reported as a warning;
                                                any other defect stops reading
                              absolute          any defect stops reading, a torn tail included
                              pointInTime       reading stops at the first defect; what follows is reported
                              salvage           each defective line is skipped and reported
          --format FORMAT   text (default): one `path:line: kind: detail` line per defect, then a summary.
                            json: {"format":1, events, lastSeq, sessions, segments, defects, tornTail, ...}
          --threads N       Cores used to decode (default: all).

        Exit status: 0 when no defect was found (warnings such as an unknown type or a tolerated torn tail
        do not count), 1 when defects were found, 64 on a usage error, 66 when PATH does not exist,
        74 on an I/O error.
        """

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments, options: ["--mode", "--format", "--threads"]) else { return }
        let input = try LogInput(parsed.path())
        let path = input.shown
        let mode: RecoveryMode = try parsed.choice("--mode", default: .tolerateTornTail)
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        var reader = LogReader(path: input.path, mode: mode)
        reader.checksSnapshots = true
        if let threads = try parsed.integer("--threads", range: 1...64) { reader.threads = threads }
        var progress = Progress(input.path)
        let report = try reader.scan { _ in progress.tick() }
        progress.finish()
        var out = StandardOutput()
        switch format {
        case .text:
            for warning in report.warnings { out.line("\(LogInput.shown(warning.file)):\(warning.line): warning: \(warning.kind): \(warning.detail)") }
            for defect in report.defects { out.line("\(LogInput.shown(defect.file)):\(defect.line): \(defect.kind): \(defect.detail)") }
            if let first = report.firstAnomaly {
                out.line("\(path): warning: \(counted(report.anomalies, "event")) did not fit the state (anomalies; the first: \(first))")
            }
            let range = report.firstSeq.map { "seq \($0)...\(report.lastSeq!)" } ?? "no events"
            let verdict = report.isClean ? "ok" : counted(report.defectCount, "defect")
            out.line("\(path): \(verdict): \(counted(report.events, "event")), \(range), \(counted(report.sessions, "session")), \(counted(report.segments, "segment")) (mode \(mode.rawValue))")
        case .json:
            var w = JSONWriter()
            w.raw("{")
            w.key("format", first: true); w.integer(1)
            w.key("path"); w.string(path)
            w.key("mode"); w.string(mode.rawValue)
            w.key("clean"); w.bool(report.isClean)
            w.key("events"); w.integer(report.events)
            w.key("firstSeq"); if let seq = report.firstSeq { w.integer(seq) } else { w.raw("null") }
            w.key("lastSeq"); if let seq = report.lastSeq { w.integer(seq) } else { w.raw("null") }
            w.key("sessions"); w.integer(report.sessions)
            w.key("segments"); w.integer(report.segments)
            w.key("bytes"); w.integer(report.bytes)
            w.key("defectCount"); w.integer(report.defectCount)
            w.key("defects"); w.defects(report.defects)
            w.key("warningCount"); w.integer(report.warningCount)
            w.key("warnings"); w.defects(report.warnings)
            w.key("anomalies"); w.integer(report.anomalies)
            w.key("tornTail"); if let torn = report.tornTail { w.defect(torn) } else { w.raw("null") }
            w.key("stoppedAt"); if let stop = report.stoppedAt { w.defect(stop) } else { w.raw("null") }
            w.raw("}\n")
            out.write(w.bytes)
        }
        try out.flush()
        // The defects are the output: the status says only that there were some.
        if !report.isClean { throw Failure(status: ExitCode.problemsFound) }
    }
}
