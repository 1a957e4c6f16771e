import Foundation
import Testing
@testable import NavigationHistory
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A log whose every name holds terminal control sequences and invisible or reordering
/// characters cannot drive the terminal nor disguise itself through navlog: text output, CSV and
/// diagnostics escape C0, DEL and C1 controls, format characters (Cf) and the line and paragraph
/// separators; JSON stays exact.
@Suite(.serialized) struct TerminalEscapingCLITests {
    /// Retitles the window, clears the screen, rings the bell, recolours through an 8-bit CSI,
    /// deletes, and forges a diagnostic on a line of its own; then ``invisible``.
    static let hostile = "\u{1b}]0;owned\u{07}\u{1b}[2J\u{9b}31m\u{85}\u{7f}\r\nlog.jsonl:1: error: forged\t" + invisible

    /// Reverses what follows (RIGHT-TO-LEFT OVERRIDE: `pay` and this read `payexe.png`), hides
    /// (zero-width space and joiner, word joiner, byte order mark, soft hyphen, a tag above
    /// U+FFFF), isolates, and breaks the line (line and paragraph separators).
    static let invisible = "\u{202E}gnp.exe\u{200B}\u{200D}\u{2060}\u{FEFF}\u{AD}\u{2066}\u{2069}\u{2028}\u{2029}\u{E0001}"

    /// ``hostile`` as text output shows it.
    static let hostileEscaped = #"\u001b]0;owned\u0007\u001b[2J\u009b31m\u0085\u007f\u000d\u000alog.jsonl:1: error: forged\u0009"#
        + #"\u202egnp.exe\u200b\u200d\u2060\ufeff\u00ad\u2066\u2069\u2028\u2029\udb40\udc01"#

    /// A value of the planted log: `name` and the hostile text.
    static func planted(_ name: String) -> String { name + hostile }

    /// A single-file log whose session id, app, scene, tab, stack, screens, ids, params, sheet,
    /// URL, end reason and an unknown type all hold the hostile text.
    static func writePlantedLog(to path: String) throws {
        let session = planted("session"), scene = planted("scene"), tab = planted("tab")
        let events: [[String: Any]] = [
            ["type": "session.start", "app": planted("app"), "launch": "cold"],
            ["type": "scene.open", "scene": scene],
            ["type": "tab.select", "scene": scene, "tab": tab],
            ["type": "push", "scene": scene, "stack": tab, "route": ["screen": planted("home"), "id": planted("id1")]],
            ["type": "push", "scene": scene, "stack": tab,
             "route": ["screen": planted("recipe"), "id": planted("id2"), "params": ["q": planted("param")]]],
            ["type": "deeplink", "scene": scene, "stack": tab, "tab": tab, "url": "app://" + planted("url") + "/r1?q=" + planted("query"),
             "outcome": "resolved", "path": [["screen": planted("linked"), "id": planted("id3")]]],
            ["type": "sheet.present", "scene": scene, "sheet": planted("sheet"), "route": ["screen": planted("sheetscreen")]],
            ["type": "sheet.dismiss", "scene": scene],
            ["type": "pop", "scene": scene, "stack": tab, "count": 1],
            ["type": planted("custom")],
            ["type": "session.end", "reason": planted("reason")],
        ]
        try writeJSONLines(events, session: session, apart: .seconds(1), to: path)
    }

