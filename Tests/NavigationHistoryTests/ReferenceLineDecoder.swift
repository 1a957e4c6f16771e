@testable import NavigationHistory

/// The general decoder as it was before it read lines in one scan (main at 46076fb), kept as the
/// reference the new one is held to, error for error: the members of one line as it scanned them, before the type says which ones it
/// needs: the common ones apart, the rest by their ``EventMember/shape`` into ``EventMemberValues``.
struct ReferenceLineFields {
    var seen: UInt32 = 0
    /// The members given as `null`: there for a type that allows it, missing for any other.
    var nulls: UInt32 = 0
    /// Members whose value had the wrong shape; reported only if the type has them.
    var shapeErrors: [(EventMember, LineError)] = []

    var v: Int64?
    var seq: Int64?
    var ts: Timestamp?
    var tsToken: JSONScanner.StringToken?
    var session: String?
    var type: JSONScanner.StringToken?
    var crc: UInt32 = 0
    var crcComma: Int?
    var values = EventMemberValues()

    mutating func scanObject(_ s: inout JSONScanner) throws(LineError) {
        s.index += 1
        s.skipWhitespace()
        if s.peek() == 0x7D { s.index += 1; return }
        var lastComma: Int?
        while true {
            s.skipWhitespace()
            let keyStart = s.index
            let keyToken = try s.readStringToken()
            try s.expect(0x3A, "':'")
            s.skipWhitespace()
            let member: EventMember?
            if keyToken.hasEscapes {
                var key = s.string(keyToken)
                member = key.withUTF8 { $0.isEmpty ? nil : EventMember.named($0.baseAddress!, $0.count) }
            } else {
                member = EventMember.named(s.base + keyToken.start, keyToken.end - keyToken.start)
            }
            if let member {
                guard seen & member.bit == 0 else {
                    throw LineError(.invalidMember, at: keyStart, "duplicate member '\(member.name)'")
                }
                seen |= member.bit
                if member == .crc { crcComma = lastComma }
                try read(member, &s)
            } else {
                try s.skipValue()
            }
            s.skipWhitespace()
            if s.peek() == 0x2C {
                if member == .crc { throw LineError(.invalidMember, at: s.index, "'crc' must be the last member") }
                lastComma = s.index
                s.index += 1
                s.skipWhitespace()
                if s.peek() == 0x7D { throw s.error(JSONScanner.trailingCommaMessage, at: lastComma) }
                continue
            }
            try s.expect(0x7D, "',' or '}'")
            return
        }
    }

    /// Reads a known member's value with the shape the format gives it. A value of another shape is
    /// skipped (still validated as JSON) and remembered as a shape error.
    mutating func read(_ member: EventMember, _ s: inout JSONScanner) throws(LineError) {
        let start = s.index
        do throws(LineError) {
            switch member.shape {
            case .common: try readCommon(member, &s)
            case .identifier:
                let text = try Self.string(&s, member)
                guard !text.isEmpty else { throw LineError(.invalidMember, at: start, "'\(member.name)' must not be empty") }
                values[string: member] = text
            case .text: values[string: member] = try Self.string(&s, member)
            case .enumeration:
                let text = try Self.string(&s, member)
                guard member.caseNames.contains(text) else {
                    let allowed = member.caseNames.map { "'\($0)'" }.joined(separator: ", ")
                    throw LineError(.invalidMember, at: start, "'\(member.name)' is '\(text)', expecting one of \(allowed)")
                }
                values[string: member] = text
            case .count:
                let n = try Self.integer(&s, member)
                guard n >= 1 else { throw LineError(.invalidMember, at: start, "'\(member.name)' is \(n), expecting at least 1") }
                values[integer: member] = Int(n)
            case .seq:
                let n = try Self.integer(&s, member)
                guard n >= 1, n <= LineDecoder.maximumSeq else {
                    throw LineError(.invalidMember, at: start, "'\(member.name)' is \(n), expecting a seq")
                }
                values[integer: member] = Int(n)
            case .stringMap: values.meta = try RouteDecoding.stringMap(&s, member.name)
            case .route:
                if s.peek() == 0x6E, case .null = try s.readValue() {
                    nulls |= member.bit
                    values.routeIsNull = true
                } else {
                    values.route = try RouteDecoding.route(&s, member.name)
                }
            case .routes: values[routes: member] = try RouteDecoding.routes(&s, member.name)
            case .state: values.state = try NavigationState(json: try s.readValue())
            }
        } catch {
            guard error.kind == .invalidMember else { throw error }
            s.index = start
            try s.skipValue()
            shapeErrors.append((member, error))
        }
    }

