import Foundation
import NavigationAnalytics
import NavigationHistory

/// `navlog export PATH --table screen_views|transitions --format ndjson|csv [-o FILE] [--redact ...] [--salt S]`
enum ExportCommand: Subcommand {
    static let name = "export"
    static let summary = "Write the screen_views or transitions table as NDJSON or CSV, for other engines."
    static let help = """
        Usage: navlog export PATH --table screen_views|transitions|deeplinks [--format ndjson|csv] [-o FILE]
                             [--redact ids|params|urls ...] [--salt SALT]
                             [--since TS] [--until TS] [--app V] [--session ID] [--scene ID]

        Writes a derived table that Tools/sql/*.sql read (DuckDB, Spark SQL, ClickHouse):
          screen_views  session, scene, tab, stack, screen, id, depth, entered_by, start_seq,
                        start_ts, end_ts, dwell_ms, crashed, in_sheet — one row per screen view.
          transitions   session, scene, step, from_screen, to_screen, from_seq, to_seq — one row per
                        pair of consecutive views of a path; step is the position of the `to` view.
          deeplinks     session, scene, seq, ts, url, pattern, outcome, depth, backed_out — one row
                        per deep link opened; backed_out says whether the session then popped back
                        past the linked screen (as `navlog deeplinks` counts it).

        Options:
          --format FORMAT   ndjson (default) or csv (with a header line).
          -o FILE           Write to FILE instead of standard output.
          --redact WHAT     ids: replace route ids with a stable salted hash (h:…, the first 16 hex
                            digits of SHA-256 of salt and id), or drop them when no --salt is given.
                            urls: replace a deep link's query string and fragment the same way.
                            params: accepted; no table carries route params.
          --salt SALT       The salt of the hashes; keep it secret, and the same across exports that
                            must join.
          --since, --until, --app, --session, --scene, --alias, --idle   As for the queries: export
                            with the same options as the query the SQL is compared with.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = AnalyticsOutput.options.union(["--table", "-o", "--output", "--redact", "--salt"])
        guard let parsed = try parse(arguments, options: options) else { return ExitCode.success }
        let input = try LogInput(parsed.path())
        let table: Export.Table = try parsed.choice("--table")
        let format = try parsed.choice("--format", default: Export.Format.ndjson)
        let redactions = Set(try parsed.all("--redact").map { try Arguments.choice("--redact", $0) as Export.Redaction })
        if table == .deeplinks { try AnalyticsOutput.rejectViewOptions(parsed, in: " to --table deeplinks") }
        var export = Export(table: table, format: format, redactions: redactions, salt: parsed.value("--salt"))
        let destination = parsed.value("-o") ?? parsed.value("--output")
        var out = StandardOutput()
        var file: FileHandle?
        var buffer = [UInt8]()
        func emit(_ line: String) throws {
            buffer += line.utf8
            buffer.append(0x0A)
            if buffer.count >= 1 << 20 { try flush() }
        }
        // The output file is created at the first write, once the options and the log's start
        // have been read: a mistake in them leaves an existing file as it was.
        func flush() throws {
            if let destination {
                if file == nil {
                    guard FileManager.default.createFile(atPath: destination, contents: nil),
                          let handle = FileHandle(forWritingAtPath: destination) else {
                        throw NavigationHistoryError(code: .io, message: "cannot create the output file", path: destination)
                    }
                    file = handle
                }
                try file!.write(contentsOf: buffer)
            } else {
                out.write(buffer)
            }
            buffer.removeAll(keepingCapacity: true)
        }
        if let header = export.header { try emit(header) }
        if table == .deeplinks {
            var links = DeepLinksQuery(filter: try AnalyticsOutput.filter(parsed), keepsRecords: true)
            try ViewStream.read(input.path, mode: try parsed.choice("--mode", default: .tolerateTornTail),
                                events: { event, app, state in links.consume(event, app: app, stateAfter: state) }) { _ in }
            for record in links.records { try emit(export.line(record)) }
        } else {
            _ = try AnalyticsOutput.views(input.path, parsed) { view in
                if let line = export.line(for: view) { try emit(line) }
            }
        }
        try flush()
        try file?.close()
        out.flush()
        return ExitCode.success
    }
}
