/// `navlog completion SHELL`
enum CompletionCommand: Subcommand {
    static let name = "completion"
    static let summary = "Print a completion script for bash, zsh or fish."
    static let help = """
        Usage: navlog completion bash|zsh|fish

        Prints a script that completes navlog's subcommands, their options and the values of
        options that take one of a few words (--format, --mode, ...), for the shell named.

        Exits 0, or 64 when the shell is missing or not one of bash, zsh, fish.

        Examples:
          source <(navlog completion bash)
          navlog completion zsh > "${fpath[1]}/_navlog"
          navlog completion fish > ~/.config/fish/completions/navlog.fish
        """
    static let options: [CommandOption] = []
    static let operands = Operands.shell

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let shells = CompletionScripts.Shell.allCases.map(\.rawValue).joined(separator: ", ")
        guard parsed.positional.count == 1 else {
            throw UsageError(parsed.positional.isEmpty ? "missing SHELL (one of \(shells))" : "give one SHELL (one of \(shells))")
        }
        guard let shell = CompletionScripts.Shell(rawValue: parsed.positional[0]) else {
            let guess = Arguments.closestName(to: parsed.positional[0], among: CompletionScripts.Shell.allCases.map(\.rawValue))
            throw UsageError("no completion for '\(parsed.positional[0])'" + (guess.map { "; did you mean '\($0)'?" } ?? " (one of \(shells))"))
        }
        var out = StandardOutput()
        out.paragraph(CompletionScripts.script(for: shell))
        try out.flush()
    }
}
