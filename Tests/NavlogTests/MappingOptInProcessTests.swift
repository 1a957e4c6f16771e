import Foundation
import Testing

/// Whether a process's readers map files, seen from a child process of its own: the SIGBUS handler
/// that mapping installs belongs to the whole process, which tests share.
@Suite struct MappingOptInProcessTests {
    /// Runs `NavlogStoreChild read` on a fresh directory and returns what it printed.
    static func childRead(_ extra: [String]) throws -> [String] {
        let dir = NSTemporaryDirectory() + "navlog-mapping-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        return try StoreChild(["read", dir] + extra).output()
    }

    @Test func anAppsRecordingAndReadingInstallsNoSIGBUSHandler() throws {
        let lines = try Self.childRead([])
        #expect(lines.first { $0.hasPrefix("events ") }.flatMap { Int($0.dropFirst(7)) } ?? 0 >= 1000, "\(lines)")
        #expect(lines.last == "sigbus unchanged", "\(lines)")
    }

    @Test func aToolThatTurnsMappingOnReadsTheSameThroughTheSIGBUSGuard() throws {
        let copied = try Self.childRead([])
        let mapped = try Self.childRead(["--map"])
        #expect(mapped.first { $0.hasPrefix("events ") } == copied.first { $0.hasPrefix("events ") }, "\(mapped) \(copied)")
        #expect(mapped.last == "sigbus replaced", "\(mapped)")
    }
}
