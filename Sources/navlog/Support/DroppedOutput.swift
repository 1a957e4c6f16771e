import Foundation
import NavigationHistory

/// What the readings of a command dropped (``DroppedLines``), said the same way by every reading
/// command: on standard error (``warn()``), and in JSON as the member `dropped_lines`
/// (``json``), which comes right after `format`.
///
/// A log of which a reading dropped lines but kept no event is refused: see
/// ``refuseNotALog(_:events:dropped:)``.
struct DroppedOutput {
    /// Each log read, as messages name it, and what its reading dropped, in the order of the logs.
    var logs: [(name: String, dropped: DroppedLines)]

    /// What the reading of the log `name` dropped, as its `report` says.
    ///
    /// - Throws: When the log is not a navigation log (``refuseNotALog(_:events:dropped:)``).
    init(_ name: String, _ report: ReadReport) throws {
        try Self.refuseNotALog(name, events: report.events, dropped: report.dropped)
        logs = [(name, report.dropped)]
    }

    /// What the readings of `inputs` dropped, as their `reports` say, in order.
    ///
    /// - Throws: When one of the logs is not a navigation log (``refuseNotALog(_:events:dropped:)``).
    init(_ inputs: LogInputs, reports: [ReadReport]) throws {
        for (input, report) in zip(inputs.inputs, reports) { try Self.refuseNotALog(input.shown, events: report.events, dropped: report.dropped) }
        logs = zip(inputs.inputs, reports).map { ($0.shown, $1.dropped) }
    }

    /// Refuses the log `name` (a `corruptLog` error, exit 65) when its reading kept no event (of
    /// `events`) and `dropped` a line that is not a torn last line: a file of which no
    /// line is an event (`echo hello > x`) is not a navigation log, and an answer read from it
    /// would be empty for that reason alone. A log whose only line is torn — its writer stopped
    /// in its first event — is a log, its torn tail a warning as in any other; so is an empty
    /// file, a log with no events yet.
    static func refuseNotALog(_ name: String, events: Int, dropped: DroppedLines) throws {
        guard events == 0, let first = dropped.entries.first(where: { $0.kind != .tornLine }) else { return }
        // A reading that stopped at a line with more after it does not know that none is an event:
        // that is a defect to report, not a verdict on the file.
        guard dropped.mode == .salvage || !dropped.entries.contains(where: { $0.kind == .unreadTail }) && !hasLines(after: first) else { return }
        let detail = first.detail.hasPrefix(tornPrefix) ? String(first.detail.dropFirst(tornPrefix.count)) : first.detail
        let lines = dropped.count == 1 ? "its one line is not an event" : "none of its \(TextFormat.count(dropped.count)) lines read is an event"
        throw NavigationHistoryError(code: .corruptLog,
                                     message: "not a navigation log: \(lines) (line \(first.line): \(first.kind): \(detail))",
                                     path: name)
    }

    /// Whether the file of `line` holds bytes after that line.
    private static func hasLines(after line: LogDefect) -> Bool {
        guard let size = FileSystem.status(line.file)?.size, size > line.offset,
              let handle = FileHandle(forReadingAtPath: line.file) else { return false }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(line.offset))) != nil,
              let bytes = try? handle.read(upToCount: LineDecoder.maximumLineLength + 2) else { return false }
        guard let newline = bytes.firstIndex(of: 0x0A) else { return bytes.count < size - line.offset }
        return line.offset + (newline - bytes.startIndex) + 1 < size
    }

    /// How a tolerating reading's entry of a torn tail begins.
    private static let tornPrefix = "torn tail dropped: "

    /// What the restore of the log `name` left out: the damage at its end, `result`'s torn tail.
    ///
    /// - Throws: When the log is not a navigation log (``refuseNotALog(_:events:dropped:)``): the restore
    ///   folded no event (`from` is 0) and its end is damaged.
    init(_ name: String, restored result: Restorer.Result) throws {
        let dropped = DroppedLines(tornTail: result.tornTail)
        try Self.refuseNotALog(name, events: result.from == 0 ? 0 : 1, dropped: dropped)
        logs = [(name, dropped)]
    }

    /// Says on standard error what each log's reading dropped, one line each: its first
    /// ``DroppedLines/listed`` entries as warnings about `file:line`, `kind: detail`; in
    /// `salvage`, then how many lines it skipped in all (`N lines skipped ...`, about the log).
    func warn() {
        for (name, dropped) in logs {
            for entry in dropped.entries.prefix(DroppedLines.listed) { Diagnostics.warning(entry) }
            guard dropped.mode == .salvage, !dropped.isEmpty else { continue }
            var line = "\(counted(dropped.count, "line")) skipped (--mode salvage)"
            if dropped.count > DroppedLines.listed {
                line += ", the first \(DroppedLines.listed) above; `navlog verify \(name) --mode salvage` lists them"
            }
            Diagnostics.warning(line, at: name)
        }
    }

    /// The member `dropped_lines`: `{"mode", "count", "first": [{"file", "line", "offset", "kind",
    /// "detail"}]}`, the first ``DroppedLines/listed`` entries of each log's, files named as
    /// messages name them.
    var json: JSONFragment {
        JSONFragment { [logs] in $0.dropped(logs.map(\.dropped), naming: LogInput.shown) }
    }
}
