import Foundation
import NavigationHistory

/// Why navlog ends short of success: the exit status, and the diagnostics that say why (none
/// when the output said it, as `verify` does of the defects it found).
///
/// Subcommands throw; only ``Navlog/main()`` prints the diagnostics and exits.
struct Failure: Error {
    /// The exit status, one of ``ExitCode``'s.
    var status: Int32
    /// The lines for standard error, which ``Diagnostics`` writes each as `navlog SUBCOMMAND:
    /// error: PLACE: message`.
    var diagnostics: [Diagnostic]

    init(status: Int32, diagnostics: [Diagnostic] = []) {
        self.status = status
        self.diagnostics = diagnostics
    }

    /// `error` as a failure of `subcommand` (nil before one was named): a usage error says how to
    /// get help, a library error names its file and line, anything else is an I/O error.
    init(_ error: any Error, subcommand: String?) {
        switch error {
        case let failure as Failure:
            self = failure
        case let usage as UsageError:
            let help = subcommand.map { "navlog help \($0)" } ?? "navlog help"
            let hint = (usage.hint ?? "`navlog help SUBCOMMAND` shows the usage").replacingOccurrences(of: "navlog help SUBCOMMAND", with: help)
            self.init(status: ExitCode.usage, diagnostics: [.error(usage.message + " (\(hint))")])
        case let error as NavigationHistoryError:
            let place = if let defect = error.defect {
                "\(LogInput.shown(defect.file)):\(defect.line)"
            } else {
                error.path.map(LogInput.shown)
            }
            self.init(status: ExitCode.of(error), diagnostics: [.error(error.message, at: place)])
        default:
            self.init(status: ExitCode.ioError, diagnostics: [.error("\(error)")])
        }
    }
}

/// The exit codes of navlog (sysexits.h where one fits).
enum ExitCode {
    static let success: Int32 = 0
    static let problemsFound: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let ioError: Int32 = 74
    static let temporaryFailure: Int32 = 75

    /// The status of a library error: by its code.
    static func of(_ error: NavigationHistoryError) -> Int32 {
        switch error.code {
        case .noInput: noInput
        case .io, .readOnly: ioError
        case .locked: temporaryFailure
        default: dataError
        }
    }
}
