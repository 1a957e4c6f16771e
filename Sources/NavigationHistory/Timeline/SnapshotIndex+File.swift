import Foundation

/// The index file, version 4, made to be opened, not parsed. All integers little-endian.
///
/// ```
/// header    128 bytes: magic "NAVIDX\r\n", version (u32), header size (u32), interval (u64),
///           mode (u32), entry size (u32), entries (u64), table offset (u64), meta offset and
///           length (u64 ×2), sessions offset, prefix length, tail length (u64 ×3), sessions
///           (u64), the CRC-32C of the table, meta, prefix, tail and ids (u32 ×5), sessions in
///           the prefix (u64), the CRC-32C of the 124 bytes before it (u32)
/// blobs     one per entry: {"state", "session", "current", "scenes", "ended", "sawPhase",
///           "inBackground"}, JSON, found through the table
/// table     72 bytes per entry in seq order: seq, timestamp (ms), offset, line, anomalies
///           before, sessions completed before, blob offset (i64 ×7), file (u32, into meta's
///           files), blob length, blob CRC-32C, CRC-32C of the session id (u32 ×3)
/// meta      {"files": [...], "anomaly": {...} | null}, JSON
/// prefix    one JSON line per session complete before the last entry, read only by who lists
///           sessions
/// ids       16 bytes per session of the prefix, sorted: the CRC-32C of its id, its line's length
///           (u32 ×2), its line's offset in the prefix (u64): to find one session by its id
/// tail      one JSON line per session from the last entry on, read at every opening
/// ```
///
/// A seek reads the header, the table and meta (a few hundred KB at 10M events) and one blob at
/// most.
/// Extending the index writes the new blobs over the old table and what follows it, then the
/// new table, meta and sessions, then the header; when only the tail changed (the log grew by
/// less than an entry), only the tail and the header. A crash in between leaves a header whose
/// checksums no longer match, and the index is rebuilt.
enum Layout {
    static let magic: [UInt8] = Array("NAVIDX\r\n".utf8)
    static let headerSize = 128
    static let entrySize = 72
    static let idSize = 16
    static let modes: [RecoveryMode] = [.tolerateTornTail, .absolute, .pointInTime, .salvage]

    struct Header: Equatable {
        var interval = 0, mode = 0, entries = 0, tableOffset = 0, metaOffset = 0, metaLength = 0
        var sessionsOffset = 0, prefixLength = 0, tailLength = 0, sessions = 0
        var tableChecksum: UInt32 = 0, metaChecksum: UInt32 = 0, prefixChecksum: UInt32 = 0, tailChecksum: UInt32 = 0
        var idsChecksum: UInt32 = 0, prefixSessions = 0

        var idsOffset: Int { sessionsOffset + prefixLength }
        var tailOffset: Int { idsOffset + prefixSessions * Layout.idSize }
        var fileSize: Int { tailOffset + tailLength }

        func encoded() -> [UInt8] {
            var b = ByteWriter()
            b.bytes += Layout.magic
            b.u32(UInt32(SnapshotIndex.version)); b.u32(UInt32(Layout.headerSize))
            b.u64(interval); b.u32(UInt32(mode)); b.u32(UInt32(Layout.entrySize))
            for value in [entries, tableOffset, metaOffset, metaLength, sessionsOffset, prefixLength, tailLength, sessions] { b.u64(value) }
            for value in [tableChecksum, metaChecksum, prefixChecksum, tailChecksum, idsChecksum] { b.u32(value) }
            b.u64(prefixSessions)
            b.u32(CRC32C.checksum(b.bytes))
            return b.bytes
        }

        /// The header in `bytes`, or nil when it is damaged, of another version, or inconsistent.
        init?(_ bytes: [UInt8]) {
            guard bytes.count == Layout.headerSize, Array(bytes[0..<8]) == Layout.magic,
                  CRC32C.checksum(bytes[0..<124]) == ByteReader(bytes).u32(124) else { return nil }
            let r = ByteReader(bytes)
            guard r.u32(8) == SnapshotIndex.version, r.u32(12) == Layout.headerSize, r.u32(28) == Layout.entrySize else { return nil }
            interval = r.int(16); mode = Int(r.u32(24))
            (entries, tableOffset, metaOffset, metaLength) = (r.int(32), r.int(40), r.int(48), r.int(56))
            (sessionsOffset, prefixLength, tailLength, sessions) = (r.int(64), r.int(72), r.int(80), r.int(88))
            (tableChecksum, metaChecksum, prefixChecksum, tailChecksum) = (r.u32(96), r.u32(100), r.u32(104), r.u32(108))
            (idsChecksum, prefixSessions) = (r.u32(112), r.int(116))
            let limit = 1 << 48
            guard [interval, entries, tableOffset, metaLength, prefixLength, tailLength, sessions].allSatisfy({ $0 >= 0 && $0 < limit }),
                  prefixSessions >= 0, prefixSessions <= sessions,
                  mode < Layout.modes.count, tableOffset >= Layout.headerSize,
                  metaOffset == tableOffset + entries * Layout.entrySize, sessionsOffset == metaOffset + metaLength else { return nil }
        }

