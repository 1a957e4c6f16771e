import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a subcommand's `-o PATH` writes, written as what PATH names allows:
///
/// - `-`: standard output, written straight.
/// - A character device or a FIFO, also through a symbolic link (`/dev/null`, `/dev/stdout`, a
///   named pipe): written straight, never replaced, its mode untouched.
/// - A regular file, or nothing yet: written to a new temporary file beside it (mode 0600), given
///   its mode with `fchmod`, whatever the umask, and renamed over PATH once everything is written
///   and synced. Until then PATH is as it was; on any failure the temporary file is removed, and a
///   signal that ends the process (SIGINT, SIGTERM, SIGHUP) removes it too.
/// - A symbolic link to a regular file: that file is replaced the same way, the temporary file in
///   its directory; the link stays a link.
/// - A directory, a block device, a socket or a link to nothing: refused.
final class OutputFile {
    /// The path as given, for messages.
    let path: String
    /// Whether the output is a terminal, a pipe or a device rather than a file that is replaced.
    let isStream: Bool
    /// Whether the output is a terminal.
    var isTerminal: Bool { isStream && isatty(fd) == 1 }
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// The temporary file and the file it replaces, until the rename, and its removal at exit.
    private var replacement: (temporary: String, target: String, removal: RemovalOnExit.Token)?

    /// Opens the output named by `path`.
    ///
    /// - Parameters:
    ///   - mode: the permissions of a file written anew (0600 unless the user asked otherwise).
    ///   - modeGiven: whether the user chose `mode`; it applies only to a file that is written anew.
    ///   - replacing: whether a regular file that is not empty may be replaced.
    /// - Throws: ``UsageError`` for a mode given to a stream and for a file not to be replaced;
    ///   ``NavigationHistoryError`` (code `io`) for what cannot be written.
    init(_ path: String, mode: mode_t = 0o600, modeGiven: Bool = false, replacing: Bool = true) throws {
        self.path = path
        guard !path.isEmpty else { throw UsageError("-o needs a path, or - for standard output") }
        if let descriptor = Self.descriptor(named: path) {
            guard !modeGiven else { throw UsageError("--file-mode applies to a file navlog writes, not to standard output") }
            guard fcntl(descriptor, F_GETFD) != -1 else { throw Self.error("is not open", path) }
            fd = descriptor
            isStream = true
            return
        }
        var link = stat(), info = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT else { throw Self.error("cannot examine the output", path) }
            (fd, replacement) = try Self.temporary(replacing: path, mode: mode)
            isStream = false
            return
        }
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw Self.error("cannot follow the symbolic link", path) }
            throw NavigationHistoryError(code: .io, message: "is a symbolic link to nothing (\(Self.linkTarget(path) ?? "?")); give the file to write",
                                         path: path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFCHR, S_IFIFO:
            guard !modeGiven else { throw UsageError("--file-mode applies to a file navlog writes, not to the device or pipe \(path)") }
            fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { throw Self.error("cannot open the output", path) }
            // What was examined may have been swapped for a file since: never write into one in place.
            var opened = stat()
            guard fstat(fd, &opened) == 0, opened.st_mode & S_IFMT == S_IFCHR || opened.st_mode & S_IFMT == S_IFIFO else {
                close(fd)
                throw NavigationHistoryError(code: .io, message: "changed while it was being opened", path: path)
            }
            isStream = true
        case S_IFREG:
            guard replacing || info.st_size == 0 else { throw UsageError("\(path) exists and is not empty; give --force to replace it") }
            var target = path
            if link.st_mode & S_IFMT == S_IFLNK {
                guard let resolved = realpath(path, nil) else { throw Self.error("cannot follow the symbolic link", path) }
                target = String(cString: resolved)
                free(resolved)
            }
            (fd, replacement) = try Self.temporary(replacing: target, mode: mode)
            isStream = false
        case S_IFDIR:
            throw NavigationHistoryError(code: .io, message: "is a directory; -o takes a file", path: path)
        default:
            throw NavigationHistoryError(code: .io, message: "is neither a file, a character device nor a FIFO; navlog does not write there", path: path)
        }
    }

    /// Whether `path` names an output written straight: standard output (`-`), an open descriptor,
    /// or a character device or FIFO, also through a symbolic link.
    static func isStream(_ path: String) -> Bool {
        var info = stat()
        return descriptor(named: path) != nil
            || stat(path, &info) == 0 && (info.st_mode & S_IFMT == S_IFCHR || info.st_mode & S_IFMT == S_IFIFO)
    }

    /// The descriptor `path` names — `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
    /// `/proc/self/fd/N` — which is written as it is: through the link such a name is, the file
    /// it leads to would be replaced, not appended to as `>>` asked.
    static func descriptor(named path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count)).flatMap { $0 >= 0 ? $0 : nil }
            }
            return nil
        }
    }

    deinit {
        guard let replacement else { return }
        close(fd)
        unlink(replacement.temporary)
        RemovalOnExit.disarm(replacement.removal)
    }

    /// Appends `bytes` to the output (buffered; written by the mebibyte).
    func write(_ bytes: [UInt8]) throws {
        buffer += bytes
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Appends `text` and a newline.
    func line(_ text: String) throws {
        buffer += text.utf8
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes out what is buffered, then, for a file, syncs it, closes it and renames it over its
    /// target: only now does the target change.
    func commit() throws {
        try flush()
        guard let replacement else { return }
        if fsync(fd) != 0 { throw Self.error("cannot sync the output", path) }
        let closed = close(fd)
        fd = -1
        guard closed == 0 else { throw Self.error("cannot write the output", path) }
        guard rename(replacement.temporary, replacement.target) == 0 else { throw Self.error("cannot replace the output", path) }
        self.replacement = nil
        RemovalOnExit.disarm(replacement.removal)
    }

    private func flush() throws {
        try FileSystem.write(buffer, to: fd, path: path, failure: "cannot write the output")
        buffer.removeAll(keepingCapacity: true)
    }

    /// A new temporary file beside `target`, with mode `mode`, the pair it is renamed between, and
    /// its removal should navlog end before the rename.
    private static func temporary(replacing target: String, mode: mode_t)
        throws -> (Int32, (temporary: String, target: String, removal: RemovalOnExit.Token)) {
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        for _ in 0..<8 {
            let temporary = directory + "." + name + ".tmp-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
            let removal = RemovalOnExit.arm([temporary])
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0 {
                RemovalOnExit.disarm(removal)
                if errno == EEXIST { continue }
                throw error("cannot create a file in \(directory.isEmpty ? "." : directory)", target)
            }
            guard fchmod(fd, mode) == 0 else {
                let code = errno
                close(fd)
                unlink(temporary)
                RemovalOnExit.disarm(removal)
                throw error("cannot set the output's mode", target, code)
            }
            return (fd, (temporary, target, removal))
        }
        throw NavigationHistoryError(code: .io, message: "cannot find a free temporary name beside it", path: target)
    }

    private static func linkTarget(_ path: String) -> String? {
        var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &bytes, bytes.count - 1)
        return n < 0 ? nil : String(decoding: bytes[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func error(_ what: String, _ path: String, _ code: Int32 = errno) -> NavigationHistoryError {
        NavigationHistoryError(code: .io, message: "\(what): \(String(cString: strerror(code)))", path: path, errno: code)
    }
}
