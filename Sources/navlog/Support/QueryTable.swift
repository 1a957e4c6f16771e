import Foundation
import NavigationAnalytics
import NavigationHistory

/// A column of a query's result: its name in JSON and CSV (snake_case, exact, in the unit its name
/// ends with: `dwell_total_ms`, `rate_pct`), its header in text (`dwell total`), and how its
/// numbers are shown.
struct Column {
    /// How text shows a column's values; JSON and CSV write them exactly: as they are, and a rate
    /// as a percentage (``Percent``).
    enum Kind {
        /// Text as it is.
        case text
        /// Screens, shown `a > b > c`.
        case list
        /// A node of a flow, `2_category` (a position, then a screen): text shows the screen,
        /// the position being in the step column.
        case node
        /// A place (a step, a depth): the number as it is.
        case ordinal
        /// A count, with thousands separators.
        case count
        /// Milliseconds, as a duration (``TextFormat/duration(milliseconds:)``).
        case milliseconds
        /// Basis points, as a percentage: in text with one decimal (``TextFormat/rate(basisPoints:)``),
        /// in JSON and CSV exactly (``Percent``), in a column named `..._pct`.
        case basisPoints
    }

    var name: String
    var header: String
    var kind: Kind

    /// A column `name`, headed `header` in text (by default the name, `_` read as a space).
    init(_ name: String, _ header: String? = nil, _ kind: Kind) {
        (self.name, self.header, self.kind) = (name, header ?? name.replacingOccurrences(of: "_", with: " "), kind)
    }

    static func text(_ name: String) -> Column { Column(name, nil, .text) }
    static func list(_ name: String) -> Column { Column(name, nil, .list) }
    static func node(_ name: String) -> Column { Column(name, nil, .node) }
    static func ordinal(_ name: String) -> Column { Column(name, nil, .ordinal) }
    static func count(_ name: String, _ header: String? = nil) -> Column { Column(name, header, .count) }
    static func duration(_ name: String, _ header: String) -> Column { Column(name, header, .milliseconds) }
    static func rate(_ name: String, _ header: String) -> Column { Column(name, header, .basisPoints) }

    /// Whether text puts the column's values on the left: text and lists; numbers go right.
    var leftAligned: Bool { kind == .text || kind == .list || kind == .node }

    /// `cell` as text shows it in this column.
    func text(_ cell: Cell) -> String {
        switch cell {
        case .text(let text) where kind == .node: return text.firstIndex(of: "_").map { String(text[text.index(after: $0)...]) } ?? text
        case .text(let text): return text
        case .list(let items): return items.joined(separator: " > ")
        case .number(nil): return "-"
        case .number(let n?):
            switch kind {
            case .text, .list, .node, .ordinal: return String(n)
            case .count: return TextFormat.count(Int(n))
            case .milliseconds: return TextFormat.duration(milliseconds: n)
            case .basisPoints: return TextFormat.rate(basisPoints: Int(n))
            }
        }
    }
}

/// A cell of a result table.
enum Cell {
    case text(String), number(Int64?), list([String])
}

/// A table of a query's result: its columns and its rows, a cell per column.
struct QueryTable {
    var columns: [Column]
    var rows: [[Cell]]

    /// The table aligned under its header: text left, numbers right, for a person.
    func text(into out: inout StandardOutput) {
        let cells = rows.map { zip(columns, $0).map { Terminal.escaped($0.text($1)) } }   // escaped first, so that the columns line up
        let widths = columns.indices.map { k in max(columns[k].header.count, cells.map { $0[k].count }.max() ?? 0) }
        func row(_ values: [String]) -> String {
            values.enumerated().map { k, value in
                let fill = String(repeating: " ", count: widths[k] - value.count)
                guard columns[k].leftAligned else { return fill + value }
                return k == values.count - 1 ? value : value + fill
            }.joined(separator: "  ")
        }
        out.line(row(columns.map(\.header)))
        for values in cells { out.line(row(values)) }
    }

    /// The table as CSV, headed by the columns' names: guarded and escaped (see
    /// ``AnalyticsOutput/csvHelp``), or with `exact` cells as they are.
    func csv(exact: Bool, into out: inout StandardOutput) {
        out.line(columns.map(\.name).joined(separator: ","))
        for values in rows {
            let line = values.enumerated().map { k, cell -> String in
                switch cell {
                case .text(let text): return Export.csv(text, guarded: !exact)
                case .number(let n?) where columns[k].kind == .basisPoints: return Percent.text(basisPoints: n)
                case .number(let n): return n.map(String.init) ?? ""
                case .list(let items): return Export.csv(items.joined(separator: " > "), guarded: !exact)
                }
            }.joined(separator: ",")
            if exact {
                out.exact(Array((line + "\n").utf8))
            } else {
                out.line(line)
            }
        }
    }

    /// The rows as JSON objects, members named and ordered as the columns.
    var json: [Row] { rows.map { Row(columns: columns, cells: $0) } }

    /// A row as a JSON object: numbers exact (a rate as ``Percent`` writes it), a missing one null,
    /// a list an array.
    struct Row: Encodable {
        var columns: [Column]
        var cells: [Cell]

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: AnyKey.self)
            for (column, cell) in zip(columns, cells) {
                let key = AnyKey(column.name)
                switch cell {
                case .text(let text): try members.encode(text, forKey: key)
                case .number(let n) where column.kind == .basisPoints: try members.encode(Percent.json(basisPoints: n), forKey: key)
                case .number(let n): try members.encode(n, forKey: key)
                case .list(let items): try members.encode(items, forKey: key)
                }
            }
        }
    }
}

/// The JSON output of an analytics subcommand:
/// `{"format": 2, "dropped_lines", "query", EXTRA..., "clock_went_back", "rows": [...], SECTION: [...]}`.
struct QueryOutput: Encodable {
    /// What the readings dropped.
    var dropped: DroppedOutput
    /// The names options gave that the logs never hold.
    var unknownNames: [UnknownName]
    var query: String
    /// Parameters the rows depend on (`steps`, `length`), by name.
    var extra: [(String, Int)]
    /// How many views ended before they began; nil where the rows are not views (deep links).
    var clockWentBack: Int?
    /// With several logs: `logs` and `repeated_sessions`.
    var many: AnalyticsOutput.ManyLogs? = nil
    var table: QueryTable
    /// Further tables, by name.
    var sections: [(String, QueryTable)]

    func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: AnyKey.self)
        try members.encode(JSONOutput.format, forKey: AnyKey("format"))
        try members.encode(dropped.json, forKey: AnyKey("dropped_lines"))
        try members.encode(unknownNames, forKey: AnyKey("unknown_names"))
        try members.encode(query, forKey: AnyKey("query"))
        for (name, value) in extra { try members.encode(value, forKey: AnyKey(name)) }
        if let clockWentBack { try members.encode(clockWentBack, forKey: AnyKey("clock_went_back")) }
        if let many {
            try members.encode(many.logs, forKey: AnyKey("logs"))
            try members.encode(many.repeated, forKey: AnyKey("repeated_sessions"))
        }
        try members.encode(table.json, forKey: AnyKey("rows"))
        for (name, section) in sections { try members.encode(section.json, forKey: AnyKey(name)) }
    }
}
