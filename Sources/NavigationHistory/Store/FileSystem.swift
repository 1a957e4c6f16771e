import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the store writes: appends, durable syncs, truncation. Closed when released.
package final class WritableFile {
    let path: String
    private let fd: Int32

    /// Opens `path` for appending, creating it with mode 0600 when `create` is true.
    ///
    /// - Throws: `io` when it cannot be opened; `noInput` when it is a symbolic link, a FIFO or
    ///   anything else than a regular file with one link, which the store never writes through.
    package init(path: String, create: Bool = false) throws {
        self.path = path
        fd = try FileSystem.openRegular(path, O_WRONLY | O_APPEND | (create ? O_CREAT | O_EXCL : 0), "cannot open for writing")
    }

    deinit { close(fd) }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try FileSystem.write(bytes, to: fd, path: path)
    }

    /// Writes all of `bytes`.
    package func write(_ bytes: [UInt8]) throws {
        try FileSystem.write(bytes, to: fd, path: path)
    }

    /// Makes everything written so far durable: `fdatasync` on Linux, `F_FULLFSYNC` on Apple
    /// platforms, where a plain `fsync` leaves the data in the drive's cache.
    func sync() throws {
        try FileSystem.sync(fd, path)
    }

    /// The file's size in bytes now.
    func size() throws -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystem.error("cannot stat", path) }
        return Int(info.st_size)
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws {
        guard ftruncate(fd, off_t(length)) == 0 else { throw FileSystem.error("cannot truncate", path) }
    }
}

