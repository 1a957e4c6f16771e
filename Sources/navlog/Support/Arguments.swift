import Foundation
import NavigationHistory

/// A usage error: wrong or missing arguments (exit 64).
struct UsageError: Error {
    var message: String
    /// Where to look, said after the message in parentheses; nil for the default,
    /// "`navlog help SUBCOMMAND` shows the usage".
    var hint: String?

    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}

/// The parsed arguments of one subcommand: options by name, and positional arguments.
struct Arguments {
    private(set) var positional: [String] = []
    private var values: [String: [String]] = [:]
    private(set) var helpRequested = false

    /// Parses `arguments` given the options a subcommand declares.
    init(_ arguments: [String], options declared: [CommandOption]) throws {
        let options = Set(declared.filter(\.takesValue).map(\.name))
        let flags = Set(declared.filter { !$0.takesValue }.map(\.name))
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "--help" || argument == "-h" {
                helpRequested = true
            } else if argument == "--" {
                positional.append(contentsOf: arguments[i...])
                break
            } else if argument.hasPrefix("-") && argument != "-" {
                var name = argument
                var inline: String?
                if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                    name = String(argument[..<equals])
                    inline = String(argument[argument.index(after: equals)...])
                }
                if flags.contains(name) {
                    guard inline == nil else { throw UsageError("option \(name) takes no value") }
                    values[name, default: []].append("")
                } else if options.contains(name) {
                    if let inline {
                        values[name, default: []].append(inline)
                    } else {
                        guard i < arguments.count else { throw UsageError("option \(name) needs a value") }
                        values[name, default: []].append(arguments[i])
                        i += 1
                    }
                } else {
                    let known = declared.map(\.name) + ["--help"]
                    let guess = Self.closestName(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
                    throw UsageError("unknown option '\(name)'\(guess)", hint: "`navlog help SUBCOMMAND` lists them")
                }
            } else {
                positional.append(argument)
            }
        }
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    /// The value of `--limit N`: at most N rows; nil when not given.
    func limit() throws -> Int? { try integer("--limit", range: 1...Int.max) }

    func value(_ name: String) -> String? { values[name]?.last }

    func all(_ name: String) -> [String] { values[name] ?? [] }

    func integer(_ name: String, range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text.replacingOccurrences(of: "_", with: "")), range.contains(number) else {
            throw UsageError("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    func double(_ name: String, range: ClosedRange<Double>) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), range.contains(number) else {
            throw UsageError("\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// The moment option `name` gives, as ``TimeArgument`` reads it; nil when it is not given.
    func time(_ name: String) throws -> Timestamp? {
        try value(name).map { try TimeArgument.parse($0, option: name) }
    }

    /// The duration option `name` gives, as ``DurationArgument`` reads it; nil when it is not
    /// given. `bareUnit` is what a number without a unit counts, for an option in that unit.
    func duration(_ name: String, bareUnit: Int64? = nil) throws -> Duration? {
        try value(name).map { try DurationArgument.parse($0, option: name, bareUnit: bareUnit) }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: String, default fallback: T) throws -> T where T.RawValue == String {
        guard let text = value(name) else { return fallback }
        return try Self.choice(name, text)
    }

    /// The value of the required option `name`, one of `T`'s cases.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String) throws -> T where T.RawValue == String {
        guard let text = value(name) else {
            throw UsageError("missing \(name) (one of \(T.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return try Self.choice(name, text)
    }

    /// `text`, given to option `name`, as one of `T`'s cases.
    static func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ text: String) throws -> T where T.RawValue == String {
        guard let result = T(rawValue: text) else {
            throw UsageError("\(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        return result
    }

    /// The permissions `--file-mode` gives, in octal from 000 to 777, or nil when it is not given.
    func fileMode() throws -> mode_t? {
        guard let text = value("--file-mode") else { return nil }
        guard !text.isEmpty, text.count <= 4, let mode = mode_t(text, radix: 8), mode <= 0o777 else {
            throw UsageError("--file-mode takes permissions in octal, such as 600 or 644, not '\(text)'")
        }
        return mode
    }

    /// The single positional argument `name`.
    func path(_ name: String = "PATH") throws -> String {
        guard let first = positional.first else { throw UsageError("missing \(name)") }
        guard positional.count == 1 else { throw UsageError("unexpected argument '\(positional[1])'") }
        return first
    }
}

extension Arguments {
    /// The name among `names` nearest to `typed`, when one is near enough to be what was meant,
    /// as ``Suggestions`` judges it: for unknown options and subcommands.
    static func closestName(to typed: String, among names: [String]) -> String? {
        Suggestions.closest(to: typed, among: names, limit: 1).first
    }

    /// The place of the first command-line argument that is not valid UTF-8, if any. Swift hands
    /// such an argument over with U+FFFD in place of its bad bytes: as a path it would name
    /// another file, so navlog refuses it rather than report that file missing.
    static func firstNotUTF8() -> Int? {
        (1..<Int(CommandLine.argc)).first { k in CommandLine.unsafeArgv[k].map { String(validatingCString: $0) == nil } ?? false }
    }
}

/// Output formats of data-printing subcommands.
enum OutputFormat: String, CaseIterable {
    case text, json
}
