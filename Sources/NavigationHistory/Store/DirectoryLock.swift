import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The single-writer lock of a log directory: an advisory `flock` on its `LOCK` file, which holds
/// the writer's pid so a refused writer can name the holder. Released when this is released or the
/// process ends, however it ends.
///
/// `flock` locks belong to an open file, so a second instance in the same process is refused too.
final class DirectoryLock {
    /// The name of the lock file in a log directory.
    static let fileName = "LOCK"

    private let fd: Int32

    /// Takes the lock of `directory`, without waiting.
    ///
    /// - Throws: ``NavigationHistoryError/Code/locked`` naming the holder's pid when another writer
    ///   has it; `io` when the lock file cannot be opened.
    init(directory: String) throws {
        let path = directory + "/" + Self.fileName
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystem.error("cannot open the lock file", path) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            defer { close(fd) }
            guard code == EWOULDBLOCK else { throw FileSystem.error("cannot lock", path, code) }
            let holder = Self.holder(of: path).map { "process \($0)" } ?? "another process"
            throw NavigationHistoryError(code: .locked,
                                         message: "the log is being written by \(holder); a log has one writer at a time",
                                         path: directory, errno: code)
        }
        var pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, &pid, pid.count, 0)
    }

    deinit {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }

    /// The pid written in a lock file, if it holds one.
    static func holder(of path: String) -> Int32? {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
