import NavigationHistory

/// An option or flag of a subcommand, declared once in the subcommand's ``Subcommand/options``:
/// the parser takes what is declared there and nothing else, and the completion scripts and the
/// man page list it from there.
struct CommandOption: Hashable, Sendable {
    /// What follows the option's name.
    enum Value: Hashable, Sendable {
        /// Nothing: a flag.
        case none
        /// A value, shown as its placeholder (`N`, `TS`, `ID`).
        case text(String)
        /// One of these words.
        case choice([String])
        /// The path of a file.
        case file(String)
        /// The path of a directory.
        case directory(String)
    }

    var name: String
    var value: Value

    /// Whether a value follows the name.
    var takesValue: Bool { value != .none }

    /// What stands for the value in a synopsis: `N`, `text|json`; nil for a flag.
    var placeholder: String? {
        switch value {
        case .none: nil
        case .text(let text), .file(let text), .directory(let text): text
        case .choice(let words): words.joined(separator: "|")
        }
    }

    /// A flag, which takes no value.
    static func flag(_ name: String) -> CommandOption { CommandOption(name: name, value: .none) }

    /// An option whose value `placeholder` stands for.
    static func option(_ name: String, _ placeholder: String) -> CommandOption { CommandOption(name: name, value: .text(placeholder)) }

    /// An option that takes one of `words`.
    static func choice(_ name: String, _ words: [String]) -> CommandOption { CommandOption(name: name, value: .choice(words)) }

    /// An option that takes one of the cases of `type`.
    static func choice<T: CaseIterable & RawRepresentable>(_ name: String, _ type: T.Type) -> CommandOption where T.RawValue == String {
        choice(name, type.allCases.map(\.rawValue))
    }

    /// An option that takes the path of a file.
    static func file(_ name: String, _ placeholder: String = "FILE") -> CommandOption { CommandOption(name: name, value: .file(placeholder)) }

    /// An option that takes the path of a directory.
    static func directory(_ name: String, _ placeholder: String = "DIR") -> CommandOption {
        CommandOption(name: name, value: .directory(placeholder))
    }

    /// `--format` with these formats.
    static func format(_ formats: [String]) -> CommandOption { choice("--format", formats) }

    /// `--format text|json`.
    static let textOrJSON = format(OutputFormat.allCases.map(\.rawValue))

    /// `--mode`, the recovery mode of the reading.
    static let recoveryMode = choice("--mode", RecoveryMode.self)

    /// `--limit N`: at most N rows.
    static let limit = option("--limit", "N")
}

extension [CommandOption] {
    /// These options with `option` in place of the one of the same name.
    func replacing(_ option: CommandOption) -> [CommandOption] {
        map { $0.name == option.name ? option : $0 }
    }

    /// These options without the one named `name`.
    func removing(_ name: String) -> [CommandOption] {
        filter { $0.name != name }
    }
}

/// What a subcommand takes after its options, for the completion scripts.
enum Operands: Sendable {
    /// Paths of logs, files or directories.
    case paths
    /// Nothing.
    case none
    /// The name of a subcommand (`help`).
    case subcommand
    /// The name of a shell (`completion`).
    case shell
}
