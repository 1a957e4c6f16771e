import Foundation

/// A new, empty directory under the temporary directory for a test's files, removed with all it
/// holds when the last reference to it goes: keep it for as long as the test uses its files.
///
/// ```swift
/// let scratch = try ScratchDirectory()
/// let log = scratch.path + "/log.jsonl"
/// ```
public final class ScratchDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a directory whose name is unique to this test process and call.
    ///
    /// - Throws: what `FileManager` throws when the directory cannot be created.
    public init() throws {
        path = NSTemporaryDirectory() + "navigation-history-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// One directory shared by every test of the process, removed when the process exits: for logs
    /// that several tests read, or that are written once.
    public static let processWide: ScratchDirectory = {
        let directory = try! ScratchDirectory()
        atexit { try? FileManager.default.removeItem(atPath: ScratchDirectory.processWide.path) }
        return directory
    }()

    /// Writes `bytes` to a new file `name` in the directory and returns the file's path.
    public func file(_ name: String, _ bytes: [UInt8]) -> String {
        let file = path + "/" + name
        let created = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        precondition(created, "cannot create \(file)")
        return file
    }

    /// The names in the directory, hidden ones included, sorted.
    public func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}
