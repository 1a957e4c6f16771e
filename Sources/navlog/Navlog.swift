import Foundation
import NavigationHistory

/// One subcommand of navlog.
@MainActor protocol Subcommand {
    /// The name typed after `navlog`.
    static var name: String { get }
    /// One line for `navlog help`.
    static var summary: String { get }
    /// The full help text: at most 100 columns, ending with an Examples section.
    static var help: String { get }
    /// The options and flags it takes: what the parser accepts, and what completion and the man
    /// page list.
    static var options: [CommandOption] { get }
    /// What it takes after its options, for completion.
    static var operands: Operands { get }
    /// Runs with the arguments after the subcommand's name.
    ///
    /// - Throws: A ``Failure``, ``UsageError`` or library error, which ``Navlog/main()`` prints
    ///   and exits with.
    static func run(_ arguments: [String]) async throws
}

@main
@MainActor enum Navlog {
    static var subcommands: [any Subcommand.Type] {
        [VerifyCommand.self, DumpCommand.self, StateCommand.self, ReplayCommand.self, DiffCommand.self, SessionsCommand.self,
         RestoreCommand.self, ScreensCommand.self, TransitionsCommand.self, PathsCommand.self, FunnelCommand.self, ExitsCommand.self,
         BouncesCommand.self, TabsCommand.self, DepthCommand.self, DeepLinksCommand.self, ExportCommand.self, ReportCommand.self,
         RepairCommand.self, AppendCommand.self, ShipCommand.self, IngestCommand.self,
         WatchCommand.self, GenerateCommand.self, DemoCommand.self, CompletionCommand.self,
         VersionCommand.self, HelpCommand.self]
    }

    /// The names of ``subcommands``, in order.
    static var subcommandNames: [String] { subcommands.map { $0.name } }

    /// What navlog does, in the words after its name.
    static let tagline = "read, check, time-travel through, repair, append to and generate navigation history logs."

    /// What the list of subcommands follows in `navlog help`, and the man page's description.
    static let description = """
        Usage: navlog <subcommand> [options] PATH

        PATH is a log directory of segments (NNNNNNNN.jsonl) or a single .jsonl file. Reading commands
        also take `-` (standard input), a pipe or a FIFO, which they copy first to read it as a file.
        The analytics subcommands and `sessions` take several PATHs, and directories of logs, for one
        answer over all of them; `watch` follows a log as it is written.
        Run `navlog help <subcommand>` or `navlog <subcommand> --help` for the details of one.

        Examples:
          navlog demo --dir demo
          navlog sessions demo/log --ending unclean --limit 5
          navlog funnel demo/log --steps home,category,product
        """

    static var overview: String { "navlog — \(tagline)\n\n\(description)\n\nSubcommands:" }

    /// The one place that prints a failure and exits: everything below throws.
    static func main() async {
        // Past a file-size limit (ulimit -f) a write then fails with EFBIG, which every writer
        // reports as an I/O error, instead of the signal ending the process mid-write.
        signal(SIGXFSZ, SIG_IGN)
        LogReader.mapsFilesByDefault = true   // a tool owns its process: see the setting for the SIGBUS handler it costs
        do {
            try await run(CommandLine.arguments.dropFirst())
        } catch {
            let failure = Failure(error, subcommand: Diagnostics.subcommand)
            for line in failure.diagnostics { Diagnostics.print(line) }
            exit(failure.status)
        }
        exit(ExitCode.success)
    }

    /// Runs the subcommand named first in `arguments`, which from then on every diagnostic names.
    static func run(_ arguments: ArraySlice<String>) async throws {
        if let k = Arguments.firstNotUTF8() {
            throw Failure(status: ExitCode.usage, diagnostics: [
                .error("argument \(k) is not valid UTF-8 ('\(CommandLine.arguments[k])'); navlog takes UTF-8 paths and values")])
        }
        guard let name = arguments.first else {
            var out = StandardOutput()
            out.paragraph(usage())
            try out.flush()
            throw Failure(status: ExitCode.usage, diagnostics: [.error("missing subcommand (the list above; navlog help SUBCOMMAND shows one)")])
        }
        switch name {
        case "--help", "-h":
            var out = StandardOutput()
            out.paragraph(usage())
            return try out.flush()
        case "--version":
            return try await VersionCommand.run([])
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.name == name }) else {
            let known = subcommandNames + ["--help", "--version"]
            let guess = Arguments.closestName(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown \(name.hasPrefix("-") ? "option" : "subcommand") '\(name)'\(guess)", hint: "`navlog help` lists them")
        }
        Diagnostics.subcommand = name
        try await command.run(Array(arguments.dropFirst()))
    }

    static func usage() -> String {
        overview + "\n" + subcommands.map { "  " + $0.name.padding(toLength: 13, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n")
    }
}

extension Subcommand {
    /// Paths, unless the subcommand says otherwise.
    static var operands: Operands { .paths }

    /// Parses arguments by ``options``, or prints the help and returns nil when `--help` was given.
    static func parse(_ arguments: [String]) throws -> Arguments? {
        let parsed = try Arguments(arguments, options: options)
        if parsed.helpRequested {
            var out = StandardOutput()
            out.paragraph(help)
            try out.flush()
            return nil
        }
        return parsed
    }
}