    private mutating func readCommon(_ member: EventMember, _ s: inout JSONScanner) throws(LineError) {
        switch member {
        case .v: v = try Self.integer(&s, member)
        case .seq: seq = try Self.integer(&s, member)
        case .ts:
            let token = try Self.stringToken(&s, member)
            tsToken = token
            ts = token.hasEscapes ? Timestamp(s.string(token))
                : Timestamp.parse(UnsafeRawBufferPointer(start: s.base + token.start, count: token.end - token.start))
        case .type: type = try Self.stringToken(&s, member)
        case .session: session = try Self.string(&s, member)
        case .crc:
            // A damaged crc member is a failed check, like a crc that does not match.
            let malformed = LineError(.crcMismatch, at: s.index, "'crc' must be 8 lowercase hex digits in a string")
            guard s.peek() == 0x22 else { throw malformed }
            let token = try s.readStringToken()
            guard token.end - token.start == 8, !token.hasEscapes,
                  let value = LineDecoder.checksum(hexDigitsAt: s.base + token.start) else { throw malformed }
            crc = value
        default: break
        }
    }

    static func integer(_ s: inout JSONScanner, _ member: EventMember) throws(LineError) -> Int64 {
        let at = s.index
        let byte = s.peek()
        guard byte == 0x2D || byte &- 0x30 < 10 else {
            throw LineError(.invalidMember, at: at, "'\(member.name)' must be an integer")
        }
        let token = try s.readNumberToken()
        guard let value = s.integer(token) else {
            let text = String(decoding: UnsafeBufferPointer(start: s.base + token.start, count: token.end - token.start), as: UTF8.self)
            let isWhole = Double(text).map { $0 == $0.rounded() } ?? false
            throw LineError(.invalidMember, at: at, isWhole ? "'\(member.name)' is \(text), beyond 64-bit integers"
                                                            : "'\(member.name)' is \(text), expecting an integer")
        }
        return value
    }

    static func stringToken(_ s: inout JSONScanner, _ member: EventMember) throws(LineError) -> JSONScanner.StringToken {
        guard s.peek() == 0x22 else { throw LineError(.invalidMember, at: s.index, "'\(member.name)' must be a string") }
        return try s.readStringToken()
    }

    static func string(_ s: inout JSONScanner, _ member: EventMember) throws(LineError) -> String {
        s.string(try stringToken(&s, member))
    }

    // MARK: Building the event

    func fail(_ kind: DefectKind, _ detail: String) -> LineError { LineError(kind, at: 0, detail) }

    func shapeError(_ member: EventMember) -> LineError? {
        for (failed, error) in shapeErrors where failed == member { return error }
        return nil
    }

    func required<T>(_ value: T?, _ member: EventMember) throws(LineError) -> T {
        if !shapeErrors.isEmpty, let error = shapeError(member) { throw error }
        guard let value else { throw fail(.missingMember, "line has no '\(member.name)'") }
        return value
    }

    func makeEvent(_ s: inout JSONScanner) throws(LineError) -> NavigationEvent {
        let version = try required(v, .v)
        guard version == 1 else {
            if version > 1 {
                throw fail(.unsupportedVersion, "format version \(version) is newer than this reader, which reads version 1; update navlog")
            }
            throw fail(.invalidMember, "'v' is \(version), expecting 1")
        }
        let seq = try required(self.seq, .seq)
        guard seq >= 1, seq <= LineDecoder.maximumSeq else {
            throw fail(.invalidMember, "'seq' is \(seq), expecting an integer from 1 to 2^53-1")
        }
        let tsToken = try required(self.tsToken, .ts)
        guard let ts else {
            throw fail(.invalidMember, "'ts' is '\(s.string(tsToken))', expecting RFC 3339 UTC with milliseconds such as 2026-11-29T12:00:00.123Z")
        }
        let session = try required(self.session, .session)
        guard !session.isEmpty else { throw fail(.invalidMember, "'session' must not be empty") }
        let typeToken = try required(type, .type)
        let action: NavigationAction
        if !typeToken.hasEscapes, let known = EventType.named(s.base + typeToken.start, typeToken.end - typeToken.start) {
            action = try makeAction(known)
        } else {
            let name = s.string(typeToken)
            if let known = EventType(rawValue: name) {
                action = try makeAction(known)
            } else {
                guard !name.isEmpty else { throw fail(.invalidMember, "'type' must not be empty") }
                action = .unknown(type: name, members: try Self.otherMembers(s))
            }
        }
        return NavigationEvent(seq: Int(seq), timestamp: ts, session: session, action: action)
    }

