import Foundation

/// The sessions complete before an index's last entry: a run of session lines in the index file,
/// read only when asked for, and those that completed since.
struct SessionPrefix: Sendable {
    /// Where the index file has the run of session lines, and the table of all its sessions' ids.
    struct File: Sendable {
        var path: String
        var offset: Int, length: Int, checksum: UInt32
        /// How many sessions the run holds.
        var count: Int
        /// Where the run's ids table is (`count` records), and its CRC-32C.
        var idsOffset: Int, idsChecksum: UInt32
    }

    var file: File?
    var more: [SessionSummary] = []

    var count: Int { (file?.count ?? 0) + more.count }

    /// The lines of the file's run; nil when they cannot be read or are damaged.
    func fileBytes() -> [UInt8]? {
        guard let file else { return [] }
        guard let bytes = try? FileSystem.read(file.path, from: file.offset, count: file.length), bytes.count == file.length,
              CRC32C.checksum(bytes) == file.checksum else { return nil }
        return bytes
    }

    /// The ids of the file's run, sorted; nil when they cannot be read or are damaged.
    func fileIDs() -> [SnapshotIndex.SessionID]? {
        guard let file else { return [] }
        let count = file.count * Layout.idSize
        guard let bytes = try? FileSystem.read(file.path, from: file.idsOffset, count: count), bytes.count == count,
              CRC32C.checksum(bytes) == file.idsChecksum else { return nil }
        let r = ByteReader(bytes)
        return (0..<file.count).map { k in
            SnapshotIndex.SessionID(checksum: r.u32(k * Layout.idSize), length: Int(r.u32(k * Layout.idSize + 4)), offset: r.int(k * Layout.idSize + 8))
        }
    }

    func sessions() -> [SessionSummary]? {
        guard let bytes = fileBytes(), let decoded = SnapshotIndex.sessions(decoding: bytes[...]), decoded.count == (file?.count ?? 0) else {
            return nil
        }
        return decoded + more
    }

    /// The sessions with the id `id`, in order: found through the ids table, and only their lines
    /// read; nil when the file's lines or table are damaged.
    func sessions(withID id: String) -> [SessionSummary]? {
        var found: [SessionSummary] = []
        if let file {
            guard let ids = fileIDs() else { return nil }
            let checksum = CRC32C.checksum(id.utf8)
            var k = ids.countOfLeading { $0.checksum < checksum }
            while k < ids.count, ids[k].checksum == checksum {
                let record = ids[k]
                guard record.offset + record.length <= file.length,
                      let line = try? FileSystem.read(file.path, from: file.offset + record.offset, count: record.length),
                      line.count == record.length, let json = JSONValue(parsing: line[...]), let session = SessionSummary(json: json) else {
                    return nil
                }
                if session.id == id { found.append(session) }
                k += 1
            }
        }
        return found + more.filter { $0.id == id }
    }
}

extension SnapshotIndex {
    /// A record of the ids table: the CRC-32C of a session's id, and where its line is from the
    /// sessions' start.
    struct SessionID: Sendable {
        var checksum: UInt32
        var length: Int
        var offset: Int
    }

    /// The sessions with the id `id`, in order, as far as the index was built; nil when the index
    /// file no longer holds them (it changed under the index).
    package func sessions(withID id: String) -> [SessionSummary]? {
        sessionPrefix.sessions(withID: id).map { $0 + tailSessions.filter { $0.id == id } }
    }

    /// Appends `sessions` as lines to `bytes`, and their ids to `ids`.
    static func append(_ sessions: [SessionSummary], to bytes: inout [UInt8], ids: inout [SessionID]) {
        var w = JSONWriter(capacity: 192)
        for session in sessions {
            w.bytes.removeAll(keepingCapacity: true)
            w.session(session)
            w.raw("\n")
            ids.append(SessionID(checksum: CRC32C.checksum(session.id.utf8), length: w.bytes.count - 1, offset: bytes.count))
            bytes += w.bytes
        }
    }

    /// `sessions` as lines.
    static func lines(_ sessions: [SessionSummary]) -> [UInt8] {
        var bytes: [UInt8] = [], ids: [SessionID] = []
        append(sessions, to: &bytes, ids: &ids)
        return bytes
    }

    /// The ids table: `ids` sorted by checksum, then offset.
    static func encoded(ids: [SessionID]) -> [UInt8] {
        var b = ByteWriter()
        b.bytes.reserveCapacity(ids.count * Layout.idSize)
        for id in ids.sorted(by: { ($0.checksum, $0.offset) < ($1.checksum, $1.offset) }) {
            b.u32(id.checksum)
            b.u32(UInt32(id.length))
            b.u64(id.offset)
        }
        return b.bytes
    }
}
