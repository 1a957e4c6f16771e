import NavigationAnalytics
import NavigationHistory

/// `navlog diff PATH SEQ1 SEQ2 [--format text|json]`
enum DiffCommand: Subcommand {
    static let name = "diff"
    static let summary = "Print what changed in the navigation state between two seqs."
    static let help = """
        Usage: navlog diff PATH SEQ1 SEQ2 [--format text|json] [--mode MODE] [--interval K] [--no-index]

        Compares the state after the event at SEQ1 with the state after the event at SEQ2 and prints
        each difference: scenes opened or closed, the active scene, tab changes, the routes each stack
        lost from its top and gained, sheets presented or dismissed, split views.

        Options:
          --format FORMAT   text (default): one change per line.
                            json: {"format": 2, "dropped_lines" (see --mode), "from", "to",
                            "changes": [{"change": KIND, ...}]}.
        \(TimelineOutput.optionsHelp)
        Exit status: 0, 64 on a usage error, 65 on a defect the mode does not tolerate, 66 when PATH
        or a seq does not exist, 74 on an I/O error.

        Examples:
          navlog diff app.jsonl 100 200
        """

    static let options: [CommandOption] = [.textOrJSON] + TimelineOutput.options

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else {
            return
        }
        guard parsed.positional.count == 3, let from = Int(parsed.positional[1]), let to = Int(parsed.positional[2]), from >= 0, to >= 0 else {
            throw UsageError("diff needs PATH SEQ1 SEQ2")
        }
        let input = try LogInput(parsed.positional[0])
        let path = input.shown
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        let timeline = try TimelineOutput.open(input.path, parsed)
        try timeline.seek(to: from)
        let before = timeline.state
        try timeline.seek(to: to)
        let diff = StateDiff(from: before, to: timeline.state)
        var out = StandardOutput()
        switch format {
        case .text:
            out.line("\(path): from seq \(from) to seq \(to): \(diff.isEmpty ? "no change" : counted(diff.changes.count, "change"))")
            for change in diff.changes { out.line("  \(change)") }
        case .json:
            try JSONOutput.write(Output(droppedLines: try DroppedOutput(path, timeline.report).json, from: from, to: to,
                                        changes: diff.changes.map { change in JSONFragment { $0.change(change) } }), to: &out)
        }
        try out.flush()
        return
    }

    /// The JSON output: what the reading dropped, and the changes as `{"change": KIND, "scene": ..., ...}`.
    struct Output: Encodable {
        let format = JSONOutput.format
        var droppedLines: JSONFragment
        var from: Int
        var to: Int
        var changes: [JSONFragment]

        enum CodingKeys: String, CodingKey {
            case format, droppedLines = "dropped_lines", from, to, changes
        }
    }
}
