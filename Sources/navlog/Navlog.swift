import Foundation
import NavigationHistory

/// One subcommand of navlog.
@MainActor protocol Subcommand {
    /// The name typed after `navlog`.
    static var name: String { get }
    /// One line for `navlog help`.
    static var summary: String { get }
    /// The full help text.
    static var help: String { get }
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
         BouncesCommand.self, TabsCommand.self, DepthCommand.self, DeepLinksCommand.self, ExportCommand.self, ReportCommand.self, RepairCommand.self, AppendCommand.self, WatchCommand.self, GenerateCommand.self, DemoCommand.self, HelpCommand.self]
    }

    static let overview = """
        navlog — read, check, time-travel through, repair, append to and generate navigation history logs.

        Usage: navlog <subcommand> [options] PATH

        PATH is a log directory of segments (NNNNNNNN.jsonl) or a single .jsonl file. Reading commands
        also take `-` (standard input), a pipe or a FIFO, which they copy first to read it as a file.
        The analytics subcommands and `sessions` take several PATHs, and directories of logs, for one
        answer over all of them; `watch` follows a log as it is written.
        Run `navlog help <subcommand>` or `navlog <subcommand> --help` for the details of one.

        Subcommands:
        """

    /// The one place that prints a failure and exits: everything below throws.
    static func main() async {
        // Past a file-size limit (ulimit -f) a write then fails with EFBIG, which every writer
        // reports as an I/O error, instead of the signal ending the process mid-write.
        signal(SIGXFSZ, SIG_IGN)
        LogReader.mapsFilesByDefault = true   // a tool owns its process: see the setting for the SIGBUS handler it costs
        do {
            try await run(CommandLine.arguments.dropFirst())
        } catch {
            let failure = Failure(error, subcommand: nil)
            for line in failure.diagnostics { Diagnostics.print(line) }
            exit(failure.status)
        }
        exit(ExitCode.success)
    }

    /// Runs the subcommand named first in `arguments`; what it throws becomes a ``Failure`` that
    /// names it.
    static func run(_ arguments: ArraySlice<String>) async throws {
        if let k = Arguments.firstNotUTF8() {
            throw Failure(status: ExitCode.usage, diagnostics: [
                "navlog: error: argument \(k) is not valid UTF-8 ('\(CommandLine.arguments[k])'); navlog takes UTF-8 paths and values"])
        }
        guard let name = arguments.first else { throw Failure(status: ExitCode.usage, diagnostics: lines(usage())) }
        if name == "--help" || name == "-h" {
            var out = StandardOutput()
            out.paragraph(usage())
            return try out.flush()
        }
        guard let command = subcommands.first(where: { $0.name == name }) else {
            throw Failure(status: ExitCode.usage, diagnostics: ["navlog: error: unknown subcommand '\(name)'", ""] + lines(usage()))
        }
        do {
            try await command.run(Array(arguments.dropFirst()))
        } catch {
            throw Failure(error, subcommand: name)
        }
    }

    /// The lines of a text navlog wrote, for ``Failure/diagnostics``.
    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func usage() -> String {
        overview + "\n" + subcommands.map { "  " + $0.name.padding(toLength: 13, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n")
    }
}

extension Subcommand {
    /// Parses arguments, or prints the help and returns nil when `--help` was given.
    static func parse(_ arguments: [String], options: Set<String>, flags: Set<String> = []) throws -> Arguments? {
        let parsed = try Arguments(arguments, options: options, flags: flags)
        if parsed.helpRequested {
            var out = StandardOutput()
            out.paragraph(help)
            try out.flush()
            return nil
        }
        return parsed
    }
}