    /// The action of a known type, its members checked by the rules of its descriptor.
    func makeAction(_ type: EventType) throws(LineError) -> NavigationAction {
        for rule in type.descriptor.members {
            if !shapeErrors.isEmpty, let error = shapeError(rule.member) { throw error }
            let given = seen & rule.member.bit != 0 && (nulls & rule.member.bit == 0 || rule.presence == .nullable)
            guard !given else { continue }
            switch rule.presence {
            case .optional: continue
            case .required: throw fail(.missingMember, "'\(type.rawValue)' event has no '\(rule.member.name)'")
            case .nullable: throw fail(.missingMember, "'\(type.rawValue)' event has no '\(rule.member.name)' (use null to clear)")
            }
        }
        var reader = EventMemberValues.Reader(values)
        guard let action = NavigationAction(type, reading: &reader) else {
            throw fail(.invalidMember, "'\(type.rawValue)' event could not be made of its members")
        }
        return action
    }

    /// For an unknown type: every member but the common ones, in their original order.
    static func otherMembers(_ s: JSONScanner) throws(LineError) -> [JSONMember] {
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: s.base, count: s.end))
        guard case .object(let members) = try scanner.readValue() else { return [] }
        let common: Set<String> = ["v", "seq", "ts", "session", "type", "crc"]
        return members.filter { !common.contains($0.key) }
    }
}

/// The general decoder's entry as it was: UTF-8 first, then the scan, the crc, the event; any
/// failure but a crc mismatch is then reported as one when the line ends in a crc that disagrees.
enum ReferenceLineDecoder {
    static func decode(_ line: UnsafeRawBufferPointer) throws(LineError) -> DecodedLine {
        do throws(LineError) {
            return try decodeChecked(line)
        } catch {
            if error.kind != .crcMismatch, let (stored, start) = LineDecoder.trailingChecksum(line) {
                let actual = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<start]))
                if actual != stored {
                    throw LineError(.crcMismatch, at: start, "crc \(LineDecoder.hex8(stored)) does not match the line's bytes (\(LineDecoder.hex8(actual)))")
                }
            }
            throw error
        }
    }

    private static func decodeChecked(_ line: UnsafeRawBufferPointer) throws(LineError) -> DecodedLine {
        guard line.count <= LineDecoder.maximumLineLength else {
            throw LineError(.lineTooLong, at: 0, "line is \(line.count) bytes, longer than the 64 KiB limit")
        }
        if let bad = UTF8Validation.firstInvalidOffset(line) {
            throw LineError(.invalidUTF8, at: bad, "invalid UTF-8 at byte \(bad + 1) of the line")
        }
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        if scanner.atEnd { throw LineError(.blankLine, at: 0, "blank line") }
        guard scanner.peek() == 0x7B else { throw scanner.unexpected("'{': each line must be one JSON object") }
        var fields = ReferenceLineFields()
        try fields.scanObject(&scanner)
        try scanner.expectEnd()
        if let comma = fields.crcComma {
            let actual = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<comma]))
            guard actual == fields.crc else {
                throw LineError(.crcMismatch, at: comma, "crc \(LineDecoder.hex8(fields.crc)) does not match the line's bytes (\(LineDecoder.hex8(actual)))")
            }
        }
        let event = try fields.makeEvent(&scanner)
        return DecodedLine(event: event, hasCRC: fields.crcComma != nil)
    }
}
