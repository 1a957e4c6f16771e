import Foundation

/// The id of this install of the app — the `DEVICE` of `BASE/DEVICE/NNNNNNNN.jsonl` — a random
/// UUID made on first use and kept in a file of its own.
///
/// A file, not `UserDefaults`: it can be excluded from backups, so that a backup restored onto a
/// second phone, log and all, does not give that phone this one's id and make both put their
/// `NNNNNNNN.jsonl` under the same name. Deleting the app deletes it; the next install is a new device.
public enum InstallID {
    /// The id kept in the file at `path`, made and written there (atomically) when the file is
    /// missing or holds no UUID.
    ///
    /// - Throws: what writing the file throws.
    public static func load(from path: URL) throws -> String {
        if let text = try? String(contentsOf: path, encoding: .utf8), let id = UUID(uuidString: text) {
            return id.uuidString.lowercased()
        }
        let id = UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(id.utf8).write(to: path, options: .atomic)
        #if canImport(Darwin)
        var file = path
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try file.setResourceValues(values)
        #endif
        return id
    }
}