        init() {}
    }
}

/// Little-endian integers appended to bytes.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u64(_ value: Int) {
        let bits = UInt64(bitPattern: Int64(value))
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
}

/// Little-endian integers read from bytes.
struct ByteReader {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u32(_ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(bytes[at + k]) << UInt32(8 * k) }
        return value
    }

    func int(_ at: Int) -> Int {
        var value: UInt64 = 0
        for k in 0..<8 { value |= UInt64(bytes[at + k]) << UInt64(8 * k) }
        return Int(Int64(bitPattern: value))
    }
}

extension SnapshotIndex {
    /// The bytes of the whole index file.
    package func encoded() -> [UInt8]? {
        var blobBytes: [UInt8] = []
        var moved = entries
        for k in moved.indices {
            guard let bytes = blobs.bytes(at: moved[k].blobOffset, count: moved[k].blobLength) else { return nil }
            moved[k].blobOffset = Layout.headerSize + blobBytes.count
            blobBytes += bytes
        }
        guard let trailer = trailer(entries: moved, tableOffset: Layout.headerSize + blobBytes.count) else { return nil }
        return trailer.header.encoded() + blobBytes + trailer.bytes
    }

    /// The table and meta of the file for `entries`.
    private func front(entries: [Entry]) -> (table: [UInt8], meta: [UInt8]) {
        var files: [String] = []
        var fileNumbers: [String: Int] = [:]
        var table = ByteWriter()
        table.bytes.reserveCapacity(entries.count * Layout.entrySize)
        for entry in entries {
            let number = fileNumbers[entry.file] ?? files.count
            if number == files.count { files.append(entry.file); fileNumbers[entry.file] = number }
            for value in [entry.seq, Int(entry.timestamp.millisecondsSince1970), entry.offset, entry.line, entry.anomaliesBefore,
                          entry.sessionsCompleted, entry.blobOffset] { table.u64(value) }
            for value in [UInt32(number), UInt32(entry.blobLength), entry.blobChecksum, entry.sessionChecksum] { table.u32(value) }
        }
        var meta = JSONWriter()
        meta.raw("{"); meta.key("files", first: true); meta.value(.array(files.map { .string($0) }))
        meta.key("anomaly")
        if let anomaly = firstAnomaly {
            meta.raw("{")
            meta.key("seq", first: true); meta.integer(anomaly.seq)
            meta.key("kind"); meta.string(anomaly.kind.rawValue)
            meta.key("detail"); meta.string(anomaly.detail)
            meta.raw("}")
        } else {
            meta.raw("null")
        }
        meta.raw("}\n")
        return (table.bytes, meta.bytes)
    }

    /// The table, meta and sessions of the file for `entries`, the table at `tableOffset`, and the
    /// header that names them; nil when the sessions in the index file can no longer be read.
    private func trailer(entries: [Entry], tableOffset: Int) -> (header: Layout.Header, bytes: [UInt8])? {
        let (table, meta) = front(entries: entries)
        guard var prefix = sessionPrefix.fileBytes(), var ids = sessionPrefix.fileIDs() else { return nil }
        Self.append(sessionPrefix.more, to: &prefix, ids: &ids)
        let idBytes = Self.encoded(ids: ids)
        let tail = Self.lines(tailSessions)
        var header = Layout.Header()
        header.interval = interval
        header.mode = Layout.modes.firstIndex(of: mode) ?? 0
        header.entries = entries.count
        header.tableOffset = tableOffset
        header.metaOffset = tableOffset + table.count
        header.metaLength = meta.count
        header.sessionsOffset = header.metaOffset + meta.count
        (header.prefixLength, header.tailLength) = (prefix.count, tail.count)
        header.sessions = sessionPrefix.count + tailSessions.count
        header.prefixSessions = sessionPrefix.count
        header.tableChecksum = CRC32C.checksum(table)
        header.metaChecksum = CRC32C.checksum(meta)
        header.prefixChecksum = CRC32C.checksum(prefix)
        header.tailChecksum = CRC32C.checksum(tail)
        header.idsChecksum = CRC32C.checksum(idBytes)
        return (header, table + meta + prefix + idBytes + tail)
    }

