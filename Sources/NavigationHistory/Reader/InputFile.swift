import CNavigationHistory
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened read-only, closed when released: never through a symbolic link at its
/// end, and never a FIFO, device or socket (see ``FileSystem/openRegular(_:_:_:)``).
final class InputFile {
    let path: String
    private let fd: Int32

    /// Opens `path`.
    ///
    /// - Throws: `noInput` when it does not exist, is a symbolic link or is not a regular file;
    ///   `io` when it cannot be opened.
    init(path: String) throws {
        self.path = path
        fd = try FileSystem.openRegular(path, O_RDONLY, "cannot open")
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

    /// Maps `length` (at least 1) bytes from `offset` (a multiple of ``pageSize``) read-only,
    /// guarded against the file shrinking meanwhile.
    ///
    /// - Throws: `io` when the file cannot be mapped, such as a pipe.
    func map(offset: Int, length: Int) throws -> MappedBytes {
        var slot: Int32 = 0
        guard let address = navigation_history_map_guarded(fd, Int64(offset), length, &slot) else {
            let code = errno
            throw NavigationHistoryError(code: .io, message: "cannot map: \(String(cString: strerror(code)))", path: path, errno: code)
        }
        return MappedBytes(bytes: UnsafeRawBufferPointer(start: address, count: length), fileOffset: offset, slot: slot)
    }

    /// The size of a memory page.
    static let pageSize = navigation_history_page_size()
}

/// Bytes of a file mapped into memory by ``InputFile/map(offset:length:)``, until unmapped.
struct MappedBytes {
    /// The mapped bytes.
    let bytes: UnsafeRawBufferPointer
    /// Where in the file they begin.
    let fileOffset: Int
    fileprivate let slot: Int32

    /// Stops guarding the bytes, which nothing may read after; returns whether the file shrank
    /// under them, so that reads past its new end saw zeros.
    func unguard() -> Bool {
        navigation_history_unguard(slot) != 0
    }

    /// Unmaps the bytes, once unguarded; on any thread.
    func unmap() {
        navigation_history_unmap_unguarded(bytes.baseAddress, bytes.count, slot)
    }
}
