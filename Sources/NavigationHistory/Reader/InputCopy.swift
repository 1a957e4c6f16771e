import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A copy of what can be read only once (standard input, a pipe, a FIFO) into a file, for the
/// reader, which reads a log where it lies and some readings more than once.
package enum InputCopy {
    /// Copies everything `fd` delivers to a new file `copy` (mode 0600), streamed through a fixed
    /// buffer. A line's bytes past `keptLineBytes` are never looked at by a reading (it only
    /// measures such a line), so they are left as a hole: a stream without newlines takes no disk.
    ///
    /// - Throws: ``NavigationHistoryError`` naming `shown` (what the input is called) when reading
    ///   fails, and `copy` when writing does.
    package static func copy(from fd: Int32, to copy: String, shown: String, keptLineBytes: Int) throws {
        let out = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw FileSystem.error("cannot create the copy", copy) }
        defer { close(out) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var line = 0     // the bytes of the current line so far
        var size = 0     // the copy's size, holes included
        while true {
            let n = read(fd, buffer.baseAddress!, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystem.error("read failed", shown)
            }
            if n == 0 { break }
            var start = 0
            while start < n {
                let newline = memchrIndex(UnsafeRawBufferPointer(buffer), 0x0A, from: start, to: n)
                let end = newline.map { $0 + 1 } ?? n
                let kept = max(0, min(end - start, keptLineBytes - line))
                try FileSystem.write(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + kept)]), to: out, path: copy)
                if kept < end - start {
                    // The line's bytes past the limit, but its newline.
                    let skipped = end - start - kept - (newline == nil ? 0 : 1)
                    guard lseek(out, off_t(skipped), SEEK_CUR) >= 0 else { throw FileSystem.error("seek failed", copy) }
                    if newline != nil { try FileSystem.write(UnsafeRawBufferPointer(rebasing: buffer[(end - 1)..<end]), to: out, path: copy) }
                }
                line = newline == nil ? line + end - start : 0
                size += end - start
                start = end
            }
        }
        // A hole at the end is in the file only once its size says so.
        guard ftruncate(out, off_t(size)) == 0 else { throw FileSystem.error("cannot size the copy", copy) }
    }
}
