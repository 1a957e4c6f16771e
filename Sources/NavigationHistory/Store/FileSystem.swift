import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the store writes: appends, durable syncs, truncation. Closed when released.
final class WritableFile {
    let path: String
    private let fd: Int32

    /// Opens `path` for appending, creating it with mode 0600 when `create` is true.
    init(path: String, create: Bool = false) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0), 0o600)
        guard fd >= 0 else { throw FileSystem.error("cannot open for writing", path) }
    }

    deinit { close(fd) }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystem.error("write failed", path)
            }
            done += n
        }
    }

    /// Makes everything written so far durable: `fdatasync` on Linux, `F_FULLFSYNC` on Apple
    /// platforms, where a plain `fsync` leaves the data in the drive's cache.
    func sync() throws {
        try FileSystem.sync(fd, path)
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws {
        guard ftruncate(fd, off_t(length)) == 0 else { throw FileSystem.error("cannot truncate", path) }
    }
}

/// The file-system steps of the store, each failing with a ``NavigationHistoryError`` that names
/// the file and the operating system's reason.
enum FileSystem {
    static func error(_ what: String, _ path: String, _ code: Int32 = errno) -> NavigationHistoryError {
        NavigationHistoryError(code: code == ENOENT ? .noInput : .io,
                               message: "\(what): \(String(cString: strerror(code)))", path: path, errno: code)
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

    /// Makes the directory's entries (created, renamed or removed files) durable.
    static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
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
    static func writeNewFile(_ path: String, _ bytes: [UInt8], sync: Bool = true) throws {
        let file = try WritableFile(path: path, create: true)
        try bytes.withUnsafeBytes { try file.write($0) }
        if sync { try file.sync() }
    }

    static func rename(_ from: String, _ to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw error("cannot rename to \(to)", from) }
    }

    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw error("cannot remove", path) }
    }

    static func createDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw NavigationHistoryError(code: .io, message: "not a log directory: a file is in the way", path: path)
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw NavigationHistoryError(code: .io, message: "cannot create the log directory: \(error.localizedDescription)", path: path)
        }
        // The new directory's entry must be durable before any event in it is.
        try syncDirectory(parent(of: path))
    }

    /// The directory holding `path` (`.` for a bare name).
    static func parent(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The names in a directory.
    static func list(_ path: String) throws -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw NavigationHistoryError(code: .io, message: "cannot list the log directory: \(error.localizedDescription)", path: path)
        }
    }

    /// A file's size and modification time, or nil when it is gone.
    static func status(_ path: String) -> (size: Int, modified: Timestamp)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let seconds = Int64(info.st_mtimespec.tv_sec), nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        let seconds = Int64(info.st_mtim.tv_sec), nanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        return (Int(info.st_size), Timestamp(millisecondsSince1970: seconds * 1000 + nanoseconds / 1_000_000))
    }

    /// Reads up to `count` bytes of `path` from `offset`.
    static func read(_ path: String, from offset: Int, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw error("cannot open", path) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw error("read failed", path)
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Reads the bytes of `path` from `offset` to its end.
    static func readTail(_ path: String, from offset: Int) throws -> [UInt8] {
        guard let size = status(path)?.size else { throw error("cannot stat", path) }
        return try read(path, from: offset, count: max(0, size - offset))
    }
}
