import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a log: the segments `NNNNNNNN.jsonl` of a log directory in order, or one file.
package enum LogFiles {
    /// Whether a file name is a segment's: eight digits and `.jsonl`.
    package static func isSegmentName(_ name: String) -> Bool { segmentNumber(name) != nil }

    /// The number a segment's name holds, nil when `name` is not a segment's; read from its bytes,
    /// allocating nothing (`NavlogBench shipments` lists a thousand names).
    package static func segmentNumber(_ name: String) -> Int? {
        let utf8 = name.utf8
        guard utf8.count == 14 else { return nil }
        var number = 0, index = 0
        for byte in utf8 {
            if index < 8 {
                guard byte &- 0x30 < 10 else { return nil }
                number = number * 10 + Int(byte &- 0x30)
            } else if byte != Self.suffix[index - 8] {
                return nil
            }
            index += 1
        }
        return number
    }

    private static let suffix: [UInt8] = Array(".jsonl".utf8)

    /// Whether `name` is a file a log directory derives from its segments — the snapshot index, or
    /// one being written — which is rebuilt when missing: it never makes a directory a log, nor
    /// one that is not.
    package static func isDerivedName(_ name: String) -> Bool {
        name == SnapshotIndex.fileName || name.hasPrefix(SnapshotIndex.fileName + ".tmp.")
            || name == SealedManifest.fileName || name == SealedManifest.fileName + Opening.temporarySuffix
    }

    /// The files to read for `path`, and whether they are store segments (whose lines all carry a
    /// `crc`).
    ///
    /// `path` itself may be a symbolic link, which the caller named: a single file is then read
    /// as the file it points to, named by its real path. The files of a directory are opened
    /// only as the regular files they are, never through a link (``InputFile``).
    ///
    /// - Throws: ``NavigationHistoryError/Code/noInput`` when the path does not exist, is a loop
    ///   of symbolic links, is something no log can be (a FIFO, a device, a socket: a pipe is
    ///   read through a copy, as `navlog` makes of one), or is a directory holding other files
    ///   but no segment and no `LOCK` (an empty directory is an empty log); `io` when the
    ///   directory cannot be listed.
    package static func resolve(_ path: String) throws -> (files: [String], segmented: Bool) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ELOOP {
                throw NavigationHistoryError(code: .noInput, message: "a loop of symbolic links (ELOOP): it never reaches a file", path: path, errno: code)
            }
            throw NavigationHistoryError(code: code == ENOENT || code == ENOTDIR ? .noInput : .io,
                                         message: code == ENOENT ? "no such file or directory" : "cannot open: \(String(cString: strerror(code)))",
                                         path: path, errno: code)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return ([FileSystem.isSymbolicLink(path) ? try realPath(path) : path], false)
        case S_IFDIR:
            break
        default:
            throw NavigationHistoryError(code: .noInput,
                                         message: "it is \(FileSystem.kind(of: info.st_mode) ?? "a special file"), not a log: give a log directory or a .jsonl file",
                                         path: path)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw NavigationHistoryError(code: .io, message: "cannot list the log directory: \(error.localizedDescription)", path: path)
        }
        let directory = path.hasSuffix("/") ? path : path + "/"
        let segments = names.filter(isSegmentName).sorted()
        if segments.isEmpty, !names.allSatisfy(isDerivedName), !names.contains(DirectoryLock.fileName) {
            throw NavigationHistoryError(code: .noInput,
                                         message: "not a log directory: no segment (NNNNNNNN.jsonl) and no \(DirectoryLock.fileName) in it",
                                         path: path)
        }
        return (segments.map { directory + $0 }, true)
    }

    /// Whether `error`, thrown by ``resolve(_:)``, says that the log does not exist: not that it is
    /// something that cannot be one.
    package static func isAbsent(_ error: NavigationHistoryError) -> Bool {
        error.code == .noInput && error.errno == ENOENT
    }

    /// The bytes of the log at `path`: its one file's, or the sum of its segments'.
    package static func size(_ path: String) throws -> Int {
        try resolve(path).files.reduce(0) { $0 + (FileSystem.status($1)?.size ?? 0) }
    }

    /// The path `path` leads to through its symbolic links.
    private static func realPath(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            throw NavigationHistoryError(code: .noInput, message: "cannot follow the symbolic link: \(String(cString: strerror(errno)))", path: path, errno: errno)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
