import Foundation

/// `navlog help [SUBCOMMAND]`
enum HelpCommand: Subcommand {
    static let name = "help"
    static let summary = "Show help for navlog or for one subcommand."
    static let help = """
        Usage: navlog help [SUBCOMMAND]

        Shows the list of subcommands, or the full help of one subcommand.
        """

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments, options: []) else { return }
        var out = StandardOutput()
        if let name = parsed.positional.first {
            guard let command = Navlog.subcommands.first(where: { $0.name == name }) else {
                throw UsageError("unknown subcommand '\(name)'")
            }
            out.paragraph(command.help)
        } else {
            out.paragraph(Navlog.usage())
        }
        try out.flush()
        return
    }
}