/// The file-system steps of the store, each failing with a ``NavigationHistoryError`` that names
/// the file and the operating system's reason.
package enum FileSystem {
    /// The error of a failed file-system step: what failed, on which file, and the reason.
    package static func error(_ what: String, _ path: String, _ code: Int32 = errno) -> NavigationHistoryError {
        NavigationHistoryError(code: code == ENOENT ? .noInput : .io,
                               message: "\(what): \(String(cString: strerror(code)))", path: path, errno: code)
    }

    /// Opens `path` as a regular file: never through a symbolic link at its end, never waiting for
    /// a FIFO's other end, closed on exec. A file opened for writing must have one link: through a
    /// hard link, the store would write into a file outside the log. A file it creates (`O_CREAT`)
    /// gets mode 0600 whatever the umask. Checked on the opened descriptor, so nothing can be
    /// swapped in between.
    ///
    /// - Throws: `noInput` when `path` does not exist, is a symbolic link (`ELOOP`), or is not a
    ///   regular file (a directory, a FIFO, a device, a socket) or has several links; `io` otherwise.
    static func openRegular(_ path: String, _ flags: Int32, _ what: String) throws -> Int32 {
        // A device is refused before it is opened: opening one may act (a tape rewinds, a watchdog
        // arms). What is opened is checked again below, as it may have been swapped in between.
        var seen = stat()
        if lstat(path, &seen) == 0, seen.st_mode & S_IFMT != S_IFLNK, let kind = kind(of: seen.st_mode) {
            throw NavigationHistoryError(code: .noInput, message: "\(what): it is \(kind), not a regular file", path: path)
        }
        let fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP || code == EMLINK, isSymbolicLink(path) {
                throw NavigationHistoryError(code: .noInput,
                                             message: "\(what): it is a symbolic link, and the files of a log are never opened through one",
                                             path: path, errno: code)
            }
            throw error(what, path, code)
        }
        do {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw error(what, path) }
            if let kind = kind(of: info.st_mode) {
                throw NavigationHistoryError(code: .noInput, message: "\(what): it is \(kind), not a regular file", path: path)
            }
            let writes = flags & (O_WRONLY | O_RDWR) != 0
            if writes && info.st_nlink > 1 {
                throw NavigationHistoryError(code: .noInput,
                                             message: "\(what): it has \(info.st_nlink) hard links, and writing to it would change the other files too",
                                             path: path)
            }
            if flags & O_CREAT != 0, fchmod(fd, 0o600) != 0 { throw error("cannot set the mode of", path) }
            // Reading a regular file never waits, so O_NONBLOCK only mattered for opening.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// What a file of mode `mode` is, when it is not a regular file: "a directory", "a FIFO", ...
    static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (a named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }

    /// Whether `path` itself is a symbolic link.
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    static func sync(_ fd: Int32, _ path: String) throws {
        while true {
            #if canImport(Darwin)
            // F_FULLFSYNC flushes the drive's cache too. Only where the file system does not support
            // it is a plain fsync the best there is; any other failure is a failure.
            if fcntl(fd, F_FULLFSYNC) == 0 { return }
            if errno == ENOTSUP || errno == EINVAL || errno == ENOTTY {
                if fsync(fd) == 0 { return }
            }
            #else
            if fdatasync(fd) == 0 { return }
            #endif
            if errno != EINTR { throw error("sync failed", path) }
        }
    }

    /// A descriptor of the directory `path`, which keeps its inode from being reused while it is
    /// open, even once the directory is removed; nil when nothing is at the path.
    static func openDirectory(_ path: String) throws -> Int32? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { return fd }
        if errno == ENOENT { return nil }
        throw error("cannot open the log directory", path)
    }

    /// Makes the directory's entries (created, renamed or removed files) durable.
    package static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw error("cannot open the directory", path) }
        defer { close(fd) }
        #if canImport(Darwin)
        try sync(fd, path)
        #else
        while fsync(fd) != 0 {
            if errno != EINTR { throw error("cannot sync the directory", path) }
        }
        #endif
    }

    /// Writes `bytes` to a new file (mode 0600) and, unless told otherwise, makes it durable.
    package static func writeNewFile(_ path: String, _ bytes: [UInt8], sync: Bool = true) throws {
        let file = try WritableFile(path: path, create: true)
        try bytes.withUnsafeBytes { try file.write($0) }
        if sync { try file.sync() }
    }

    /// A step of ``replace(_:with:durably:after:)``, reported once it is done.
    package enum ReplaceStep: Sendable {
        case temporaryWritten, renamed, directorySynced
    }

    /// Replaces `path` with a file of `bytes` as the store writes every file: a temporary file
    /// beside it, synced, renamed over it, and the directory synced; without `durably`, nothing is
    /// synced (for a derived file, rebuilt when lost). `step` is called after each step, so tests
    /// can stop there as a crash would (nothing is called when it is nil).
    package static func replace(_ path: String, with bytes: [UInt8], durably: Bool = true,
                                after step: ((ReplaceStep) throws -> Void)? = nil) throws {
        let temporary = path + Opening.temporarySuffix
        try remove(temporary)
        try writeNewFile(temporary, bytes, sync: durably)
        try step?(.temporaryWritten)
        try rename(temporary, path)
        try step?(.renamed)
        guard durably else { return }
        try syncDirectory(parent(of: path))
        try step?(.directorySynced)
    }

    package static func rename(_ from: String, _ to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw error("cannot rename to \(to)", from) }
    }

    package static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw error("cannot remove", path) }
    }

    /// Creates the log directory `path`, and the directories above it that are missing, each with
    /// mode 0700 whatever the umask; nothing when it is a directory already.
    ///
    /// - Throws: `io` when a file is in the way or a directory cannot be created.
    package static func createDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw NavigationHistoryError(code: .io, message: "not a log directory: \(kind(of: info.st_mode) ?? "a file") is in the way", path: path)
            }
            return
        }
        let above = parent(of: path)
        if above != path { try createDirectory(above) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw error("cannot create the log directory", path)
        }
        // mkdir's mode went through the umask; 0700 is what the log's privacy and the store need.
        guard chmod(path, 0o700) == 0 else { throw error("cannot set the mode of the log directory", path) }
        // The new directory's entry must be durable before any event in it is.
        try syncDirectory(above)
    }

    /// The directory holding `path` (`.` for a bare name).
    package static func parent(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The names in a directory.
    package static func list(_ path: String) throws -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw NavigationHistoryError(code: .io, message: "cannot list the log directory: \(error.localizedDescription)", path: path)
        }
    }

    /// A file's size and modification time, or nil when it is gone; of a symbolic link itself, not
    /// of what it points to.
    package static func status(_ path: String) -> (size: Int, modified: Timestamp)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let seconds = Int64(info.st_mtimespec.tv_sec), nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        let seconds = Int64(info.st_mtim.tv_sec), nanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        return (Int(info.st_size), Timestamp(millisecondsSince1970: seconds * 1000 + nanoseconds / 1_000_000))
    }

    /// Reads up to `count` bytes of the regular file `path` from `offset`.
    static func read(_ path: String, from offset: Int, count: Int) throws -> [UInt8] {
        let fd = try openRegular(path, O_RDONLY, "cannot open")
        defer { close(fd) }
        return try read(fd, path, from: offset, count: count)
    }

    /// Reads up to `buffer.count` bytes of the regular file `path` from `offset` into `buffer`;
    /// returns how many it read (fewer at the file's end).
    static func read(_ path: String, from offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let fd = try openRegular(path, O_RDONLY, "cannot open")
        defer { close(fd) }
        return try read(fd, path, from: offset, into: buffer)
    }

    /// Reads up to `buffer.count` bytes of the open file `fd` from `offset` into `buffer`; returns
    /// how many it read (fewer at the file's end).
    static func read(_ fd: Int32, _ path: String, from offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset + filled))
            if n < 0 {
                if errno == EINTR { continue }
                throw error("read failed", path)
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Reads up to `count` bytes of the open file `fd` from `offset`.
    static func read(_ fd: Int32, _ path: String, from offset: Int, count: Int) throws -> [UInt8] {
        // Not zeroed first: the bytes read are all the array holds (a twentieth of reading a
        // shipment's segment, `NavlogBench redact`).
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = try read(fd, path, from: offset, into: UnsafeMutableRawBufferPointer(buffer))
        }
    }

    /// The whole of the regular file `path`, or nil when it holds more than `limit` bytes.
    package static func contents(_ path: String, atMost limit: Int) throws -> [UInt8]? {
        let fd = try openRegular(path, O_RDONLY, "cannot open")
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error("cannot stat", path) }
        guard Int(info.st_size) <= limit else { return nil }
        return try read(fd, path, from: 0, count: Int(info.st_size))
    }
}
