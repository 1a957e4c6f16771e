import NavigationHistory

/// What the readings of a command dropped (``DroppedLines``), said the same way by every reading
/// command: on standard error (``warn()``), and in JSON as the member `dropped_lines`
/// (``json``), which comes right after `format`.
struct DroppedOutput {
    /// Each log read, as messages name it, and what its reading dropped, in the order of the logs.
    var logs: [(name: String, dropped: DroppedLines)]

    /// What the reading of the log `name` dropped, as its `report` says.
    init(_ name: String, _ report: ReadReport) {
        logs = [(name, report.dropped)]
    }

    /// What the readings of `inputs` dropped, as their `reports` say, in order.
    init(_ inputs: LogInputs, reports: [ReadReport]) {
        logs = zip(inputs.inputs, reports).map { ($0.shown, $1.dropped) }
    }

    /// What the reading of the log `name` dropped.
    init(_ name: String, _ dropped: DroppedLines) {
        logs = [(name, dropped)]
    }

    /// Says on standard error what each log's reading dropped, one line each: its first
    /// ``DroppedLines/listed`` entries as `file:line: warning: kind: detail`; in `salvage`, then
    /// how many lines it skipped in all (`log: warning: N lines skipped ...`).
    func warn() {
        for (name, dropped) in logs {
            for entry in dropped.entries.prefix(DroppedLines.listed) { Diagnostics.warning(entry) }
            guard dropped.mode == .salvage, !dropped.isEmpty else { continue }
            var line = "\(name): warning: \(counted(dropped.count, "line")) skipped (--mode salvage)"
            if dropped.count > DroppedLines.listed {
                line += ", the first \(DroppedLines.listed) above; `navlog verify \(name) --mode salvage` lists them"
            }
            Diagnostics.print(line)
        }
    }

    /// The member `dropped_lines`: `{"mode", "count", "first": [{"file", "line", "offset", "kind",
    /// "detail"}]}`, the first ``DroppedLines/listed`` entries of each log's, files named as
    /// messages name them.
    var json: JSONFragment {
        JSONFragment { [logs] in $0.dropped(logs.map(\.dropped), naming: LogInput.shown) }
    }
}
