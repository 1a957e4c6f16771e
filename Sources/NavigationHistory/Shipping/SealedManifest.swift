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

    /// The entries of the log in `directory`, by segment number, ascending (the last line of a
    /// number wins); none when the file is missing, a link, or unreadable.
    static func read(directory: String) -> [Entry] {
        guard let bytes = try? FileSystem.contents(directory + "/" + fileName, atMost: 64 << 20) else { return [] }
        var entries: [Entry] = []
        entries.reserveCapacity(bytes.count / 40)
        var sorted = true
        // Six decimal integers a line, separated by spaces; any other line is skipped. Parsed from
        // the bytes: through strings, a thousand lines cost more than listing the directory.
        var field = 0, value = 0, digits = 0, valid = true
        var v = (0, 0, 0, 0, 0, 0)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits >= 18 { valid = false }
                value = value &* 10 &+ Int(byte &- UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: " "), 0x0A:
                if digits == 0 { valid = false }
                switch field {
                case 0: v.0 = value
                case 1: v.1 = value
                case 2: v.2 = value
                case 3: v.3 = value
                case 4: v.4 = value
                case 5: v.5 = value
                default: valid = false
                }
                (field, value, digits) = (field + 1, 0, 0)
                guard byte == 0x0A else { continue }
                if valid, field == 6, v.0 > 0, v.1 > 0, v.2 <= v.3 {
                    let entry = Entry(segment: v.0, bytes: v.1, bounds: SegmentBounds(
                        seqs: v.2...v.3, firstTimestamp: Timestamp(millisecondsSince1970: Int64(v.4)),
                        lastTimestamp: Timestamp(millisecondsSince1970: Int64(v.5))))
                    if let last = entries.last, last.segment >= entry.segment { sorted = false }
                    entries.append(entry)
                }
                (field, valid) = (0, true)
            default:
                valid = false
            }
        }
        guard !sorted else { return entries }
        var bySegment: [Int: Entry] = [:]
        for entry in entries { bySegment[entry.segment] = entry }
        return bySegment.values.sorted { $0.segment < $1.segment }
    }

    /// Appends the entry of a segment just sealed; a failure is ignored, as the entry is derived.
    static func append(_ entry: Entry, directory: String) {
        let path = directory + "/" + fileName
        guard let file = (try? WritableFile(path: path)) ?? (try? WritableFile(path: path, create: true)) else { return }
        try? file.write(line(entry))
    }

    /// Writes the file anew with `entries`; a failure is ignored, as they are derived.
    static func rewrite(_ entries: [Entry], directory: String) {
        try? FileSystem.replace(directory + "/" + fileName, with: entries.sorted { $0.segment < $1.segment }.flatMap(line), durably: false)
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
