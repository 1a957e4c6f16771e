import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line for standard error: how grave it is, what it concerns, and what it says.
struct Diagnostic: Sendable, Hashable {
    /// The word after the subcommand's name: `error: `, `warning: `, or none for a note.
    enum Severity: Sendable, Hashable {
        case error, warning, note
    }

    var severity: Severity
    /// `PATH:LINE` or `PATH`, when it concerns a file or a line of one.
    var place: String?
    var message: String

    /// An error, about `place` when it is given.
    static func error(_ message: String, at place: String? = nil) -> Diagnostic {
        Diagnostic(severity: .error, place: place, message: message)
    }

    /// A warning, about `place` when it is given.
    static func warning(_ message: String, at place: String? = nil) -> Diagnostic {
        Diagnostic(severity: .warning, place: place, message: message)
    }

    /// A note (what navlog is waiting for, what it wrote), about `place` when it is given.
    static func note(_ message: String, at place: String? = nil) -> Diagnostic {
        Diagnostic(severity: .note, place: place, message: message)
    }

    /// The warning of a defect the reading tolerated: `file:line: kind: detail`.
    static func warning(_ defect: LogDefect) -> Diagnostic {
        .warning("\(defect.kind): \(defect.detail)", at: "\(LogInput.shown(defect.file)):\(defect.line)")
    }

    /// The error of a defect: `file:line: kind: detail`.
    static func error(_ defect: LogDefect) -> Diagnostic {
        .error("\(defect.kind): \(defect.detail)", at: "\(LogInput.shown(defect.file)):\(defect.line)")
    }
}

/// Standard error, where every line is one ``Diagnostic`` written the same way: `navlog
/// SUBCOMMAND: ` (`navlog: ` before a subcommand is known), then `error: ` or `warning: ` (nothing
/// for a note), then `PLACE: ` when there is one, then the message — escaped (see ``Terminal``), so
/// that nothing a log holds can forge a line. On a terminal the word `error` is red and `warning`
/// yellow, unless `NO_COLOR` is set (https://no-color.org) or `TERM` is `dumb` or unset; never in
/// a pipe or a file.
enum Diagnostics {
    /// The subcommand running, named at the start of every line; nil before one is known.
    static var subcommand: String? {
        get { running.withLock { $0 } }
        set { running.withLock { $0 = newValue } }
    }

    private static let running = Locked<String?>(nil)

    /// What begins every line: `navlog SUBCOMMAND: `.
    static var prefix: String { subcommand.map { "navlog \($0): " } ?? "navlog: " }

    /// Writes `diagnostic` as one line.
    static func print(_ diagnostic: Diagnostic) {
        write(text(diagnostic, coloured: coloured) + "\n")
    }

    /// Writes an error, about `place` when it is given.
    static func error(_ message: String, at place: String? = nil) { print(.error(message, at: place)) }

    /// Writes a warning, about `place` when it is given.
    static func warning(_ message: String, at place: String? = nil) { print(.warning(message, at: place)) }

    /// Writes a note, about `place` when it is given.
    static func note(_ message: String, at place: String? = nil) { print(.note(message, at: place)) }

    /// Writes the warning of a defect the reading tolerated.
    static func warning(_ defect: LogDefect) { print(.warning(defect)) }

    /// The line of `diagnostic`, without its line break, the word coloured when `coloured`.
    static func text(_ diagnostic: Diagnostic, coloured: Bool) -> String {
        let word: String
        switch diagnostic.severity {
        case .error: word = coloured ? "\u{1B}[1;31merror\u{1B}[0m: " : "error: "
        case .warning: word = coloured ? "\u{1B}[1;33mwarning\u{1B}[0m: " : "warning: "
        case .note: word = ""
        }
        let place = diagnostic.place.map { Terminal.escaped($0) + ": " } ?? ""
        return Terminal.escaped(prefix) + word + place + Terminal.escaped(diagnostic.message)
    }

    /// Redraws the progress line, `navlog SUBCOMMAND: ` and `text`, escaped, at the start of the
    /// line, without a line break; `text` empty, the cursor goes back to the start.
    static func progress(_ text: String) {
        write("\r" + (text.isEmpty ? "" : Terminal.escaped(prefix + text)))
    }

    /// Whether the words are coloured: standard error is a terminal that takes colours, and the
    /// user did not ask for none.
    static let coloured: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return wantsColour(terminal: isatty(STDERR_FILENO) == 1, noColor: environment["NO_COLOR"], term: environment["TERM"])
    }()

    /// Whether output to a `terminal` or not gets colours, given the values of `NO_COLOR` and
    /// `TERM`: only a terminal, only when `NO_COLOR` is unset or empty, and `TERM` names a terminal
    /// other than `dumb`.
    static func wantsColour(terminal: Bool, noColor: String?, term: String?) -> Bool {
        terminal && (noColor ?? "").isEmpty && !(term ?? "").isEmpty && term != "dumb"
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
