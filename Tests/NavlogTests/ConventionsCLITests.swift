import Foundation
import Testing
import TestSupport

/// The conventions of a command-line tool, on the built binary: the version, completion scripts
/// and the man page from the table the parser uses, help texts a newcomer reads, one error prefix,
/// colour only on a terminal, and one line for a mistyped name.
@Suite struct ConventionsCLITests {
    /// The subcommands `navlog help` lists, read from its output.
    static func subcommands() throws -> [String] {
        let help = try NavlogRun("help")
        let list = try #require(help.stdout.components(separatedBy: "Subcommands:\n").last)
        return list.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Runs `command` in a shell on a pseudo-terminal (script(1)), standard error included in
    /// what it returns; nil where script(1) is missing.
    static func onTerminal(_ command: String, environment: [String: String] = [:]) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment.filter { $0.key != "NO_COLOR" }
        env["TERM"] = "xterm"
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func versionAndDashDashVersionPrintOneLineWithTheVersionsOfTheFormats() throws {
        let a = try NavlogRun("--version"), b = try NavlogRun("version")
        #expect(a.status == 0 && b.status == 0 && a.stdout == b.stdout && a.stderr.isEmpty)
        #expect(a.stdout.hasPrefix("navlog 1.") && a.stdout.contains("JSON output format 2") && a.stdout.filter { $0 == "\n" }.count == 1)
    }

    @Test func anUnknownSubcommandOrOptionSaysTheClosestOnOneLineAndExits64() throws {
        let subcommand = try NavlogRun("veriffy", "x")
        #expect(subcommand.status == 64 && subcommand.stdout.isEmpty)
        #expect(subcommand.stderr == "navlog: error: unknown subcommand 'veriffy'; did you mean 'verify'? (`navlog help` lists them)\n")
        let option = try NavlogRun("sessions", "x", "--limt", "3")
        #expect(option.status == 64 && option.stdout.isEmpty)
        #expect(option.stderr == "navlog sessions: error: unknown option '--limt'; did you mean '--limit'? (`navlog help sessions` lists them)\n")
        let far = try NavlogRun("frobnicate")
        #expect(far.status == 64 && far.stderr == "navlog: error: unknown subcommand 'frobnicate' (`navlog help` lists them)\n")
        let help = try NavlogRun("help", "funel")
        #expect(help.status == 64 && help.stderr == "navlog help: error: unknown subcommand 'funel'; did you mean 'funnel'? (`navlog help` lists them)\n")
    }

    @Test func everyLineOnStandardErrorBeginsWithTheSubcommandThenErrorThenThePlace() throws {
        let scratch = try ScratchDirectory()
        let bad = scratch.path + "/bad.jsonl"
        try "{\"v\":1}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let run = try NavlogRun("dump", bad)
        #expect(run.status == 65)
        #expect(!run.stderr.isEmpty && run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("navlog dump: error: \(bad):1: ") }, "\(run.stderr)")
        let missing = try NavlogRun("screens", scratch.path + "/missing")
        #expect(missing.status == 66 && missing.stderr.hasPrefix("navlog screens: error: \(scratch.path)/missing: "), "\(missing.stderr)")
    }

    @Test func errorAndWarningAreColouredOnlyOnATerminalAndNeverWithNoColor() throws {
        let binary = NavlogRun.binary.path
        guard let terminal = try Self.onTerminal("'\(binary)' veriffy") else { return }
        #expect(terminal.contains("navlog: \u{1B}[1;31merror\u{1B}[0m: unknown subcommand"), "\(terminal)")
        let noColor = try #require(try Self.onTerminal("'\(binary)' veriffy", environment: ["NO_COLOR": "1"]))
        #expect(noColor.contains("navlog: error: unknown subcommand") && !noColor.contains("\u{1B}["), "\(noColor)")
        let emptyNoColor = try #require(try Self.onTerminal("'\(binary)' veriffy", environment: ["NO_COLOR": ""]))
        #expect(emptyNoColor.contains("\u{1B}[1;31merror"), "an empty NO_COLOR asks for nothing")
        let piped = try NavlogRun("veriffy")
        #expect(!piped.stderr.contains("\u{1B}"))
    }

    @Test func watchOfAPathNotThereSaysOnceOnATerminalThatItWaitsAndHowToStop() throws {
        let scratch = try ScratchDirectory()
        let missing = scratch.path + "/later.navlog"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout"),
              let terminal = try Self.onTerminal("/usr/bin/timeout -s INT 2 '\(NavlogRun.binary.path)' watch '\(missing)'") else { return }
        let lines = terminal.split(whereSeparator: \.isNewline).filter { !$0.isEmpty }
        #expect(lines == ["navlog watch: \(missing): no log here yet; waiting for it to appear; press Ctrl-C to stop"], "\(terminal)")
    }

    @Test func everyHelpTextFitsIn100ColumnsHasExamplesAndNoInternals() throws {
        let names = try Self.subcommands()
        #expect(names.count > 20 && names.contains("completion") && names.contains("version"))
        let overview = try NavlogRun("help")
        #expect(overview.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 }, "navlog help")
        for name in names {
            let help = try NavlogRun("help", name)
            #expect(help.status == 0, "\(name)")
            for line in help.stdout.split(separator: "\n") where line.count > 100 {
                Issue.record("navlog help \(name): \(line.count) columns: \(line)")
            }
            #expect(help.stdout.contains("\nExamples:\n  "), "navlog help \(name) has no Examples section")
            for word in ["OWASP", "quantile_disc", "in turn on every core"] {
                #expect(!help.stdout.contains(word), "navlog help \(name) says \(word)")
            }
        }
    }

    @Test func theCompletionScriptsListEverySubcommandAndTheirShellsAcceptThem() throws {
        let names = try Self.subcommands()
        for shell in ["bash", "zsh", "fish"] {
            let run = try NavlogRun("completion", shell)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(shell): \(run.stderr)")
            for name in names {
                let listed = switch shell {
                case "bash": run.stdout.contains("\n  \(name))\n")
                case "zsh": run.stdout.contains("\n    '\(name):") && run.stdout.contains("\n    \(name))\n")
                default: run.stdout.contains("__fish_use_subcommand -a \(name) ")
                }
                #expect(listed, "\(shell) lists \(name)")
            }
            #expect(run.stdout.contains(shell == "fish" ? "-l ending -x -a 'clean background unclean open'" : "--ending") && run.stdout.contains("unclean"),
                    "\(shell) completes the values of --ending")
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-completion-\(UUID().uuidString).\(shell)")
            try run.stdout.write(to: script, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: script) }
            guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)", "/usr/local/bin/\(shell)"].first(where: FileManager.default.isExecutableFile)
            else { continue }
            let check = Process()
            check.executableURL = URL(fileURLWithPath: path)
            check.arguments = shell == "fish" ? ["--no-execute", script.path] : ["-n", script.path]
            check.standardError = FileHandle.nullDevice
            try check.run()
            check.waitUntilExit()
            #expect(check.terminationStatus == 0, "\(shell) -n accepts the script")
        }
        let wrong = try NavlogRun("completion", "bsh")
        #expect(wrong.status == 64 && wrong.stderr.contains("did you mean 'bash'?"), "\(wrong.stderr)")
    }

    @Test func bashCompletesSubcommandsOptionsAndTheirValues() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/bash") else { return }
        let script = try NavlogRun("completion", "bash").stdout
        func complete(_ words: [String]) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/bash")
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-c", script + "\nCOMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _navlog; printf '%s\\n' \"${COMPREPLY[@]}\""]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(try complete(["navlog", "fun"]) == ["funnel"])
        #expect(try complete(["navlog", "sessions", "x", "--end"]) == ["--ending"])
        #expect(try complete(["navlog", "sessions", "x", "--ending", "un"]) == ["unclean"])
        #expect(try complete(["navlog", "completion", "z"]) == ["zsh"])
    }

    @Test func theManPageIsMadeOfTheHelpTextsAndManReadsIt() throws {
        let run = try NavlogRun("help", "--man")
        #expect(run.status == 0 && run.stderr.isEmpty)
        let page = run.stdout
        #expect(page.hasPrefix(".TH NAVLOG 1 "))
        for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH SUBCOMMANDS", ".SH ENVIRONMENT"] {
            #expect(page.contains("\n\(section)\n"), "\(section)")
        }
        for name in try Self.subcommands() { #expect(page.contains("\n.SS \(name)\n"), "\(name)") }
        #expect(!page.split(separator: "\n").contains { $0.hasPrefix(".") && !$0.hasPrefix(".TH") && !$0.hasPrefix(".SH") && !$0.hasPrefix(".SS")
            && !["." + "PP", ".nf", ".fi", ".B navlog", ".I SUBCOMMAND", ".br", ".TP", ".B NO_COLOR", ".B navlog help", ".B navlog --version"]
                .contains(String($0)) }, "no help line is taken for a request")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-\(UUID().uuidString).1")
        try page.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        groff.arguments = ["-man", "-Tascii", "-ww", "-P", "-bcou", file.path]
        let out = Pipe(), err = Pipe()
        groff.standardOutput = out
        groff.standardError = err
        try groff.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        groff.waitUntilExit()
        #expect(groff.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
        let sessions = try NavlogRun("help", "sessions").stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(text.contains(sessions), "the page holds the help's usage line as the help prints it")
    }
}
