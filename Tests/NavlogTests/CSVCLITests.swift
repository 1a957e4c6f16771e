import Foundation
import Testing
import TestSupport

/// Every CSV navlog writes follows OWASP's rule against CSV injection: a text cell a spreadsheet
/// would run as a formula gets a `'` in front; `--exact-csv` writes the cells as they are.
@Suite(.serialized) struct CSVCLITests {
    /// Cells a spreadsheet would run, as session id, tab, screens, route id and deep-link URL.
    static let formulas = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "=1+1,2"]

    static func writeLog(to path: String) throws {
        let (session, tab) = (formulas[1], formulas[2])
        let events: [[String: Any]] = [
            ["type": "session.start", "app": formulas[3], "launch": "cold"],
            ["type": "scene.open", "scene": "main"],
            ["type": "tab.select", "scene": "main", "tab": tab],
            ["type": "push", "scene": "main", "stack": tab, "route": ["screen": formulas[0], "id": formulas[3]]],
            ["type": "push", "scene": "main", "stack": tab, "route": ["screen": formulas[4]]],
            ["type": "deeplink", "scene": "main", "url": formulas[0], "outcome": "unmatched"],
            ["type": "pop", "scene": "main", "stack": tab, "count": 1],
            ["type": "session.end"],
        ]
        try writeJSONLines(events, session: session, apart: .seconds(60), to: path)
    }

    /// The cells of a CSV text (RFC 4180), row by row; `#` lines and blank lines left out.
    static func cells(_ csv: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], cell = "", quoted = false, started = false
        var scalars = Array(csv.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" { cell.unicodeScalars.append("\""); scalars.removeFirst() } else { quoted = false }
                } else {
                    cell.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" && cell.isEmpty {
                quoted = true
                started = true
            } else if scalar == "," {
                row.append(cell); cell = ""; started = true
            } else if scalar == "\n" {
                if started || !cell.isEmpty { row.append(cell); rows.append(row) }
                row = []; cell = ""; started = false
            } else {
                cell.unicodeScalars.append(scalar); started = true
            }
        }
        return rows.filter { !($0.first?.hasPrefix("#") ?? false) }
    }

    @Test func everyCSVWriterPutsAQuoteBeforeAFormulaAndExactCSVDoesNot() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/formulas.jsonl"
        try Self.writeLog(to: log)
        let writers: [[String]] = [
            ["screens", log], ["transitions", log], ["transitions", log, "--steps", "3"], ["paths", log, "--length", "2"],
            ["exits", log, "--crash-paths", "2"], ["tabs", log], ["deeplinks", log], ["bounces", log], ["depth", log],
            ["export", log, "--table", "screen_views"], ["export", log, "--table", "transitions"], ["export", log, "--table", "deeplinks"],
        ]
        var seen = Set<String>()
        for writer in writers {
            let guarded = try NavlogRun(writer + ["--format", "csv"], stdin: nil)
            #expect(guarded.status == 0, "\(writer.prefix(1)): \(guarded.stderr)")
            for cell in Self.cells(guarded.stdout).joined() {
                #expect(!(cell.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } ?? false), "\(writer.prefix(3)): \(cell)")
                if cell.hasPrefix("'") { seen.insert(String(cell.dropFirst())) }
            }
            let exact = try NavlogRun(writer + ["--format", "csv", "--exact-csv"], stdin: nil)
            #expect(exact.status == 0, "\(writer.prefix(1)): \(exact.stderr)")
            let exactCells = Set(Self.cells(exact.stdout).joined())
            #expect(exactCells.isDisjoint(with: Set(Self.cells(guarded.stdout).joined().filter { $0.hasPrefix("'") })), "no quote added")
        }
        #expect(seen.isSuperset(of: Self.formulas), "every planted formula was met, and guarded: \(seen)")
        #expect(try NavlogRun("screens", log, "--exact-csv").status == 64, "--exact-csv is for --format csv")
    }
}
