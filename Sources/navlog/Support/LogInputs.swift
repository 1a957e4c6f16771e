import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The logs a command that answers over many logs reads: every PATH given, a directory of logs
/// standing for each log in it.
///
/// A directory is one log when it holds a segment or a `LOCK`, or nothing; otherwise it is a
/// directory of logs — a QA team's folder of devices' logs — and stands for each `.jsonl` file
/// and each log directory in it, in the order of their names (hidden entries and symbolic links
/// left out: a folder of bug reports is untrusted input). Each log is a ``LogInput``: `-`, a pipe
/// or a FIFO is copied first, as for one log.
final class LogInputs {
    /// The logs, in the order given.
    let inputs: [LogInput]

    /// What a header names: the one log's PATH, or "N logs".
    var shown: String { inputs.count == 1 ? inputs[0].shown : "\(inputs.count) logs" }
    /// What the libraries read, in order.
    var paths: [String] { inputs.map(\.path) }
    /// Whether there are several logs.
    var isMany: Bool { inputs.count > 1 }

    /// The logs the positional arguments of `parsed` name.
    ///
    /// - Throws: A usage error without PATH; `noInput` for a directory of logs holding no log;
    ///   what ``LogInput/init(_:)`` throws.
    init(_ parsed: Arguments) throws {
        guard !parsed.positional.isEmpty else { throw UsageError("missing PATH") }
        inputs = try parsed.positional.flatMap { try Self.logs(in: $0) }.map { try LogInput($0) }
    }

    /// The logs `argument` stands for.
    static func logs(in argument: String) throws -> [String] {
        var info = stat()
        guard argument != "-", stat(argument, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
              !isLogDirectory(argument) else { return [argument] }
        let directory = argument.hasSuffix("/") ? argument : argument + "/"
        let logs = try FileSystem.list(argument).sorted().filter { !$0.hasPrefix(".") }.map { directory + $0 }.filter { path in
            var entry = stat()
            guard lstat(path, &entry) == 0 else { return false }
            switch entry.st_mode & S_IFMT {
            case S_IFREG: return path.hasSuffix(".jsonl")
            case S_IFDIR: return isLogDirectory(path, emptyIsLog: false)
            default: return false
            }
        }
        guard !logs.isEmpty else {
            throw NavigationHistoryError(code: .noInput,
                                         message: "not a log directory, nor a directory of logs: no segment (NNNNNNNN.jsonl), no LOCK, no .jsonl file and no log directory in it",
                                         path: argument)
        }
        return logs
    }

    /// Whether the directory `path` is a log: it holds a segment or a `LOCK`, or (`emptyIsLog`)
    /// nothing but files derived from a log (nothing at all, or an index) — as a PATH, not within
    /// a directory of logs.
    static func isLogDirectory(_ path: String, emptyIsLog: Bool = true) -> Bool {
        guard let names = try? FileSystem.list(path) else { return emptyIsLog }   // as a PATH, the reader says what is wrong
        return (emptyIsLog && names.allSatisfy(LogFiles.isDerivedName)) || names.contains { LogFiles.isSegmentName($0) || $0 == "LOCK" }
    }
}
