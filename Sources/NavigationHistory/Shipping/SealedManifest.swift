import Foundation

/// The bounds of a log's sealed segments — bytes, seq and time ranges — one line each in the
/// derived file `sealed.navman`, appended as each segment is sealed: what lets
/// ``EventLog/pendingShipments()`` list a thousand segments without opening one
/// (`NavlogBench shipments`: reading two lines of each cost 86x listing the directory).
///
/// It is derived from the segments, so it is never trusted further than they: a line that does
/// not parse, or a sealed segment it lacks, is read from the segment and the file written anew;
/// ``Shipment/contents()`` checks the bytes against what was listed and removes the file when
/// they differ. Nothing is synced: a lost line is read again.
enum SealedManifest {
    /// The file's name in the log directory.
    static let fileName = "sealed.navman"

    /// One sealed segment's bounds.
    struct Entry: Equatable {
        var segment: Int
        var bytes: Int
        var bounds: SegmentBounds
    }

    /// The entries of the log in `directory` by segment number; none when the file is missing,
    /// a link, or unreadable.
    static func read(directory: String) -> [Int: Entry] {
        guard let bytes = try? FileSystem.contents(directory + "/" + fileName, atMost: 64 << 20) else { return [:] }
        var entries: [Int: Entry] = [:]
        for line in bytes.split(separator: 0x0A) {
            let fields = line.split(separator: 0x20)
            let values = fields.compactMap { Int(String(decoding: $0, as: UTF8.self)) }
            guard fields.count == 6, values.count == 6, values[0] > 0, values[1] > 0, values[2] <= values[3] else { continue }
            entries[values[0]] = Entry(segment: values[0], bytes: values[1], bounds: SegmentBounds(
                seqs: values[2]...values[3], firstTimestamp: Timestamp(millisecondsSince1970: Int64(values[4])),
                lastTimestamp: Timestamp(millisecondsSince1970: Int64(values[5]))))
        }
        return entries
    }

    /// Appends the entry of a segment just sealed; a failure is ignored, as the entry is derived.
    static func append(_ entry: Entry, directory: String) {
        let path = directory + "/" + fileName
        guard let file = (try? WritableFile(path: path)) ?? (try? WritableFile(path: path, create: true)) else { return }
        try? file.write(line(entry))
    }

    /// Writes the file anew with `entries`; a failure is ignored, as they are derived.
    static func rewrite(_ entries: [Entry], directory: String) {
        let path = directory + "/" + fileName, temporary = path + Opening.temporarySuffix
        try? FileSystem.remove(temporary)
        guard (try? FileSystem.writeNewFile(temporary, entries.sorted { $0.segment < $1.segment }.flatMap(line), sync: false)) != nil else { return }
        try? FileSystem.rename(temporary, path)
    }

    /// Removes the file, when what it says proved wrong.
    static func remove(directory: String) { try? FileSystem.remove(directory + "/" + fileName) }

    /// An entry's line: segment, bytes, first and last seq, first and last time in milliseconds.
    private static func line(_ entry: Entry) -> [UInt8] {
        let b = entry.bounds
        return Array(("\(entry.segment) \(entry.bytes) \(b.seqs.lowerBound) \(b.seqs.upperBound) "
                      + "\(b.firstTimestamp.millisecondsSince1970) \(b.lastTimestamp.millisecondsSince1970)\n").utf8)
    }
}
