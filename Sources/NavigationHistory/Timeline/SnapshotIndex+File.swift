import Foundation

/// The index file: JSON lines, each ending in a `crc` member like the log's lines. A header names
/// the version and interval, then come the entries, the sessions, the first anomaly, and an end
/// line counting them, so that a cut-off file is never taken for a whole one.
extension SnapshotIndex {
    /// The bytes of the index file.
    package func encoded() -> [UInt8] {
        var w = JSONWriter(capacity: 1 << 16)
        func line(_ build: (inout JSONWriter) -> Void) {
            let lineStart = w.bytes.count
            w.raw("{")
            build(&w)
            w.closeLineWithChecksum(from: lineStart)
        }
        line { w in
            w.key("navidx", first: true); w.integer(Self.version)
            w.key("interval"); w.integer(interval)
            w.key("mode"); w.string(mode.rawValue)
        }
        for entry in entries {
            line { w in
                w.key("entry", first: true); w.raw("{")
                w.key("seq", first: true); w.integer(entry.seq)
                w.key("file"); w.string(entry.file)
                w.key("offset"); w.integer(entry.offset)
                w.key("line"); w.integer(entry.line)
                w.key("ts"); w.timestamp(entry.timestamp)
                w.key("session"); w.string(entry.session)
                w.key("anomalies"); w.integer(entry.anomaliesBefore)
                w.key("state"); w.state(entry.state)
                w.key("sessions"); w.raw("{")
                w.key("completed", first: true); w.integer(entry.sessions.completed)
                w.key("current"); if let current = entry.sessions.current { w.session(current) } else { w.raw("null") }
                w.key("scenes"); w.value(.array(entry.sessions.scenes.map { .string($0) }))
                w.key("ended"); w.bool(entry.sessions.ending.sawEnd)
                w.key("sawPhase"); w.bool(entry.sessions.ending.sawPhase)
                w.key("inBackground"); w.bool(entry.sessions.ending.inBackground)
                w.raw("}}")
            }
        }
        for session in sessions {
            line { w in w.key("session", first: true); w.session(session) }
        }
        if let anomaly = firstAnomaly {
            line { w in
                w.key("anomaly", first: true); w.raw("{")
                w.key("seq", first: true); w.integer(anomaly.seq)
                w.key("kind"); w.string(anomaly.kind.rawValue)
                w.key("detail"); w.string(anomaly.detail)
                w.raw("}")
            }
        }
        line { w in
            w.key("end", first: true); w.raw("{")
            w.key("entries", first: true); w.integer(entries.count)
            w.key("sessions"); w.integer(sessions.count)
            w.raw("}")
        }
        return w.bytes
    }

    /// Decodes an index file, or returns nil when it is damaged, cut off, or of another version.
    package static func decode(_ bytes: [UInt8]) -> SnapshotIndex? {
        var index: SnapshotIndex?
        var ended = false
        for slice in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if slice.isEmpty { continue }
            guard !ended, let object = JSONValue(checksummedLine: slice), case .object = object else { return nil }
            if let version = object["navidx"] {
                guard index == nil, version.int == Self.version, let interval = object["interval"]?.int, interval >= 1,
                      let mode = object["mode"]?.string.flatMap(RecoveryMode.init(rawValue:)) else { return nil }
                index = SnapshotIndex(interval: interval)
                index!.mode = mode
            } else if let entry = object["entry"] {
                guard index != nil, let decoded = Self.entry(entry) else { return nil }
                index!.entries.append(decoded)
            } else if let session = object["session"] {
                guard index != nil, let decoded = SessionSummary(json: session) else { return nil }
                index!.sessions.append(decoded)
            } else if let anomaly = object["anomaly"] {
                guard index != nil, let seq = anomaly["seq"]?.int, let kind = anomaly["kind"]?.string.flatMap(Projection.Anomaly.Kind.init),
                      let detail = anomaly["detail"]?.string else { return nil }
                index!.firstAnomaly = Projection.Anomaly(seq: seq, kind: kind, detail: detail)
            } else if let end = object["end"] {
                guard let index, end["entries"]?.int == index.entries.count, end["sessions"]?.int == index.sessions.count else { return nil }
                ended = true
            } else {
                return nil
            }
        }
        return ended ? index : nil
    }

    private static func entry(_ json: JSONValue) -> Entry? {
        guard let seq = json["seq"]?.int, let file = json["file"]?.string, let offset = json["offset"]?.int,
              let line = json["line"]?.int, let ts = json["ts"]?.string.flatMap(Timestamp.init),
              let session = json["session"]?.string, let anomalies = json["anomalies"]?.int,
              let stateJSON = json["state"], let state = try? NavigationState(json: stateJSON),
              let sessions = json["sessions"], let completed = sessions["completed"]?.int,
              case .array(let scenes)? = sessions["scenes"], case .bool(let ended)? = sessions["ended"],
              case .bool(let sawPhase)? = sessions["sawPhase"], case .bool(let inBackground)? = sessions["inBackground"] else { return nil }
        let current: SessionSummary?
        switch sessions["current"] {
        case .null?: current = nil
        case let value?: guard let decoded = SessionSummary(json: value) else { return nil }; current = decoded
        case nil: return nil
        }
        let names = scenes.compactMap(\.string)
        guard names.count == scenes.count else { return nil }
        return Entry(seq: seq, file: file, offset: offset, line: line, timestamp: ts, session: session, anomaliesBefore: anomalies,
                     state: state, sessions: SessionTracker.Checkpoint(completed: completed, current: current, scenes: names,
                                                                       ending: SessionEnding(sawEnd: ended, sawPhase: sawPhase, inBackground: inBackground)))
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
    /// A session summary as an object (the shape `navlog sessions --format json` prints).
    package mutating func session(_ session: SessionSummary) {
        raw("{")
        key("id", first: true); string(session.id)
        key("app"); if let app = session.app { string(app) } else { raw("null") }
        key("firstSeq"); integer(session.firstSeq)
        key("lastSeq"); integer(session.lastSeq)
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