    /// Opens the index file at `path`: reads its header, table, meta and tail sessions, checking
    /// each; nil when it is missing, damaged, cut off, of another version, or larger than `limit`.
    /// The blobs and the sessions' prefix are read only when asked for.
    package static func open(_ path: String, atMost limit: Int) -> SnapshotIndex? {
        guard let headerBytes = try? FileSystem.read(path, from: 0, count: Layout.headerSize), let header = Layout.Header(headerBytes),
              header.fileSize <= limit, FileSystem.status(path)?.size == header.fileSize,
              let rest = try? FileSystem.read(path, from: header.tableOffset, count: header.sessionsOffset - header.tableOffset),
              rest.count == header.sessionsOffset - header.tableOffset,
              let tailBytes = try? FileSystem.read(path, from: header.tailOffset, count: header.tailLength),
              tailBytes.count == header.tailLength else { return nil }
        let tableLength = header.metaOffset - header.tableOffset
        guard CRC32C.checksum(rest[0..<tableLength]) == header.tableChecksum,
              CRC32C.checksum(rest[tableLength..<tableLength + header.metaLength]) == header.metaChecksum,
              CRC32C.checksum(tailBytes) == header.tailChecksum,
              let meta = JSONValue(parsing: rest[tableLength..<tableLength + header.metaLength]),
              case .array(let fileValues)? = meta["files"] else { return nil }
        let files = fileValues.compactMap(\.string)
        var index = SnapshotIndex(interval: header.interval)
        index.mode = Layout.modes[header.mode]
        switch meta["anomaly"] {
        case .null?: break
        case let anomaly?:
            guard let seq = anomaly["seq"]?.int, let kind = anomaly["kind"]?.string.flatMap(Projection.Anomaly.Kind.init),
                  let detail = anomaly["detail"]?.string else { return nil }
            index.firstAnomaly = Projection.Anomaly(seq: seq, kind: kind, detail: detail)
        case nil: return nil
        }
        let table = ByteReader(Array(rest[0..<tableLength]))
        index.entries.reserveCapacity(header.entries)
        for k in 0..<header.entries {
            let at = k * Layout.entrySize
            let file = Int(table.u32(at + 56)), length = Int(table.u32(at + 60))
            let entry = Entry(seq: table.int(at), file: file < files.count ? files[file] : "", offset: table.int(at + 16),
                              line: table.int(at + 24), timestamp: Timestamp(millisecondsSince1970: Int64(table.int(at + 8))),
                              sessionChecksum: table.u32(at + 68), anomaliesBefore: table.int(at + 32),
                              sessionsCompleted: table.int(at + 40), blobOffset: table.int(at + 48), blobLength: length,
                              blobChecksum: table.u32(at + 64))
            guard file < files.count, entry.blobOffset >= Layout.headerSize, entry.blobOffset + length <= header.tableOffset,
                  entry.seq > (index.entries.last?.seq ?? Int.min), entry.sessionsCompleted >= (index.entries.last?.sessionsCompleted ?? 0),
                  entry.sessionsCompleted <= header.sessions else { return nil }
            index.entries.append(entry)
        }
        guard let tail = sessions(decoding: tailBytes[...]) else { return nil }
        let prefixCount = index.entries.last?.sessionsCompleted ?? 0
        guard prefixCount == header.prefixSessions, prefixCount + tail.count == header.sessions else { return nil }
        index.tailSessions = tail
        index.sessionPrefix.file = SessionPrefix.File(path: path, offset: header.sessionsOffset, length: header.prefixLength,
                                                      checksum: header.prefixChecksum, count: prefixCount, idsOffset: header.idsOffset,
                                                      idsChecksum: header.idsChecksum)
        index.blobs = Blobs(file: path, fileEnd: header.tableOffset)
        index.openedHeader = header
        return index
    }

