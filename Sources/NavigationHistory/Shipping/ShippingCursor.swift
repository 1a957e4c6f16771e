import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a log directory's `SHIPPED` file holds: which sealed segments were acknowledged, and
/// which unshipped ones retention deleted. One small line of JSON, written as the store writes
/// every file (temporary file, sync, rename, directory sync):
///
/// ```
/// {"format":1,"shipped_through":12,"shipped_also":[15],"dropped_unshipped":[{"segments":[3,4],"seqs":[101,360],"bytes":16384}]}
/// ```
///
/// It is not derived from the segments — it is what the device knows of the world — so it is
/// never rebuilt: when it cannot be read, every segment counts as unshipped (delivery is at least
/// once), and the reason is reported.
struct ShippingCursor: Equatable {
    /// The file's name in the log directory.
    static let fileName = "SHIPPED"

    /// Every segment up to this number is shipped.
    var shippedThrough = 0
    /// Segments above ``shippedThrough`` + 1 shipped before the ones below them, in order.
    var shippedAlso: [Int] = []
    /// Runs of unshipped segments retention deleted, oldest first.
    var dropped: [DroppedRun] = []

    /// Contiguous unshipped segments deleted by retention.
    struct DroppedRun: Equatable {
        var segments: ClosedRange<Int>
        var seqs: ClosedRange<Int>
        var bytes: Int
    }

    /// Whether segment `number` was acknowledged.
    func isShipped(_ number: Int) -> Bool { number <= shippedThrough || shippedAlso.contains(number) }

    /// Whether segment `number` was deleted unshipped.
    func wasDropped(_ number: Int) -> Bool { dropped.contains { $0.segments.contains(number) } }

    /// Records the acknowledgement of segment `number`.
    mutating func markShipped(_ number: Int) {
        guard !isShipped(number) else { return }
        shippedAlso.append(number)
        shippedAlso.sort()
        while let next = shippedAlso.first, next <= shippedThrough + 1 {
            shippedThrough = max(shippedThrough, next)
            shippedAlso.removeFirst()
        }
    }

    /// Records that retention deleted segment `number`, unshipped; nothing when it is recorded already.
    mutating func markDropped(_ number: Int, seqs: ClosedRange<Int>, bytes: Int) {
        guard !wasDropped(number) else { return }
        if var last = dropped.last, last.segments.upperBound + 1 == number {
            last.segments = last.segments.lowerBound...number
            last.seqs = last.seqs.lowerBound...max(last.seqs.upperBound, seqs.upperBound)
            last.bytes += bytes
            dropped[dropped.count - 1] = last
        } else {
            dropped.append(DroppedRun(segments: number...number, seqs: seqs, bytes: bytes))
        }
    }

    /// The deleted runs as the public API says them.
    var loss: UnshippedLoss {
        UnshippedLoss(segments: dropped.reduce(0) { $0 + $1.segments.count }, bytes: dropped.reduce(0) { $0 + $1.bytes },
                      seqs: dropped.map(\.seqs))
    }

    // MARK: The file

    /// The cursor of the log in `directory`: empty when it has no `SHIPPED` file.
    ///
    /// - Throws: `corruptLog` when the file is not one the store wrote; `noInput` when it is a
    ///   symbolic link, hard-linked or not a regular file; `io`.
    static func read(directory: String) throws -> ShippingCursor {
        let path = directory + "/" + fileName
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return ShippingCursor() }
            throw FileSystem.error("cannot open", path)
        }
        if info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1 {
            throw NavigationHistoryError(code: .noInput, message: "it has \(info.st_nlink) hard links: it is not the log's own file", path: path)
        }
        guard let bytes = try FileSystem.contents(path, atMost: 64 << 10) else {
            throw NavigationHistoryError(code: .corruptLog, message: "larger than the store ever writes it", path: path)
        }
        guard let cursor = parse(bytes) else {
            throw NavigationHistoryError(code: .corruptLog, message: "not a shipping cursor the store wrote", path: path)
        }
        return cursor
    }

    /// Writes the cursor into `directory`, replacing its `SHIPPED` file durably; `faultHook` is
    /// called after each step of the replacement.
    func write(directory: String, faultHook: ((EventLog.FaultPoint) throws -> Void)?) throws {
        try FileSystem.replace(directory + "/" + Self.fileName, with: Array(text.utf8), after: faultHook.map { hook in
            { step in
                switch step {
                case .temporaryWritten: try hook(.shippingCursorTemporaryWritten)
                case .renamed: try hook(.shippingCursorRenamed)
                case .directorySynced: try hook(.shippingCursorDirectorySynced)
                }
            }
        })
    }

    /// The file's line.
    var text: String {
        let runs = dropped.map { run in
            "{\"segments\":[\(run.segments.lowerBound),\(run.segments.upperBound)],\"seqs\":[\(run.seqs.lowerBound),\(run.seqs.upperBound)],"
                + "\"bytes\":\(run.bytes)}"
        }
        return "{\"format\":1,\"shipped_through\":\(shippedThrough),\"shipped_also\":[\(shippedAlso.map(String.init).joined(separator: ","))],"
            + "\"dropped_unshipped\":[\(runs.joined(separator: ","))]}\n"
    }

    /// The cursor a file's bytes hold, nil when they are not one.
    static func parse(_ bytes: [UInt8]) -> ShippingCursor? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              object["format"] as? Int == 1, let through = object["shipped_through"] as? Int, through >= 0,
              let also = object["shipped_also"] as? [Int], let runs = object["dropped_unshipped"] as? [[String: Any]] else { return nil }
        var cursor = ShippingCursor(shippedThrough: through, shippedAlso: also.sorted())
        for run in runs {
            guard let segments = run["segments"] as? [Int], segments.count == 2, segments[0] <= segments[1],
                  let seqs = run["seqs"] as? [Int], seqs.count == 2, seqs[0] <= seqs[1], let bytes = run["bytes"] as? Int else { return nil }
            cursor.dropped.append(DroppedRun(segments: segments[0]...segments[1], seqs: seqs[0]...seqs[1], bytes: bytes))
        }
        return cursor
    }
}
