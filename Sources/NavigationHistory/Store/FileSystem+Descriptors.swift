import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing open descriptors, for the store and for navlog's own files (its outputs,
/// the copy of a piped log): the loops that retry interruptions and short writes, written once.
extension FileSystem {
    /// Writes all of `bytes` to `fd`, retrying short writes and interruptions.
    ///
    /// - Throws: ``NavigationHistoryError`` naming `path`, saying `failure` and the reason.
    package static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String, failure: String = "write failed") throws {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw error(failure, path)
            }
            done += n
        }
    }

    /// ``write(_:to:path:failure:)`` of an array's bytes.
    package static func write(_ bytes: some ContiguousBytes, to fd: Int32, path: String, failure: String = "write failed") throws {
        try bytes.withUnsafeBytes { try write($0, to: fd, path: path, failure: failure) }
    }

    /// Reads what `fd` delivers next, at most `buffer.count` bytes, into the start of `buffer`,
    /// retrying interruptions; returns how many, 0 at the end.
    ///
    /// - Throws: ``NavigationHistoryError`` naming `path`, saying `failure` and the reason.
    package static func read(from fd: Int32, into buffer: inout [UInt8], path: String, failure: String = "read failed") throws -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if n >= 0 { return n }
            if errno != EINTR { throw error(failure, path) }
        }
    }
}

extension FileSystem {
    /// Writes `bytes` into the existing regular file `path` at `offset`, then cuts the file to
    /// `length` bytes when one is given: for a derived file updated in place (the snapshot index).
    package static func write(_ path: String, at offset: Int, _ bytes: [UInt8], truncatingTo length: Int? = nil) throws {
        let fd = try openRegular(path, O_WRONLY, "cannot open for writing")
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw error("write failed", path)
            }
            done += n
        }
        if let length, ftruncate(fd, off_t(length)) != 0 { throw error("cannot truncate", path) }
    }
}
