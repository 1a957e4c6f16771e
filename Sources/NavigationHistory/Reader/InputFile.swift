import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened read-only, closed when released.
final class InputFile {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw NavigationHistoryError(code: code == ENOENT ? .noInput : .io,
                                         message: "cannot open: \(String(cString: strerror(code)))", path: path, errno: code)
        }
    }

    deinit { close(fd) }

    /// Moves the read position to `offset` bytes from the start.
    func seek(to offset: Int) throws {
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else {
            let code = errno
            throw NavigationHistoryError(code: .io, message: "seek failed: \(String(cString: strerror(code)))", path: path, errno: code)
        }
    }

    /// The file's size in bytes now.
    func size() -> Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Reads into `buffer[from...]` until it is full or the file ends; returns the bytes now in it.
    func fill(_ buffer: UnsafeMutableRawBufferPointer, from: Int) throws -> Int {
        var filled = from
        while filled < buffer.count {
            let n = Foundation.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw NavigationHistoryError(code: .io, message: "read failed: \(String(cString: strerror(code)))", path: path, errno: code)
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}
