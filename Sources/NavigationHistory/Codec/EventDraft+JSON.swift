extension EventDraft {
    /// Parses an event written as one JSON object, as scripts give it to `navlog append`.
    ///
    /// The members are those of event format v1. `seq` and `crc` may be left out and are ignored
    /// when present: the store numbers and checksums what it writes. `v` defaults to 1, `ts` to
    /// `now` and `session` to `defaultSession`. Every check of the reader applies.
    ///
    /// ```swift
    /// let draft = try EventDraft(json: #"{"type":"tab.select","scene":"main","tab":"search"}"#, defaultSession: "cli")
    /// ```
    ///
    /// - Throws: ``NavigationHistoryError`` with code `invalidEvent` saying what is wrong, or
    ///   `unsupportedVersion` for a `v` above 1.
    public init(json: String, defaultSession: String?, now: Timestamp = .now) throws {
        var text = json
        let parsed = text.withUTF8 { bytes in
            Result { () throws(LineError) in try JSONScanner.parse(UnsafeRawBufferPointer(bytes)) }
        }
        let value: JSONValue
        switch parsed {
        case .success(let success): value = success
        case .failure(let error): throw NavigationHistoryError(code: .invalidEvent, message: "not JSON: \(error.detail)")
        }
        guard case .object(let given) = value else {
            throw NavigationHistoryError(code: .invalidEvent, message: "an event must be one JSON object")
        }
        var members = given.filter { $0.key != "seq" && $0.key != "crc" }
        if !members.contains(where: { $0.key == "v" }) { members.insert(JSONMember("v", .number("1")), at: 0) }
        members.insert(JSONMember("seq", .number("1")), at: 1)
        if !members.contains(where: { $0.key == "ts" }) { members.append(JSONMember("ts", .string(now.description))) }
        if !members.contains(where: { $0.key == "session" }) {
            guard let defaultSession else {
                throw NavigationHistoryError(code: .invalidEvent, message: "the event has no 'session' (give one, or a default session)")
            }
            members.append(JSONMember("session", .string(defaultSession)))
        }
        var writer = JSONWriter()
        writer.value(.object(members))
        let decoded = writer.bytes.withUnsafeBytes { line in
            Result { () throws(LineError) in try LineDecoder.decode(line) }
        }
        switch decoded {
        case .success(let line):
            self.init(action: line.event.action, session: line.event.session, timestamp: line.event.timestamp)
        case .failure(let error):
            throw NavigationHistoryError(code: error.kind == .unsupportedVersion ? .unsupportedVersion : .invalidEvent,
                                         message: "\(error.kind): \(error.detail)")
        }
    }
}
