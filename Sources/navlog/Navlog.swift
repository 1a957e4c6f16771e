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
    /// Runs with the arguments after the subcommand's name; returns the exit code.
    static func run(_ arguments: [String]) async throws -> Int32
}

@main
@MainActor enum Navlog {
    static var subcommands: [any Subcommand.Type] {
        [VerifyCommand.self, DumpCommand.self, StateCommand.self, ReplayCommand.self, DiffCommand.self, SessionsCommand.self,
         RestoreCommand.self, ScreensCommand.self, TransitionsCommand.self, PathsCommand.self, FunnelCommand.self, ExitsCommand.self,
         BouncesCommand.self, TabsCommand.self, DepthCommand.self, DeepLinksCommand.self, ExportCommand.self, ReportCommand.self, RepairCommand.self, AppendCommand.self, GenerateCommand.self, DemoCommand.self, HelpCommand.self]
    }

    static let overview = """
        navlog — read, check, time-travel through, repair, append to and generate navigation history logs.

        Usage: navlog <subcommand> [options] PATH

        PATH is a log directory of segments (NNNNNNNN.jsonl) or a single .jsonl file. Reading commands
        also take `-` (standard input), a pipe or a FIFO, which they copy first to read it as a file.
        Run `navlog help <subcommand>` or `navlog <subcommand> --help` for the details of one.

        Subcommands:
        """

    static func main() async {
        // Past a file-size limit (ulimit -f) a write then fails with EFBIG, which every writer
        // reports as an I/O error, instead of the signal ending the process mid-write.
        signal(SIGXFSZ, SIG_IGN)
        LogReader.mapsFilesByDefault = true   // a tool owns its process: see the setting for the SIGBUS handler it costs
        // An argument that is not UTF-8 reaches Swift with U+FFFD in place of its bad bytes: as a
        // path it would name another file. Refuse it rather than report that file missing.
        for k in 1..<Int(CommandLine.argc) where CommandLine.unsafeArgv[k].map({ String(validatingCString: $0) == nil }) ?? false {
            Diagnostics.print("navlog: error: argument \(k) is not valid UTF-8 ('\(CommandLine.arguments[k])'); navlog takes UTF-8 paths and values")
            exit(ExitCode.usage)
        }
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first else {
            Diagnostics.paragraph(usage())
            exit(ExitCode.usage)
        }
        arguments.removeFirst()
        if name == "--help" || name == "-h" {
            var out = StandardOutput()
            out.paragraph(usage())
            out.flush()
            exit(ExitCode.success)
        }
        guard let command = subcommands.first(where: { $0.name == name }) else {
            Diagnostics.print("navlog: error: unknown subcommand '\(name)'")
            Diagnostics.paragraph("\n" + usage())
            exit(ExitCode.usage)
        }
        do {
            exit(try await command.run(arguments))
        } catch let error as UsageError {
            Diagnostics.print("navlog \(name): error: \(error.message)")
            Diagnostics.print("Run `navlog help \(name)` for usage.")
            exit(ExitCode.usage)
        } catch let error as NavigationHistoryError {
            Diagnostics.error(error)
            exit(ExitCode.of(error))
        } catch {
            Diagnostics.print("navlog \(name): error: \(error)")
            exit(ExitCode.ioError)
        }
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
            out.flush()
            return nil
        }
        return parsed
    }
}
