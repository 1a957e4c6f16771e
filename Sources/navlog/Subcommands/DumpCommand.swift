import NavigationHistory

/// `navlog dump PATH [--from SEQ] [--to SEQ] [--type T] [--session S]`
enum DumpCommand: Subcommand {
    static let name = "dump"
    static let summary = "Print a log's events as normalized lines, optionally filtered."
    static let help = """
        Usage: navlog dump PATH [--from SEQ] [--to SEQ] [--type TYPE ...] [--session ID ...] [--limit N]
                                [--mode MODE]

        Prints each event as a normalized line: the store's compact member order with a fresh crc,
        whatever order and whitespace the file used. Unknown types are printed with their members kept.

        Options:
          --from SEQ      First seq to print.
          --to SEQ        Last seq to print.
          --type TYPE     Only events of this type (repeatable).
          --session ID    Only events of this session (repeatable).
          --limit N       At most N events (the first N that the other options keep).
          --mode MODE     Recovery mode, as in `navlog verify` (default tolerateTornTail).

        A defect the mode does not tolerate stops the dump with `navlog dump: error: path:line: ...`
        on standard error and exit status 65; so does a line salvage skipped or the defect
        pointInTime stopped at, once the events read are printed. A torn tail the default mode
        drops is said on standard error as `navlog dump: warning: path:line: tornLine: ...`.
        A type or session that the log never holds is said there too, with the closest it holds.

        Examples:
          navlog dump app.jsonl --type push --limit 20
          navlog dump app.jsonl --session 4F2A --from 100 | navlog append copy --stdin
        """

    static let options: [CommandOption] = [.option("--from", "SEQ"), .option("--to", "SEQ"), .option("--type", "TYPE"), .option("--session", "ID"), .limit,
                                           .recoveryMode]

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let input = try LogInput(parsed.path())
        let from = try parsed.integer("--from", range: 1...Int.max) ?? 1
        let to = try parsed.integer("--to", range: 1...Int.max) ?? Int.max
        let types = Set(parsed.all("--type"))
        let sessions = Set(parsed.all("--session"))
        let mode: RecoveryMode = try parsed.choice("--mode", default: .tolerateTornTail)
        let limit = try parsed.limit() ?? Int.max
        var written = 0
        var out = StandardOutput()
        var writer = JSONWriter(capacity: 1 << 16)
        let reader = LogReader(path: input.path, mode: mode)
        let report: ReadReport
        do {
            report = try reader.read { event in
                guard event.seq >= from, event.seq <= to,
                      types.isEmpty || types.contains(event.type),
                      sessions.isEmpty || sessions.contains(event.session), written < limit else { return }
                written += 1
                LineEncoder.append(event, to: &writer)
                if writer.bytes.count >= 1 << 16 {
                    out.write(writer.bytes)
                    writer.bytes.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            out.write(writer.bytes)
            try out.flush()
            throw error
        }
        out.write(writer.bytes)
        try out.flush()
        // A line skipped (salvage) or the stop of a reading (pointInTime) is an error here, each named.
        guard report.isClean else {
            throw Failure(status: ExitCode.dataError,
                          diagnostics: report.defects.map(Diagnostic.error))
        }
        try DroppedOutput(input.shown, report).warn()
        let given = parsed.all("--type").map { ("--type", UnknownName.Kind.type, $0) } + parsed.all("--session").map { ("--session", .session, $0) }
        UnknownName.warn(try KnownNames.unknown(given, in: [input.path], mode: mode), path: input.shown)
    }
}
