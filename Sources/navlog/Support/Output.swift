import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Text for a person reaches the terminal only through ``StandardOutput/line(_:)``,
/// ``StandardOutput/paragraph(_:)`` and ``Diagnostics``, which escape it here: names, ids, URLs
/// and paths come from a log or a directory listing, and a control character in them must not
/// move the cursor, change colours or the window title, or forge a line of output; nor may an
/// invisible or reordering one make `pay\u{202E}gnp.exe` read `payexe.png`.
enum Terminal {
    /// `text` with every character that acts on the terminal or hides from its reader written as
    /// a `\u` escape as in JSON (`\u001b` for ESC, `\u202e` for RIGHT-TO-LEFT OVERRIDE, a
    /// character above U+FFFF as its UTF-16 pair): see ``isEscaped(_:)``. Text without them is
    /// returned as it is; an escaped text has none left, so escaping twice changes nothing.
    /// Invalid UTF-8 never gets here: a `String` holds U+FFFD in its place.
    static func escaped(_ text: String) -> String {
        // Printable ASCII has nothing to escape: most text is decided by its bytes alone.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isEscaped(scalar) else { result.append(scalar); continue }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            }
        }
        return String(result)
    }

    /// JSON text with DEL and C1 controls, which JSON leaves raw in strings, written as `\u`
    /// escapes: the same JSON values, for a terminal. C0 controls are escaped by JSON itself, and
    /// all three can only be inside strings, where an escape means the same character.
    static func escapedJSON(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 == 0x7F || $0 == 0xC2 }) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 64)
        var k = 0
        while k < bytes.count {
            let byte = bytes[k]
            if byte == 0x7F {
                result += Array("\\u007f".utf8)
            } else if byte == 0xC2, k + 1 < bytes.count, (0x80...0x9F).contains(bytes[k + 1]) {
                result += Array("\\u00\(String(bytes[k + 1], radix: 16))".utf8)
                k += 1
            } else {
                result.append(byte)
            }
            k += 1
        }
        return result
    }

    /// Whether `scalar` is escaped for a terminal: a control character — C0 (U+0000–U+001F,
    /// newline and tab included), DEL (U+007F) or C1 (U+0080–U+009F) — or one that is invisible
    /// or reorders the text around it — a format character (category Cf: the bidi controls
    /// U+202A–U+202E and U+2066–U+2069, the zero-width U+200B–U+200D, U+2060 and U+FEFF, the soft
    /// hyphen U+00AD and the rest) — or the line and paragraph separators U+2028 and U+2029,
    /// which break a terminal's line as a newline does.
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0xA0 { return value < 0x20 || value >= 0x7F }
        return value == 0x2028 || value == 0x2029 || scalar.properties.generalCategory == .format
    }
}

/// Buffered standard output: results go here. Lines of text are escaped (see ``Terminal``);
/// JSON is written exactly, but for DEL and C1 controls escaped when standard output is a
/// terminal; exact CSV as it is.
struct StandardOutput {
    private var buffer: [UInt8] = []
    /// The first failure to write, which every later ``flush()`` throws.
    private var failure: NavigationHistoryError?
    /// Whether standard output is a terminal.
    let isTerminal = isatty(STDOUT_FILENO) == 1

    init() { buffer.reserveCapacity(1 << 16) }

    /// Writes JSON: exactly, or on a terminal with DEL and C1 controls as `\u` escapes (the same
    /// JSON values).
    mutating func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: isTerminal ? Terminal.escapedJSON(bytes) : bytes)
        flushIfFull()
    }

    /// Writes `bytes` exactly as they are: only output the user asked to have exact
    /// (`--exact-csv`), and only when it does not go to a terminal, where a person reads it and
    /// it is escaped as text.
    mutating func exact(_ bytes: [UInt8]) {
        if Self.isTerminal {
            buffer.append(contentsOf: Terminal.escaped(String(decoding: bytes.dropLast(bytes.last == 0x0A ? 1 : 0), as: UTF8.self)).utf8)
            if bytes.last == 0x0A { buffer.append(0x0A) }
        } else {
            buffer.append(contentsOf: bytes)
        }
        flushIfFull()
    }

    /// Whether standard output is a terminal.
    static let isTerminal = isatty(STDOUT_FILENO) == 1

    /// Writes one line of text, escaped.
    mutating func line(_ text: String) {
        buffer.append(contentsOf: Terminal.escaped(text).utf8)
        buffer.append(0x0A)
        flushIfFull()
    }

    /// Writes a text of several lines that navlog itself wrote, such as a help text: each line
    /// escaped, the line breaks kept.
    mutating func paragraph(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { self.line(String(line)) }
    }

    /// Writes what is buffered.
    ///
    /// - Throws: An `io` error (exit 74) when standard output cannot be written, now or at an
    ///   earlier write that flushed on its own: the first failure is kept and nothing more is
    ///   written, so the last `flush()` of a command reports it.
    mutating func flush() throws {
        if failure == nil {
            do {
                try FileSystem.write(buffer, to: STDOUT_FILENO, path: "stdout", failure: "cannot write the output")
            } catch let error as NavigationHistoryError {
                failure = error
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }

    /// Flushes when the buffer is full; a failure waits for the command's last ``flush()``.
    private mutating func flushIfFull() {
        if buffer.count >= 1 << 16 { try? flush() }
    }
}

/// Swift's `print` would reach the terminal unescaped: navlog prints through ``StandardOutput``
/// and ``Diagnostics`` alone.
@available(*, unavailable, message: "print through StandardOutput or Diagnostics, which escape control characters")
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {}

/// `count` and `noun`, the noun in the plural unless the count is 1: "1 session", "3,000 sessions".
func counted(_ count: Int, _ noun: String) -> String {
    "\(TextFormat.count(count)) \(noun)\(count == 1 ? "" : "s")"
}
