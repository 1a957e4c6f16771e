import Foundation

/// `navlog help [SUBCOMMAND]`
enum HelpCommand: Subcommand {
    static let name = "help"
    static let summary = "Show help for navlog or for one subcommand."
    static let help = """
        Usage: navlog help [SUBCOMMAND]
               navlog help --man

        Shows the list of subcommands, or the full help of one subcommand. With --man, prints
        navlog's man page (roff) instead, made of the same texts.

        Examples:
          navlog help funnel
          navlog help --man > navlog.1 && man -l navlog.1
        """

    static let options: [CommandOption] = [.flag("--man")]
    static let operands = Operands.subcommand

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        var out = StandardOutput()
        if parsed.has("--man") {
            guard parsed.positional.isEmpty else { throw UsageError("--man prints the whole page; give no SUBCOMMAND with it") }
            out.paragraph(ManPage.roff())
        } else if let name = parsed.positional.first {
            guard let command = Navlog.subcommands.first(where: { $0.name == name }) else {
                let guess = Arguments.closestName(to: name, among: Navlog.subcommandNames).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError("unknown subcommand '\(name)'\(guess)", hint: "`navlog help` lists them")
            }
            out.paragraph(command.help)
        } else {
            out.paragraph(Navlog.usage())
        }
        try out.flush()
        return
    }
}