    /// Saves the index to `path`: in place when it was opened from that file (the new blobs over
    /// the old table, then the new table, meta and sessions, then the header), else through a
    /// temporary file and a rename. Returns why it failed, if it did.
    func save(to path: String) -> String? {
        guard blobs.file == path else { return saveWhole(to: path) }
        if blobs.pending.isEmpty, sessionPrefix.more.isEmpty, var header = openedHeader, header.tableOffset == blobs.fileEnd,
           header.prefixSessions == sessionPrefix.count {
            let (table, meta) = front(entries: entries)
            if CRC32C.checksum(table) == header.tableChecksum, CRC32C.checksum(meta) == header.metaChecksum {
                let tail = Self.lines(tailSessions)
                header.tailLength = tail.count
                header.tailChecksum = CRC32C.checksum(tail)
                header.sessions = header.prefixSessions + tailSessions.count
                do {
                    try FileSystem.write(path, at: header.tailOffset, tail, truncatingTo: header.fileSize)
                    try FileSystem.write(path, at: 0, header.encoded())
                    return nil
                } catch {
                    return "\(error)"
                }
            }
        }
        guard let trailer = trailer(entries: entries, tableOffset: blobs.end) else { return "the index file changed while it was read" }
        do {
            try FileSystem.write(path, at: blobs.fileEnd, blobs.pending + trailer.bytes, truncatingTo: trailer.header.fileSize)
            try FileSystem.write(path, at: 0, trailer.header.encoded())
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Encodes a snapshot as a blob.
    static func blob(state: NavigationState, session: String, checkpoint: SessionTracker.Checkpoint) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        w.raw("{")
        w.key("state", first: true); w.state(state)
        w.key("session"); w.string(session)
        w.key("current"); if let current = checkpoint.current { w.session(current) } else { w.raw("null") }
        w.key("scenes"); w.value(.array(checkpoint.scenes.map { .string($0) }))
        w.key("ended"); w.bool(checkpoint.ending.sawEnd)
        w.key("sawPhase"); w.bool(checkpoint.ending.sawPhase)
        w.key("inBackground"); w.bool(checkpoint.ending.inBackground)
        w.raw("}")
        return w.bytes
    }

    /// Decodes a blob (its checkpoint's `completed` left 0, the table's to say).
    static func snapshot(decoding bytes: [UInt8]) -> Snapshot? {
        guard let json = JSONValue(parsing: bytes[...]), let stateJSON = json["state"], let state = try? NavigationState(json: stateJSON),
              let session = json["session"]?.string, case .array(let scenes)? = json["scenes"], case .bool(let ended)? = json["ended"],
              case .bool(let sawPhase)? = json["sawPhase"], case .bool(let inBackground)? = json["inBackground"] else { return nil }
        let current: SessionSummary?
        switch json["current"] {
        case .null?: current = nil
        case let value?: guard let decoded = SessionSummary(json: value) else { return nil }; current = decoded
        case nil: return nil
        }
        let names = scenes.compactMap(\.string)
        guard names.count == scenes.count else { return nil }
        return Snapshot(state: state, session: session,
                        sessions: SessionTracker.Checkpoint(completed: 0, current: current, scenes: names,
                                                            ending: SessionEnding(sawEnd: ended, sawPhase: sawPhase, inBackground: inBackground)))
    }


    /// Session lines; nil when one is not a session.
    static func sessions(decoding bytes: ArraySlice<UInt8>) -> [SessionSummary]? {
        var sessions: [SessionSummary] = []
        for line in bytes.split(separator: 0x0A) {
            guard let json = JSONValue(parsing: line), let session = SessionSummary(json: json) else { return nil }
            sessions.append(session)
        }
        return sessions
    }
}

extension SessionSummary {
    init?(json: JSONValue) {
        guard let id = json["id"]?.string, let firstSeq = json["firstSeq"]?.int, let lastSeq = json["lastSeq"]?.int,
              let start = json["start"]?.string.flatMap(Timestamp.init), let end = json["end"]?.string.flatMap(Timestamp.init),
              let ending = json["ending"]?.string.flatMap(SessionEnd.init), let events = json["events"]?.int,
              let scenes = json["scenes"]?.int, let app = json["app"] else { return nil }
        self.init(id: id, app: app.string, firstSeq: firstSeq, lastSeq: lastSeq, start: start, end: end,
                  ending: ending, events: events, scenes: scenes)
    }
}

extension JSONWriter {
    /// A session summary as an object: with `snakeCase` (the shape `navlog sessions --format json`
    /// prints) its seqs named `first_seq` and `last_seq`; without it, `firstSeq` and `lastSeq`, as
    /// the snapshot index file keeps them.
    package mutating func session(_ session: SessionSummary, snakeCase: Bool = false) {
        raw("{")
        key("id", first: true); string(session.id)
        key("app"); if let app = session.app { string(app) } else { raw("null") }
        key(snakeCase ? "first_seq" : "firstSeq"); integer(session.firstSeq)
        key(snakeCase ? "last_seq" : "lastSeq"); integer(session.lastSeq)
        key("start"); timestamp(session.start)
        key("end"); timestamp(session.end)
        key("ending"); string(session.ending.rawValue)
        key("events"); integer(session.events)
        key("scenes"); integer(session.scenes)
        raw("}")
    }
}

extension JSONValue {
    /// The value as an integer, when it is a JSON integer.
    var int: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }

    /// The value as a string, when it is a JSON string.
    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }
}
