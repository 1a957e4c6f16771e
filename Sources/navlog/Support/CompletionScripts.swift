import Foundation

/// The shell completion scripts of `navlog completion`, each written from the table the parser
/// takes its options from (``Navlog/subcommands``, each one's ``Subcommand/options`` and
/// ``Subcommand/operands``), so that a completion offers exactly what navlog accepts.
@MainActor enum CompletionScripts {
    /// The shells there is a script for.
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    /// The script for `shell`.
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// The words that may come first: every subcommand, then `--help` and `--version`.
    private static var firstWords: [String] { Navlog.subcommandNames + ["--help", "--version"] }

    /// The options of `command` with `--help`, which every subcommand takes.
    private static func options(of command: any Subcommand.Type) -> [CommandOption] {
        command.options + [.flag("--help")]
    }

    // MARK: bash

    private static func bash() -> String {
        var cases = ""
        for command in Navlog.subcommands {
            let values = options(of: command).compactMap { option -> String? in
                switch option.value {
                case .none: nil
                case .text: "        \(option.name)) return ;;"
                case .choice(let words): "        \(option.name)) COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\")); return ;;"
                case .file: "        \(option.name)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"
                case .directory: "        \(option.name)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;"
                }
            }
            let operands = switch command.operands {
            case .paths: "COMPREPLY=($(compgen -f -- \"$cur\"))"
            case .none: "COMPREPLY=()"
            case .subcommand: "COMPREPLY=($(compgen -W '\(Navlog.subcommandNames.joined(separator: " "))' -- \"$cur\"))"
            case .shell: "COMPREPLY=($(compgen -W '\(Shell.allCases.map(\.rawValue).joined(separator: " "))' -- \"$cur\"))"
            }
            cases += """
                  \(command.name))
                    case "$prev" in
                \(values.isEmpty ? "        *) ;;" : values.joined(separator: "\n"))
                    esac
                    if [[ "$cur" == -* ]]; then
                      COMPREPLY=($(compgen -W '\(options(of: command).map(\.name).joined(separator: " "))' -- "$cur"))
                    else
                      \(operands)
                    fi
                    ;;

                """
        }
        return """
            # bash completion for navlog (navlog completion bash); source it, or put it in
            # ~/.local/share/bash-completion/completions/navlog
            _navlog() {
              local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
              if [[ $COMP_CWORD -eq 1 ]]; then
                COMPREPLY=($(compgen -W '\(firstWords.joined(separator: " "))' -- "$cur"))
                return
              fi
              case "${COMP_WORDS[1]}" in
            \(cases)  esac
            }
            complete -o filenames -o bashdefault -F _navlog navlog
            """
    }

    // MARK: zsh

    private static func zsh() -> String {
        let described = Navlog.subcommands.map { "    '\($0.name):\(zshQuoted($0.summary).replacingOccurrences(of: ":", with: "\\:"))'" }
        var cases = ""
        for command in Navlog.subcommands {
            var specs = options(of: command).map { option -> String in
                let action = switch option.value {
                case .none: ""
                case .text(let placeholder): ":\(placeholder): "
                case .choice(let words): ":\(option.placeholder ?? ""):(\(words.joined(separator: " ")))"
                case .file(let placeholder): ":\(placeholder):_files"
                case .directory(let placeholder): ":\(placeholder):_files -/"
                }
                return "'*\(option.name)\(action)'"
            }
            switch command.operands {
            case .paths: specs.append("'*:path:_files'")
            case .none: break
            case .subcommand: specs.append("':subcommand:(\(Navlog.subcommandNames.joined(separator: " ")))'")
            case .shell: specs.append("':shell:(\(Shell.allCases.map(\.rawValue).joined(separator: " ")))'")
            }
            cases += "    \(command.name))\n      _arguments \\\n        " + specs.joined(separator: " \\\n        ") + " ;;\n"
        }
        return """
            #compdef navlog
            # zsh completion for navlog (navlog completion zsh); save it as _navlog in a directory
            # of $fpath, or source it after compinit
            _navlog() {
              local -a subcommands
              subcommands=(
            \(described.joined(separator: "\n"))
              )
              if (( CURRENT == 2 )); then
                _describe -t subcommands 'navlog subcommand' subcommands
                _arguments '--help' '--version'
                return
              fi
              local subcommand=$words[2]
              shift words
              (( CURRENT-- ))
              case $subcommand in
            \(cases)  esac
            }
            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
              _navlog "$@"
            else
              compdef _navlog navlog
            fi
            """
    }

    /// `text` inside single quotes of zsh: each `'` closed, escaped and reopened.
    private static func zshQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''")
    }

    // MARK: fish

    private static func fish() -> String {
        var lines = [
            "# fish completion for navlog (navlog completion fish); save it as",
            "# ~/.config/fish/completions/navlog.fish",
            "complete -c navlog -f",
            "complete -c navlog -n __fish_use_subcommand -l help -d 'Show the list of subcommands'",
            "complete -c navlog -n __fish_use_subcommand -l version -d 'Print the version'",
        ]
        for command in Navlog.subcommands {
            lines.append("complete -c navlog -n __fish_use_subcommand -a \(command.name) -d '\(fishQuoted(command.summary))'")
            let seen = "complete -c navlog -n '__fish_seen_subcommand_from \(command.name)'"
            for option in options(of: command) {
                let name = option.name.hasPrefix("--") ? "-l \(option.name.dropFirst(2))" : "-s \(option.name.dropFirst())"
                let value = switch option.value {
                case .none: ""
                case .text: " -x"
                case .choice(let words): " -x -a '\(words.joined(separator: " "))'"
                case .file: " -r -F"
                case .directory: " -x -a '(__fish_complete_directories)'"
                }
                lines.append("\(seen) \(name)\(value)")
            }
            switch command.operands {
            case .paths: lines.append("\(seen) -F")
            case .none: break
            case .subcommand: lines.append("\(seen) -a '\(Navlog.subcommandNames.joined(separator: " "))'")
            case .shell: lines.append("\(seen) -a '\(Shell.allCases.map(\.rawValue).joined(separator: " "))'")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` inside single quotes of fish, where `\` and `'` are escaped.
    private static func fishQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}
