/// `navlog version` (also `navlog --version`)
enum VersionCommand: Subcommand {
    static let name = "version"
    static let summary = "Print navlog's version and the versions of the formats it reads and writes."
    static let help = """
        Usage: navlog version
               navlog --version

        Prints navlog's version, the version of the event format it reads and writes (the `v` of
        every line of a log) and the version of its JSON output (the "format" that begins every
        --format json output), on one line.

        Examples:
          navlog --version
        """
    static let options: [CommandOption] = []
    static let operands = Operands.none

    /// navlog's version: the one place it is written.
    static let navlog = "1.0.0"
    /// The version of the event format navlog reads and writes: the `v` of a log's lines.
    static let eventFormat = 1
    /// The version of navlog's JSON output: the `"format"` member that begins it.
    static let jsonOutput = 2

    /// What `navlog --version` prints.
    static var line: String { "navlog \(navlog) (event format \(eventFormat), JSON output format \(jsonOutput))" }

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        if let extra = parsed.positional.first { throw UsageError("unexpected argument '\(extra)'") }
        var out = StandardOutput()
        out.line(line)
        try out.flush()
    }
}
