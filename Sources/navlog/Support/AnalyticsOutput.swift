import NavigationAnalytics
import NavigationHistory

/// The options every analytics subcommand shares, and its output as a table, JSON or CSV.
enum AnalyticsOutput {
    static let options: Set<String> = ["--since", "--until", "--app", "--session", "--scene", "--format", "--mode"]
    static let optionsHelp = """
          --since TS        Only views that began at or after this time (e.g. 2026-11-29T00:00:00.000Z).
          --until TS        Only views that began before this time.
          --app VERSION     Only sessions of this app version (repeatable).
          --session ID      Only this session (repeatable).
          --scene ID        Only this scene (repeatable).
          --format FORMAT   text (default): an aligned table under a header naming the log, its event
                            range and the filters. json: {"format": 1, "query", "rows": [...]}. csv.
          --mode MODE       Recovery mode, as in `navlog verify` (default tolerateTornTail).
        """

    /// The options' help without `--mode`, for a subcommand that gives `--mode` another meaning.
    static var optionsHelpWithoutMode: String {
        optionsHelp.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("--mode MODE") }.joined(separator: "\n")
    }

    enum Format: String, CaseIterable { case text, json, csv }

    static func filter(_ parsed: Arguments) throws -> AnalyticsFilter {
        func time(_ name: String) throws -> Timestamp? {
            try parsed.value(name).map { text in
                guard let time = Timestamp(text) else { throw UsageError("\(name) needs a time such as 2026-11-29T12:00:00.000Z, not '\(text)'") }
                return time
            }
        }
        return AnalyticsFilter(since: try time("--since"), until: try time("--until"), apps: Set(parsed.all("--app")),
                               sessions: Set(parsed.all("--session")), scenes: Set(parsed.all("--scene")))
    }

    /// A cell of a result table.
    enum Cell {
        case text(String), number(Int64?), list([String])

        var plain: String {
            switch self {
            case .text(let text): text
            case .number(let n): n.map(String.init) ?? "-"
            case .list(let items): items.joined(separator: " > ")
            }
        }
    }

    /// Prints the result of a query.
    static func print(query: String, path: String, report: ReadReport, filter: AnalyticsFilter, format: Format,
                      columns: [String], rows: [[Cell]], extra: [(String, Int)] = []) {
        var out = StandardOutput()
        switch format {
        case .text:
            let range = report.firstSeq.map { "seq \($0)...\(report.lastSeq!)" } ?? "no events"
            out.line("\(path): \(query), \(report.events) events (\(range)), \(filter.summary)")
            let cells = rows.map { $0.map(\.plain) }
            let widths = columns.indices.map { k in max(columns[k].count, cells.map { $0[k].count }.max() ?? 0) }
            func row(_ values: [String]) -> String {
                values.enumerated().map { k, value in
                    let fill = String(repeating: " ", count: widths[k] - value.count)
                    return k == 0 ? value + fill : fill + value
                }.joined(separator: "  ")
            }
            out.line(row(columns))
            for values in cells { out.line(row(values)) }
        case .json:
            var w = JSONWriter(capacity: 1 << 16)
            w.raw("{")
            w.key("format", first: true); w.integer(1)
            w.key("query"); w.string(query)
            for (name, value) in extra { w.key(name); w.integer(value) }
            w.key("rows"); w.raw("[")
            for (i, values) in rows.enumerated() {
                if i > 0 { w.raw(",") }
                w.raw("{")
                for (k, cell) in values.enumerated() {
                    w.key(columns[k], first: k == 0)
                    switch cell {
                    case .text(let text): w.string(text)
                    case .number(let n): if let n { w.integer(Int(n)) } else { w.raw("null") }
                    case .list(let items): w.value(.array(items.map { .string($0) }))
                    }
                }
                w.raw("}")
            }
            w.raw("]}\n")
            out.write(w.bytes)
        case .csv:
            out.line(columns.joined(separator: ","))
            for values in rows {
                out.line(values.map { cell -> String in
                    switch cell {
                    case .text(let text): return csv(text)
                    case .number(let n): return n.map(String.init) ?? ""
                    case .list(let items): return csv(items.joined(separator: " > "))
                    }
                }.joined(separator: ","))
            }
        }
        out.flush()
    }

    static func csv(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
