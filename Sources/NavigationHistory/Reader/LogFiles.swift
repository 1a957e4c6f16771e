import Foundation

/// The files of a log: the segments `NNNNNNNN.jsonl` of a log directory in order, or one file.
package enum LogFiles {
    /// Whether a file name is a segment's: eight digits and `.jsonl`.
    package static func isSegmentName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        return utf8.count == 14 && utf8[0..<8].allSatisfy { $0 &- 0x30 < 10 } && name.hasSuffix(".jsonl")
    }

    /// The files to read for `path`, and whether they are store segments (whose lines all carry a
    /// `crc`).
    ///
    /// - Throws: ``NavigationHistoryError/Code/noInput`` when the path does not exist.
    package static func resolve(_ path: String) throws -> (files: [String], segmented: Bool) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw NavigationHistoryError(code: .noInput, message: "no such file or directory", path: path)
        }
        guard isDirectory.boolValue else { return ([path], false) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw NavigationHistoryError(code: .io, message: "cannot list the log directory: \(error.localizedDescription)", path: path)
        }
        let directory = path.hasSuffix("/") ? path : path + "/"
        return (names.filter(isSegmentName).sorted().map { directory + $0 }, true)
    }

    /// The bytes of the log at `path`: its one file's, or the sum of its segments'.
    package static func size(_ path: String) throws -> Int {
        try resolve(path).files.reduce(0) { $0 + (FileSystem.status($1)?.size ?? 0) }
    }
}
