import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The single-writer lock of a log directory: an advisory `flock` on its `LOCK` file, which holds
/// the writer's pid. Released when this is released or the process ends, however it ends.
///
/// `flock` locks belong to an open file, so a second instance in the same process is refused too.
///
/// The pid in `LOCK` is only what the last writer wrote: a process that died leaves it, and
/// anything can take the lock without writing one. So a refused writer names the holder the kernel
/// knows, where it tells (`/proc/locks` on Linux), and otherwise the pid in `LOCK` as what it is:
/// a pid that may be stale.
///
/// `LOCK` is opened as a regular file only, never through a symbolic link and never with other
/// hard links (see ``FileSystem/openRegular(_:_:_:)``): writing the pid must not overwrite a file
/// outside the log.
package final class DirectoryLock {
    /// The name of the lock file in a log directory.
    package static let fileName = "LOCK"

    private let fd: Int32

    /// Takes the lock of `directory`, without waiting: in its file `fileName` (by default `LOCK`);
    /// a refusal names the holder, then says `rule`.
    ///
    /// - Throws: ``NavigationHistoryError/Code/locked`` naming the holder when another writer has
    ///   it; `noInput` when `LOCK` is a symbolic link or not a regular file; `io` when it cannot be
    ///   opened.
    package init(directory: String, fileName: String = DirectoryLock.fileName, rule: String = "a log has one writer at a time") throws {
        let path = directory + "/" + fileName
        do {
            fd = try FileSystem.openRegular(path, O_RDWR | O_CREAT | O_EXCL, "cannot create the lock file")
        } catch let error as NavigationHistoryError where error.errno == EEXIST {
            fd = try FileSystem.openRegular(path, O_RDWR, "cannot open the lock file")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            defer { close(fd) }
            guard code == EWOULDBLOCK else { throw FileSystem.error("cannot lock", path, code) }
            throw NavigationHistoryError(code: .locked, message: "\(Self.holder(of: fd, fileName: fileName)); \(rule)",
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

    /// Who holds the lock on the open lock file `fd`, as truthfully as can be told.
    static func holder(of fd: Int32, fileName: String = DirectoryLock.fileName) -> String {
        if let pid = kernelHolder(of: fd) { return "the log is being written by process \(pid)" }
        guard let written = writtenPID(fd, fileName) else { return "the log is being written by another process" }
        if kill(written, 0) != 0 && errno == ESRCH {
            return "the log is locked by another process, not by process \(written) that \(fileName) names (no such process runs: \(fileName) is stale)"
        }
        return "the log is being written by another process (process \(written) according to \(fileName), which may be stale)"
    }

    /// The pid written in the lock file, if it holds one.
    private static func writtenPID(_ fd: Int32, _ fileName: String) -> Int32? {
        guard let bytes = try? FileSystem.read(fd, fileName, from: 0, count: 32),
              let pid = Int32(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { return nil }
        return pid
    }

    /// The pid of the process holding a `flock` lock on the file of `fd`, from the kernel's list of
    /// locks; nil where there is none to read or it does not say.
    private static func kernelHolder(of fd: Int32) -> Int32? {
        #if os(Linux)
        var info = stat()
        guard fstat(fd, &info) == 0, let list = fopen("/proc/locks", "r") else { return nil }
        defer { fclose(list) }
        let dev = UInt64(info.st_dev)
        // glibc's encoding of a device number, as major() and minor() decode it.
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
        let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        // Lines read `1: FLOCK  ADVISORY  WRITE 6710 fe:00:16222382 0 EOF`: the pid, then
        // major:minor:inode, the device numbers in hex. A waiter's line has `->` before FLOCK.
        while getline(&line, &capacity, list) > 0, let line {
            let fields = String(cString: line).split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let id = fields[5].split(separator: ":")
            guard id.count == 3, UInt64(id[0], radix: 16) == major, UInt64(id[1], radix: 16) == minor,
                  UInt64(id[2]) == UInt64(info.st_ino), let pid = Int32(fields[4]), pid > 0 else { continue }
            return pid
        }
        #endif
        return nil
    }
}
