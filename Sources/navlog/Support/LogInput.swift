import Dispatch
import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The log a reading command reads, given its PATH argument.
///
/// The libraries read a log where it lies, and some commands read it more than once (the snapshot
/// index, a report's replays, a restore reading backwards). So what can be read only once —
/// standard input (`-`), a pipe or a FIFO, also when named as `/dev/stdin` — is first copied,
/// streamed through a fixed buffer, into a private temporary directory (mode 0700, the copy 0600),
/// and read there: every reading command answers for `cat log.jsonl | navlog X -` as for
/// `navlog X log.jsonl`. The directory, with any index built beside the copy, is removed when the
/// command ends. Messages name PATH (`stdin` for `-`), not the copy.
///
/// A line's bytes past the reader's block size are never looked at (such a line is only measured),
/// so the copy leaves them as a hole: a stream without newlines takes no disk.
///
/// A FIFO with no writer yet is waited for, as `cat` waits, and after a second the wait is said
/// on standard error. A device (a terminal, /dev/zero) or a socket cannot be a log and is refused
/// with exit 66.
final class LogInput {
    /// What the libraries read.
    let path: String
    /// What messages name.
    let shown: String
    private let copyDirectory: String?
    /// The copy's removal should navlog end before this is released.
    private var removal: RemovalOnExit.Token?

    /// The bytes of a line copied; the rest of a longer one becomes a hole. The reader's default
    /// block: no reading looks at more of a line.
    static let keptLineBytes = 4 << 20

    /// The input named `argument`.
    ///
    /// - Throws: `noInput` for a device or a socket; `io` when the copy fails.
    init(_ argument: String) throws {
        shown = argument == "-" ? "stdin" : argument
        var fd: Int32 = 0
        if argument != "-" {
            var info = stat()
            guard stat(argument, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR else {
                // A file or a directory is read where it lies; what is missing the libraries report.
                path = argument
                copyDirectory = nil
                return
            }
            guard info.st_mode & S_IFMT == S_IFIFO else { throw Self.refusal(info.st_mode, shown) }
            fd = try Self.openWaiting(argument)
        }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.error("cannot stat", shown) }
        guard [S_IFIFO, S_IFREG].contains(info.st_mode & S_IFMT) else { throw Self.refusal(info.st_mode, shown) }
        guard let (directory, armed) = Self.armedPrivateDirectory(for: ["log.jsonl", "log.jsonl.navidx", "log.jsonl.navidx.tmp.\(getpid())"]) else {
            throw Self.error("cannot create a temporary directory for the copy", shown)
        }
        copyDirectory = directory
        path = directory + "/log.jsonl"
        removal = armed
        do {
            try InputCopy.copy(from: fd, to: path, shown: shown, keptLineBytes: Self.keptLineBytes)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            RemovalOnExit.disarm(removal!)
            throw error
        }
        Self.copies.withLock { $0[directory + "/"] = shown }
    }

    deinit {
        guard let copyDirectory else { return }
        try? FileManager.default.removeItem(atPath: copyDirectory)
        if let removal { RemovalOnExit.disarm(removal) }
        Self.copies.withLock { $0[copyDirectory + "/"] = nil }
    }

    /// The name to show for `file`: the PATH a copy was made of for the copy, or the file.
    static func shown(_ file: String) -> String {
        copies.withLock { copies in copies.first { file.hasPrefix($0.key) }?.value } ?? file
    }

    private static let copies = Locked<[String: String]>([:])

    /// Opens the FIFO `path` for reading, waiting for a writer; says so after a second of waiting.
    static func openWaiting(_ path: String) throws -> Int32 {
        let opened = Locked(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            opened.withLock { done in
                if !done { Diagnostics.note("waiting for a writer to open this FIFO (navlog reads a FIFO to its end, as cat does)", at: path) }
            }
        }
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        opened.withLock { $0 = true }
        guard fd >= 0 else { throw error("cannot open", path) }
        return fd
    }

    /// A new private directory (mode 0700) in the temporary directory, with a random name, armed
    /// for removal with the `files` navlog puts in it before it exists: a signal between its
    /// making and its arming would leave it behind (`InputSafetyCLITests`).
    static func armedPrivateDirectory(for files: [String]) -> (String, RemovalOnExit.Token)? {
        for _ in 0..<16 {
            let directory = NSTemporaryDirectory() + "/navlog-input." + String(UInt64.random(in: 1...UInt64.max), radix: 36)
            let removal = RemovalOnExit.arm(files.map { directory + "/" + $0 } + [directory])
            if mkdir(directory, 0o700) == 0 { return (directory, removal) }
            let failure = errno
            RemovalOnExit.disarm(removal)
            guard failure == EEXIST else { return nil }
        }
        return nil
    }

    private static func refusal(_ mode: mode_t, _ shown: String) -> NavigationHistoryError {
        let kind = switch mode & S_IFMT {
        case S_IFCHR: "a character device (such as a terminal or /dev/zero)"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file, a pipe or a directory"
        }
        return NavigationHistoryError(code: .noInput, message: "it is \(kind), not a log: give a log directory, a .jsonl file, a pipe or a FIFO", path: shown)
    }

    static func error(_ what: String, _ path: String, _ code: Int32 = errno) -> NavigationHistoryError {
        NavigationHistoryError(code: .io, message: "\(what): \(String(cString: strerror(code)))", path: path, errno: code)
    }
}
