import Foundation

/// A sealed segment of a log, to be shipped off the device: what ``EventLog/pendingShipments()``
/// lists, from the bounds recorded as it was sealed (or its first and last lines).
///
/// ```swift
/// for shipment in try log.pendingShipments().shipments {
///     let contents = try shipment.contents()          // the bytes, and their SHA-256
///     try await upload(contents.bytes, as: shipment.fileName, checksum: contents.sha256)
///     try log.markShipped(shipment)                   // only once the upload is acknowledged
/// }
/// ```
public struct Shipment: Sendable, Hashable, CustomStringConvertible {
    /// The segment's file name, `NNNNNNNN.jsonl`: the name it keeps off the device.
    public var fileName: String
    /// The segment's path.
    public var path: String { directory + "/" + fileName }
    /// The log directory.
    var directory: String
    /// The segment's number, its name's eight digits.
    public var segment: Int
    /// Its size in bytes.
    public var byteSize: Int
    /// The seqs of its first and last events.
    public var seqs: ClosedRange<Int>
    /// The times of its first and last events (the last may be earlier, when the clock went back).
    public var firstTimestamp: Timestamp
    /// The time of its last event.
    public var lastTimestamp: Timestamp

    /// A sealed segment of the log in `directory`.
    init(fileName: String, directory: String, segment: Int, byteSize: Int, seqs: ClosedRange<Int>,
         firstTimestamp: Timestamp, lastTimestamp: Timestamp) {
        (self.fileName, self.directory, self.segment, self.byteSize) = (fileName, directory, segment, byteSize)
        (self.seqs, self.firstTimestamp, self.lastTimestamp) = (seqs, firstTimestamp, lastTimestamp)
    }

    public var description: String { "\(fileName) (seq \(seqs.lowerBound)–\(seqs.upperBound), \(byteSize) bytes)" }

    /// The segment's bytes and their SHA-256, read now: the digest is not part of the listing,
    /// which reads no segment, and an upload reads the bytes anyway.
    ///
    /// - Throws: `corruptLog` when the file is no longer the segment listed (another size, or
    ///   other first or last lines); `noInput` when it is gone or is not a regular file; `io`.
    public func contents() throws -> ShipmentContents {
        let bytes = try listedBytes()
        return ShipmentContents(bytes: bytes, sha256: SHA256.digest(bytes).hex)
    }

    /// The segment's bytes, checked against the listing.
    func listedBytes() throws -> [UInt8] {
        guard let bytes = try FileSystem.contents(path, atMost: byteSize), bytes.count == byteSize,
              let bounds = SegmentBounds(bytes: bytes[...]), bounds.seqs == seqs,
              bounds.firstTimestamp == firstTimestamp, bounds.lastTimestamp == lastTimestamp else {
            // What was listed came from the manifest, or the file changed since: list anew.
            SealedManifest.remove(directory: directory)
            throw NavigationHistoryError(code: .corruptLog, message: "the segment changed since it was listed for shipping", path: path)
        }
        return bytes
    }
}

/// The bytes of a ``Shipment`` and their digest.
public struct ShipmentContents: Sendable, Hashable {
    /// The bytes to ship: the segment's as they are on the device, or its redacted copy's.
    public var bytes: [UInt8]
    /// Their SHA-256 in lowercase hexadecimal, as `sha256sum` prints it.
    public var sha256: String
}

/// The sealed segments not yet shipped, and what retention deleted before they were.
public struct PendingShipments: Sendable, Hashable {
    /// The segments to ship, oldest first.
    public var shipments: [Shipment]
    /// The unshipped segments retention deleted, past its cap: the fleet sees them as a gap.
    public var droppedUnshipped: UnshippedLoss
    /// What was wrong with the log's `SHIPPED` file, when it could not be read: every sealed
    /// segment is then listed again (delivery is at least once), and acknowledging one writes
    /// the file anew.
    public var cursorProblem: String?
}

/// Unshipped segments retention deleted: never silent, reported by ``EventLog/pendingShipments()``
/// and `navlog verify`.
public struct UnshippedLoss: Sendable, Hashable {
    /// How many segments.
    public var segments: Int
    /// Their bytes.
    public var bytes: Int
    /// The seqs their events had, in runs.
    public var seqs: [ClosedRange<Int>]

    /// Nothing deleted.
    public static let none = UnshippedLoss(segments: 0, bytes: 0, seqs: [])

    /// Whether anything was deleted.
    public var isEmpty: Bool { segments == 0 }
}

/// The first and last events of a segment, read from its first and last lines.
struct SegmentBounds: Equatable {
    var seqs: ClosedRange<Int>
    var firstTimestamp: Timestamp
    var lastTimestamp: Timestamp

    /// The bounds of the segment `path` of `size` bytes, reading at most a line at each end.
    ///
    /// - Throws: `corruptLog` when its first or last line is not an event: a sealed segment ends
    ///   on a whole line, synced before the next one was created.
    static func read(_ path: String, size: Int) throws -> SegmentBounds {
        let window = LineDecoder.maximumLineLength + 1
        let head = try FileSystem.read(path, from: 0, count: min(size, window))
        let tail = size <= window ? head : try FileSystem.read(path, from: size - window, count: window)
        guard let bounds = SegmentBounds(head: head[...], tail: tail[...]) else {
            throw NavigationHistoryError(code: .corruptLog, message: "a sealed segment whose first or last line is not an event", path: path)
        }
        return bounds
    }

    /// The bounds of a whole segment's bytes, nil when its first or last line is not an event.
    init?(bytes: ArraySlice<UInt8>) { self.init(head: bytes, tail: bytes) }

    /// The bounds from the first line of `head`, a segment's start, and the last of `tail`, its end.
    private init?(head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>) {
        guard tail.last == 0x0A, let newline = head.firstIndex(of: 0x0A), let first = LineDecoder.decoded(head[..<newline]) else {
            return nil
        }
        let lastStart = tail.dropLast().lastIndex(of: 0x0A).map { $0 + 1 } ?? tail.startIndex
        guard let last = LineDecoder.decoded(tail[lastStart..<(tail.endIndex - 1)]), first.event.seq <= last.event.seq else { return nil }
        self.init(seqs: first.event.seq...last.event.seq, firstTimestamp: first.event.timestamp, lastTimestamp: last.event.timestamp)
    }

    init(seqs: ClosedRange<Int>, firstTimestamp: Timestamp, lastTimestamp: Timestamp) {
        self.seqs = seqs
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
    }
}