    /// The control characters `text` holds other than the line breaks between lines.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
            .map { "U+" + String($0.value, radix: 16) }
    }

    /// The format characters (Cf) and line and paragraph separators `text` holds.
    static func invisibles(in text: String) -> [String] {
        text.unicodeScalars.filter { [.format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }
            .map { "U+" + String($0.value, radix: 16) }
    }

    /// What `text` holds that text output escapes: ``controls(in:)`` and ``invisibles(in:)``.
    static func unescaped(in text: String) -> [String] { controls(in: text) + invisibles(in: text) }

    static func expectEscaped(_ run: NavlogRun, _ arguments: [String], printsPlanted: Bool = true) {
        #expect(unescaped(in: run.stdout).isEmpty, "stdout of \(arguments.prefix(1)): \(unescaped(in: run.stdout))")
        #expect(unescaped(in: run.stderr).isEmpty, "stderr of \(arguments.prefix(1)): \(unescaped(in: run.stderr))")
        #expect(!run.stdout.contains("\nlog.jsonl:1: error: forged") && !run.stderr.contains("\nlog.jsonl:1: error: forged"), "no forged line")
        if printsPlanted {
            #expect((run.stdout + run.stderr).contains(hostileEscaped), "\(arguments.prefix(1)) shows the planted text, escaped")
        }
    }

    @Test func everyTextOutputOfAPlantedLogIsEscaped() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/" + Self.planted("planted") + ".jsonl"
        try Self.writePlantedLog(to: log)
        let session = Self.planted("session")
        let commands: [[String]] = [
            ["verify", log], ["state", log], ["state", log, "--at", "5"], ["replay", log, "--session", session], ["diff", log, "1", "7"],
            ["sessions", log], ["restore", log, "--now", "2026-11-29T11:00:00.000Z"], ["screens", log], ["transitions", log],
            ["transitions", log, "--steps", "3"], ["paths", log, "--length", "2"], ["funnel", log, "--steps", Self.planted("home") + "," + Self.planted("recipe")],
            ["exits", log, "--crash-paths", "2"], ["bounces", log], ["deeplinks", log], ["tabs", log], ["depth", log],
            ["screens", log, "--format", "csv"], ["export", log, "--table", "screen_views", "--format", "csv"],
            ["export", log, "--table", "deeplinks", "--format", "csv"], ["screens", log, "--session", session],
        ]
        for arguments in commands {
            let run = try NavlogRun(arguments, stdin: nil)
            #expect(run.status == 0, "\(arguments.prefix(1)): \(run.stderr)")
            Self.expectEscaped(run, arguments)
        }
        // The pattern has the planted segments as :id (they hold digits): nothing planted to show.
        let links = try NavlogRun("deeplinks", log, "--format", "csv")
        #expect(links.status == 0 && links.stdout.contains("resolved,app://:id/:id,1,"), "\(links.stdout)")
        Self.expectEscaped(links, ["deeplinks"], printsPlanted: false)
        let report = try NavlogRun("report", log, "-o", scratch.path + "/" + Self.planted("report") + ".html")
        #expect(report.status == 0)
        Self.expectEscaped(report, ["report"])
    }

    @Test func diagnosticsEscapePathsValuesAndTheLogsOwnWords() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/" + Self.planted("planted") + ".jsonl"
        try Self.writePlantedLog(to: log)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"v":1,"seq":12,"ts":"2026-11-29T10:00:59.000Z","session":"\u001b[2J"#.utf8))
        try handle.close()
        let missing = scratch.path + "/" + Self.planted("missing")
        let directory = scratch.path + "/" + Self.planted("log-directory")
        let runs: [[String]] = [
            ["verify", log, "--mode", "absolute"], ["dump", log, "--mode", "absolute"], ["state", log, "--mode", "absolute"],
            ["verify", missing], ["state", missing], ["screens", missing], ["export", missing, "--table", "screen_views"],
            ["verify", log, "--format", Self.planted("format")], ["screens", log, "--since", Self.planted("since")],
            [Self.planted("subcommand")], ["replay", log, "--session", Self.planted("nobody")],
            ["report", log, "-o", scratch.path + "/" + Self.planted("no-such-directory") + "/r.html"],
            ["generate", "--events", "10", "-o", directory], ["repair", log],
        ]
        for arguments in runs {
            var run = try NavlogRun(arguments, stdin: nil)
            if arguments[0] == "dump" { run.stdout = "" }   // JSON, exact off a terminal; see jsonOnATerminal...
            Self.expectEscaped(run, arguments)
        }
        let appended = try NavlogRun("append", directory, "--session", Self.planted("s"), "--event", #"{"type":"scene.open","scene":"\u001b[2J"}"#)
        #expect(appended.status == 0)
        Self.expectEscaped(appended, ["append"])
        let dump = try NavlogRun("dump", directory)
        #expect(dump.stdout.contains(#""scene":"\u001b[2J""#), "JSON keeps its own escapes")
    }

    @Test func jsonOutputIsExactAndExactCSVKeepsTheCells() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/planted.jsonl"
        try Self.writePlantedLog(to: log)
        let json = try NavlogRun("sessions", log, "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try #require(object["sessions"] as? [[String: Any]])
        #expect(sessions.first?["id"] as? String == Self.planted("session"))
        #expect(sessions.first?["app"] as? String == Self.planted("app"))
        #expect(json.stdout.contains(Self.invisible), "format characters and separators are written as they are")
        let screens = try NavlogRun("screens", log, "--format", "json")
        let rows = try #require((try JSONSerialization.jsonObject(with: Data(screens.stdout.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["screen"] as? String }).contains(Self.planted("recipe")))
        let exact = try NavlogRun("screens", log, "--format", "csv", "--exact-csv")
        #expect(exact.stdout.contains("\"" + Self.planted("recipe").replacingOccurrences(of: "\"", with: "\"\"") + "\""))
    }

    /// What navlog writes to standard output when that is a terminal: a pseudo-terminal that
    /// `script` opens, with the terminal's own "\r\n" for "\n" undone.
    static func onATerminal(_ arguments: [String], status: Int32 = 0) throws -> String {
        let command = ([NavlogRun.binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        #if os(Linux)
        process.arguments = ["-qec", command.joined(separator: " "), "/dev/null"]
        #else
        process.arguments = ["-q", "/dev/null", "/bin/sh", "-c", command.joined(separator: " ")]
        #endif
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == status, "\(arguments.prefix(1))")
        return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test func exactCSVOnATerminalIsEscapedAndTheReportIsNotWrittenToOne() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/planted.jsonl"
        try Self.writePlantedLog(to: log)
        for arguments in [["screens", log, "--format", "csv", "--exact-csv"],
                          ["export", log, "--table", "deeplinks", "--format", "csv", "--exact-csv"]] {
            let text = try Self.onATerminal(arguments)
            #expect(!text.isEmpty && Self.unescaped(in: text).isEmpty, "\(arguments.prefix(1)): \(Self.unescaped(in: text))")
            #expect(text.contains(Self.hostileEscaped), "\(arguments.prefix(1)) shows the planted text, escaped")
        }
        let report = try Self.onATerminal(["report", log, "-o", "-"], status: 64)
        #expect(Self.unescaped(in: report).isEmpty && !report.contains("<html"), "no page on a terminal")
    }

    @Test func jsonOnATerminalHasDELAndC1EscapedAndFormatCharactersExact() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/planted.jsonl"
        try Self.writePlantedLog(to: log)
        for arguments in [["sessions", log, "--format", "json"], ["export", log, "--table", "screen_views"], ["dump", log],
                          ["state", log, "--at", "5", "--format", "json"]] {
            let text = try Self.onATerminal(arguments)
            #expect(!text.isEmpty && Self.controls(in: text).isEmpty, "\(arguments.prefix(1)): \(Self.controls(in: text))")
            for line in text.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(arguments.prefix(1)): valid JSON")
            }
        }
        let sessions = try Self.onATerminal(["sessions", log, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sessions.utf8)) as? [String: Any])
        #expect((object["sessions"] as? [[String: Any]])?.first?["id"] as? String == Self.planted("session"), "the same value")
        #expect(sessions.contains(Self.invisible), "format characters and separators are written as they are")
    }

    /// A screen named `pay` + RIGHT-TO-LEFT OVERRIDE + `gnp.exe` is shown as `pay\u202egnp.exe`,
    /// and the table's columns are as wide as what the terminal shows.
    @Test func aTextTableLinesUpAroundAScreenNameWithAReorderingCharacter() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/table.jsonl"
        let events: [[String: Any]] = [
            ["type": "session.start", "launch": "cold"], ["type": "scene.open", "scene": "main"],
            ["type": "push", "scene": "main", "stack": "main", "route": ["screen": "pay\u{202E}gnp.exe"]],
            ["type": "push", "scene": "main", "stack": "main", "route": ["screen": "home\u{200B}"]],
            ["type": "session.end"],
        ]
        try writeJSONLines(events, session: "s", apart: .seconds(1), to: log)
        let run = try NavlogRun("screens", log)
        #expect(run.status == 0 && Self.unescaped(in: run.stdout).isEmpty, "\(run.stdout)")
        let table = run.stdout.split(separator: "\n").dropFirst()   // the line naming the log, then the header and rows
        #expect(table.contains { $0.hasPrefix(#"pay\u202egnp.exe "#) } && table.contains { $0.hasPrefix(#"home\u200b "#) }, "\(run.stdout)")
        #expect(table.count == 4 && Set(table.map(\.count)).count == 1, "every line as long as the header:\n\(run.stdout)")
    }

    /// The page's title names the log's path, whose controls and invisible characters it shows as
    /// the page shows those of names (⟨U+202E⟩); the rest of the page is checked in Chromium by
    /// Tools/report-check.py.
    @Test func theReportsTitleShowsThePathsInvisibleCharactersAsMarkers() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/" + Self.planted("planted") + ".jsonl"
        try Self.writePlantedLog(to: log)
        let page = scratch.path + "/report.html"
        #expect(try NavlogRun("report", log, "-o", page).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let title = try #require(html.range(of: "<title>").flatMap { start in html.range(of: "</title>").map { html[start.upperBound..<$0.lowerBound] } })
        #expect(Self.unescaped(in: String(title)).isEmpty, "\(Self.unescaped(in: String(title)))")
        #expect(title.contains("forged⟨U+0009⟩⟨U+202E⟩gnp.exe⟨U+200B⟩⟨U+200D⟩") && title.contains("⟨U+E0001⟩.jsonl"), "\(title)")
    }

    @Test func anArgumentThatIsNotUTF8IsRefusedNotTakenForAnotherPath() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" verify \"$(printf 'log\\377\\233[31m.jsonl')\"", NavlogRun.binary.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(stderr)")
        #expect(stderr.contains("argument 2 is not valid UTF-8") && Self.controls(in: stderr).isEmpty, "\(stderr)")
    }

    @Test func countsSayOneSessionAndTwoSessions() throws {
        let scratch = try ScratchDirectory()
        let log = scratch.path + "/one.jsonl"
        let lines = [#"{"v":1,"seq":1,"ts":"2026-11-29T10:00:00.000Z","session":"s","type":"scene.open","scene":"main"}"#]
        #expect(FileManager.default.createFile(atPath: log, contents: Data((lines.joined(separator: "\n") + "\n").utf8)))
        let verify = try NavlogRun("verify", log)
        #expect(verify.stdout.contains("ok: 1 event, seq 1...1, 1 session, 1 segment"), "\(verify.stdout)")
        #expect(try NavlogRun("sessions", log).stdout.hasPrefix("\(log): 1 session: "))
        #expect(try NavlogRun("screens", log).stdout.hasPrefix("\(log): screens, 1 event (seq 1...1)"))
        let report = try NavlogRun("report", log, "-o", scratch.path + "/r.html")
        #expect(report.stdout.contains("; 1 event, 1 session"), "\(report.stdout)")
        let generated = try NavlogRun("generate", "--events", "1", "-o", scratch.path + "/g.jsonl")
        #expect(generated.stderr.hasPrefix("navlog generate: wrote 1 event ("), "\(generated.stderr)")
        let torn = scratch.path + "/torn.jsonl"
        #expect(FileManager.default.createFile(atPath: torn, contents: Data((lines[0] + "\n{").utf8)))
        #expect(try NavlogRun("verify", torn, "--mode", "absolute").stdout.contains("no newline at end of file (1 byte)"))
        let repaired = try NavlogRun("repair", torn)
        #expect(repaired.stdout.contains("removed 1 byte "), "\(repaired.stdout)")
    }
}
