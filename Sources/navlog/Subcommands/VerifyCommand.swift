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
                            json: {"format": 2, "path", "mode", "clean", "events", "first_seq",
                            "last_seq", "sessions", "segments", "bytes", "defect_count", "defects",
                            "warning_count", "warnings", "anomalies", "torn_tail", "stopped_at",
                            "dropped_unshipped"}, each defect {"file", "line", "offset", "kind",
                            "detail"}; "dropped_unshipped" {"segments", "bytes", "seqs"} is what
                            retention deleted before it was shipped (null for a file).
          --threads N       Cores used to decode (default: all).

        Exit status: 0 when no defect was found (warnings such as an unknown type or a tolerated torn tail
        do not count), 1 when defects were found, 64 on a usage error, 66 when PATH does not exist,
        74 on an I/O error.

        Examples:
          navlog verify app.jsonl
          navlog verify logs/app --mode salvage --format json
        """

    static let options: [CommandOption] = [.recoveryMode, .textOrJSON, .option("--threads", "N")]

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInput(parsed.path())
        let path = input.shown
        let mode: RecoveryMode = try parsed.choice("--mode", default: .tolerateTornTail)
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        var reader = LogReader(path: input.path, mode: mode)
        reader.checksSnapshots = true
        if let threads = try parsed.integer("--threads", range: 1...64) { reader.threads = threads }
        // In chunks at once when it can, as LogReader.verify reads; else in order.
        let (files, segmented) = try LogFiles.resolve(input.path)
        let chunked = SharedProgress(input.path)
        var counting: (@Sendable (Int) -> Void)?
        if chunked.enabled { counting = { chunked.add($0) } }
        let inChunks = try reader.verifiedInChunks(files: files, segmented: segmented, progress: counting)
        chunked.finish()
        var progress = Progress(input.path)
        let report = try inChunks ?? reader.scan(files: files, segmented: segmented) { _ in progress.tick() }
        progress.finish()
        try DroppedOutput.refuseNotALog(path, events: report.events, dropped: report.dropped)
        let shipping = segmented ? EventLog.unshippedLoss(in: input.path) : nil
        var out = StandardOutput()
        switch format {
        case .text:
            for warning in report.warnings { out.line("\(LogInput.shown(warning.file)):\(warning.line): warning: \(warning.kind): \(warning.detail)") }
            for defect in report.defects { out.line("\(LogInput.shown(defect.file)):\(defect.line): \(defect.kind): \(defect.detail)") }
            if let first = report.firstAnomaly {
                out.line("\(path): warning: \(counted(report.anomalies, "event")) did not fit the state (anomalies; the first: \(first))")
            }
            if let shipping, !shipping.loss.isEmpty { out.line("\(path): warning: \(ShipCommand.described(shipping.loss))") }
            if let problem = shipping?.problem { out.line("\(path): warning: \(problem)") }
            let range = report.firstSeq.map { "seq \($0)...\(report.lastSeq!)" } ?? "no events"
            let verdict = report.isClean ? "ok" : counted(report.defectCount, "defect")
            out.line("\(path): \(verdict): \(counted(report.events, "event")), \(range), \(counted(report.sessions, "session")), \(counted(report.segments, "segment"))"
                     + (mode == .tolerateTornTail && report.warnings.isEmpty ? "" : " (mode \(mode.rawValue))"))   // named when not the default, or when it tolerated a line
        case .json:
            var output = Output(path: path, mode: mode, report: report)
            output.droppedUnshipped = shipping.map { ShipCommand.Loss($0.loss) }
            try JSONOutput.write(output, to: &out)
        }
        try out.flush()
        // The defects are the output: the status says only that there were some.
        if !report.isClean { throw Failure(status: ExitCode.problemsFound) }
    }

    /// The JSON output: the reader's report, members in this order.
    struct Output: Encodable {
        let format = JSONOutput.format
        var path: String
        var mode: String
        var clean: Bool
        var events: Int
        var firstSeq: Int?
        var lastSeq: Int?
        var sessions: Int
        var segments: Int
        var bytes: Int
        var defectCount: Int
        var defects: [DefectOutput]
        var warningCount: Int
        var warnings: [DefectOutput]
        var anomalies: Int
        var tornTail: DefectOutput?
        var stoppedAt: DefectOutput?
        /// What retention deleted before it was shipped, for a log directory; null for a file.
        var droppedUnshipped: ShipCommand.Loss?

        enum CodingKeys: String, CodingKey {
            case format, path, mode, clean, events, firstSeq = "first_seq", lastSeq = "last_seq", sessions, segments, bytes
            case defectCount = "defect_count", defects, warningCount = "warning_count", warnings, anomalies
            case tornTail = "torn_tail", stoppedAt = "stopped_at", droppedUnshipped = "dropped_unshipped"
        }

        init(path: String, mode: RecoveryMode, report: ReadReport) {
            (self.path, self.mode, clean, events) = (path, mode.rawValue, report.isClean, report.events)
            (firstSeq, lastSeq, sessions, segments, bytes) = (report.firstSeq, report.lastSeq, report.sessions, report.segments, report.bytes)
            (defectCount, defects, warningCount) = (report.defectCount, report.defects.map(DefectOutput.init), report.warningCount)
            (warnings, anomalies) = (report.warnings.map(DefectOutput.init), report.anomalies)
            (tornTail, stoppedAt) = (report.tornTail.map(DefectOutput.init), report.stoppedAt.map(DefectOutput.init))
        }
    }
}
