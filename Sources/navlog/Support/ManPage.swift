import Foundation

/// The man page of `navlog help --man`: roff written from the same texts `navlog help` prints
/// (``Navlog/overview``, each subcommand's ``Subcommand/summary`` and ``Subcommand/help``), so
/// that the two never differ.
@MainActor enum ManPage {
    /// The page, in roff for section 1.
    static func roff() -> String {
        var lines = [
            ".TH NAVLOG 1 \"\" \"navlog \(VersionCommand.navlog)\" \"User Commands\"",
            ".SH NAME",
            "navlog \\- \(escaped(Navlog.tagline))",
            ".SH SYNOPSIS",
            ".B navlog",
            ".I SUBCOMMAND",
            "[\\fIoptions\\fR] \\fIPATH\\fR...",
            ".br",
            ".B navlog help",
            "[\\fISUBCOMMAND\\fR]",
            ".br",
            ".B navlog --version",
            ".SH DESCRIPTION",
        ]
        lines += preformatted(Navlog.description)
        lines.append(".SH SUBCOMMANDS")
        for command in Navlog.subcommands {
            lines += [".SS \(escaped(command.name))", escaped(command.summary)]
            lines += preformatted(command.help)
        }
        lines += [
            ".SH ENVIRONMENT",
            ".TP",
            ".B NO_COLOR",
            "When set and not empty, the words error and warning on standard error are never coloured.",
            ".SH SEE ALSO",
            "The README of NavigationHistory; \\fBnavlog help\\fR \\fISUBCOMMAND\\fR.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `text` kept as it is written, line for line, in a block roff does not fill.
    private static func preformatted(_ text: String) -> [String] {
        [".PP", ".nf"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) } + [".fi"]
    }

    /// `text` as roff prints it: backslashes and hyphens escaped, characters beyond ASCII named
    /// (`\[u2192]`), which every troff reads, and a line that would begin with a control
    /// character (`.` or `'`) begun with `\&`.
    static func escaped(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": body += "\\e"
            case "-": body += "\\-"
            case _ where scalar.isASCII: body.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                body += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
