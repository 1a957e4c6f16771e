/// A decoded line: the event, and whether the line carried a `crc` (which then matched).
package struct DecodedLine: Sendable {
    package var event: NavigationEvent
    package var hasCRC: Bool
}

/// Decodes one log line (without its newline) into an event, checking everything a single line can
/// show: UTF-8, JSON syntax, `crc`, `v`, required members and their types, the `ts` format.
///
/// Members may come in any order with any whitespace; unknown members are ignored; an unknown
/// `type` is kept as ``NavigationAction/unknown(type:members:)``. Whatever is wrong, the `crc` is
/// the authority: a line that ends in a `crc` that does not match its bytes is reported as
/// ``DefectKind/crcMismatch``, whatever else the damage broke.
package enum LineDecoder {
    /// The longest line the format allows, in bytes, without its newline.
    package static let maximumLineLength = 65_536
    /// The largest `seq` (2^53 − 1, exact in every JSON implementation).
    package static let maximumSeq = 9_007_199_254_740_991

    /// Decodes one line; a `cache` kept across the lines of a log makes their recurring strings once.
    package static func decode(_ line: UnsafeRawBufferPointer, cache: DecodingCache? = nil) throws(LineError) -> DecodedLine {
        if let event = CanonicalLineDecoder.decode(line, cache: cache) { return DecodedLine(event: event, hasCRC: true) }
        return try decodeAnyLayout(line)
    }

    /// Decodes the one line `bytes` hold: for the few lines read apart from a reading (a
    /// segment's first or last, a line found going backwards).
    package static func decode(bytes: ArraySlice<UInt8>) throws(LineError) -> DecodedLine {
        try bytes.withUnsafeBytes { line in Result { () throws(LineError) in try decode(line) } }.get()
    }

    /// ``decode(bytes:)``, or nil when the line does not decode, where its defect is judged elsewhere.
    package static func decoded(_ bytes: ArraySlice<UInt8>) -> DecodedLine? {
        try? decode(bytes: bytes)
    }

    /// Decodes one line of any layout, without trying the fast path for the encoder's own form
    /// first: the same result as ``decode(_:cache:)``, only slower on the lines the store writes.
    package static func decodeAnyLayout(_ line: UnsafeRawBufferPointer) throws(LineError) -> DecodedLine {
        do throws(LineError) {
            return try decodeChecked(line)
        } catch {
            if error.kind != .crcMismatch, let mismatch = tailChecksumMismatch(line) { throw mismatch }
            throw error
        }
    }

    private static func decodeChecked(_ line: UnsafeRawBufferPointer) throws(LineError) -> DecodedLine {
        guard line.count <= maximumLineLength else {
            throw LineError(.lineTooLong, at: 0, "line is \(line.count) bytes, longer than the 64 KiB limit")
        }
        if let bad = UTF8Validation.firstInvalidOffset(line) {
            throw LineError(.invalidUTF8, at: bad, "invalid UTF-8 at byte \(bad + 1) of the line")
        }
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        if scanner.atEnd { throw LineError(.blankLine, at: 0, "blank line") }
        guard scanner.peek() == 0x7B else { throw scanner.unexpected("'{': each line must be one JSON object") }
        var fields = Fields()
        try fields.scanObject(&scanner)
        try scanner.expectEnd()
        if let comma = fields.crcComma {
            let actual = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<comma]))
            guard actual == fields.crc else {
                throw LineError(.crcMismatch, at: comma, "crc \(hex8(fields.crc)) does not match the line's bytes (\(hex8(actual)))")
            }
        }
        let event = try fields.makeEvent(&scanner)
        return DecodedLine(event: event, hasCRC: fields.crcComma != nil)
    }

    /// When a damaged line still ends in `,"crc":"xxxxxxxx"}` and the checksum disagrees, that is the
    /// real finding: the line's bytes changed after they were written.
    private static func tailChecksumMismatch(_ line: UnsafeRawBufferPointer) -> LineError? {
        guard let (stored, start) = trailingChecksum(line) else { return nil }
        let actual = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<start]))
        guard actual != stored else { return nil }
        return LineError(.crcMismatch, at: start, "crc \(hex8(stored)) does not match the line's bytes (\(hex8(actual)))")
    }

    /// The checksum a line stores in its closing `,"crc":"xxxxxxxx"}`, and the offset of that comma:
    /// the checksum covers the bytes before it. Nil when the line does not end that way.
    static func trailingChecksum(_ line: UnsafeRawBufferPointer) -> (stored: UInt32, start: Int)? {
        let suffix: StaticString = #","crc":""#
        let tail = suffix.utf8CodeUnitCount + 10
        guard line.count >= tail, line[line.count - 1] == 0x7D, line[line.count - 2] == 0x22 else { return nil }
        let start = line.count - tail
        let bytes = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard memcmpEqual(bytes + start, suffix.utf8Start, suffix.utf8CodeUnitCount),
              let stored = checksum(hexDigitsAt: bytes + start + suffix.utf8CodeUnitCount) else { return nil }
        return (stored, start)
    }

    /// The value of the 8 lowercase hex digits at `p`, nil when they are not.
    ///
    /// All eight at once, as one word: every line has a checksum, and its digits are random, so a
    /// branch per digit mispredicts.
    @inline(__always) static func checksum(hexDigitsAt p: UnsafePointer<UInt8>) -> UInt32? {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        let digits = ByteLanes.atLeast(0x30, word) & ~ByteLanes.atLeast(0x3A, word)
        let letters = ByteLanes.atLeast(0x61, word) & ~ByteLanes.atLeast(0x67, word)
        guard word & ByteLanes.highBits == 0, digits | letters == ByteLanes.highBits else { return nil }
        // Each byte's value (a letter's low nibble plus 9), the first digit moved to the top byte,
        // then the nibbles packed pairwise into one 32-bit value.
        var value = ((word & 0x0F0F_0F0F_0F0F_0F0F) &+ (word >> 6 & ByteLanes.ones) &* 9).byteSwapped
        value = (value | value >> 4) & 0x00FF_00FF_00FF_00FF
        value = (value | value >> 8) & 0x0000_FFFF_0000_FFFF
        value = (value | value >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: value)
    }

    package static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// The members of one line as they are scanned, before the type says which ones it needs.
private struct Fields {
    var seen: UInt32 = 0
    /// Members whose value had the wrong shape; reported only if the type needs them.
    var shapeErrors: [(EventMember, LineError)] = []

    var v: Int64?
    var seq: Int64?
    var ts: Timestamp?
    var tsToken: JSONScanner.StringToken?
    var session: String?
    var type: JSONScanner.StringToken?
    var scene: String?
    var stack: String?
    var crc: UInt32 = 0
    var crcComma: Int?
    var app: String?
    var launch: String?
    var meta: [String: String]?
    var reason: String?
    var kind: String?
    var tab: String?
    var route: Route?
    var routeIsNull = false
    var count: Int64?
    var path: [Route]?
    var cause: String?
    var url: String?
    var outcome: String?
    var sheet: String?
    var style: String?
    var column: String?
    var visibility: String?
    var state: JSONValue?
    var from: Int64?
    var dropped: [Route]?

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
            switch member {
            case .v: v = try Self.integer(&s, member)
            case .seq: seq = try Self.integer(&s, member)
            case .count: count = try Self.integer(&s, member)
            case .from: from = try Self.integer(&s, member)
            case .ts:
                let token = try Self.stringToken(&s, member)
                tsToken = token
                ts = token.hasEscapes ? Timestamp(s.string(token))
                    : Timestamp.parse(UnsafeRawBufferPointer(start: s.base + token.start, count: token.end - token.start))
            case .type: type = try Self.stringToken(&s, member)
            case .session: session = try Self.string(&s, member)
            case .scene: scene = try Self.string(&s, member)
            case .stack: stack = try Self.string(&s, member)
            case .app: app = try Self.string(&s, member)
            case .launch: launch = try Self.string(&s, member)
            case .reason: reason = try Self.string(&s, member)
            case .kind: kind = try Self.string(&s, member)
            case .tab: tab = try Self.string(&s, member)
            case .cause: cause = try Self.string(&s, member)
            case .url: url = try Self.string(&s, member)
            case .outcome: outcome = try Self.string(&s, member)
            case .sheet: sheet = try Self.string(&s, member)
            case .style: style = try Self.string(&s, member)
            case .column: column = try Self.string(&s, member)
            case .visibility: visibility = try Self.string(&s, member)
            case .meta: meta = try RouteDecoding.stringMap(&s, member.name)
            case .route:
                if s.peek() == 0x6E, case .null = try s.readValue() {
                    routeIsNull = true
                } else {
                    route = try RouteDecoding.route(&s, member.name)
                }
            case .path: path = try RouteDecoding.routes(&s, member.name)
            case .dropped: dropped = try RouteDecoding.routes(&s, member.name)
            case .state: state = try s.readValue()
            case .crc:
                // A damaged crc member is a failed check, like a crc that does not match.
                let malformed = LineError(.crcMismatch, at: start, "'crc' must be 8 lowercase hex digits in a string")
                guard s.peek() == 0x22 else { throw malformed }
                let token = try s.readStringToken()
                guard token.end - token.start == 8, !token.hasEscapes,
                      let value = LineDecoder.checksum(hexDigitsAt: s.base + token.start) else { throw malformed }
                crc = value
            }
        } catch {
            guard error.kind == .invalidMember else { throw error }
            s.index = start
            try s.skipValue()
            shapeErrors.append((member, error))
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

    func required<T>(_ value: T?, _ member: EventMember, _ typeName: String) throws(LineError) -> T {
        if !shapeErrors.isEmpty, let error = shapeError(member) { throw error }
        guard let value else {
            throw fail(.missingMember, typeName == "event" ? "line has no '\(member.name)'" : "'\(typeName)' event has no '\(member.name)'")
        }
        return value
    }

    func optional<T>(_ value: T?, _ member: EventMember) throws(LineError) -> T? {
        if !shapeErrors.isEmpty, let error = shapeError(member) { throw error }
        return value
    }

    func nonEmpty(_ value: String?, _ member: EventMember, _ typeName: String) throws(LineError) -> String {
        let text = try required(value, member, typeName)
        guard !text.isEmpty else { throw fail(.invalidMember, "'\(member.name)' must not be empty") }
        return text
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ value: String?, _ member: EventMember, _ typeName: String) throws(LineError) -> E where E.RawValue == String {
        let text = try required(value, member, typeName)
        guard let result = E(rawValue: text) else {
            let allowed = E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw fail(.invalidMember, "'\(member.name)' is '\(text)', expecting one of \(allowed)")
        }
        return result
    }

    func optionalEnumeration<E: RawRepresentable & CaseIterable>(_ value: String?, _ member: EventMember, _ typeName: String) throws(LineError) -> E? where E.RawValue == String {
        guard try optional(value, member) != nil else { return nil }
        return try enumeration(value, member, typeName) as E
    }

    func makeEvent(_ s: inout JSONScanner) throws(LineError) -> NavigationEvent {
        let version = try required(v, .v, "event")
        guard version == 1 else {
            if version > 1 {
                throw fail(.unsupportedVersion, "format version \(version) is newer than this reader, which reads version 1; update navlog")
            }
            throw fail(.invalidMember, "'v' is \(version), expecting 1")
        }
        let seq = try required(self.seq, .seq, "event")
        guard seq >= 1, seq <= LineDecoder.maximumSeq else {
            throw fail(.invalidMember, "'seq' is \(seq), expecting an integer from 1 to 2^53-1")
        }
        let tsToken = try required(self.tsToken, .ts, "event")
        guard let ts else {
            throw fail(.invalidMember, "'ts' is '\(s.string(tsToken))', expecting RFC 3339 UTC with milliseconds such as 2026-11-29T12:00:00.123Z")
        }
        let session = try nonEmpty(self.session, .session, "event")
        let typeToken = try required(type, .type, "event")
        let action: NavigationAction
        if !typeToken.hasEscapes, let known = KnownType.match(s.base + typeToken.start, typeToken.end - typeToken.start) {
            action = try makeAction(known, s)
        } else {
            let name = s.string(typeToken)
            if let known = KnownType(rawValue: name) {
                action = try makeAction(known, s)
            } else {
                action = try makeUnknown(name, s)
            }
        }
        return NavigationEvent(seq: Int(seq), timestamp: ts, session: session, action: action)
    }

    func makeUnknown(_ name: String, _ s: JSONScanner) throws(LineError) -> NavigationAction {
        guard !name.isEmpty else { throw fail(.invalidMember, "'type' must not be empty") }
        return .unknown(type: name, members: try Self.otherMembers(s))
    }

    func makeAction(_ known: KnownType, _ s: JSONScanner) throws(LineError) -> NavigationAction {
        let t = known.rawValue
        switch known {
        case .push:
            return .push(scene: try nonEmpty(scene, .scene, t), stack: try nonEmpty(stack, .stack, t), route: try required(route, .route, t))
        case .pop:
            let n = try optional(count, .count) ?? 1
            guard n >= 1 else { throw fail(.invalidMember, "'count' is \(n), expecting at least 1") }
            return .pop(scene: try nonEmpty(scene, .scene, t), stack: try nonEmpty(stack, .stack, t), count: Int(n))
        case .tabSelect:
            return .tabSelect(scene: try nonEmpty(scene, .scene, t), tab: try nonEmpty(tab, .tab, t))
        case .replace:
            return .replace(scene: try nonEmpty(scene, .scene, t), stack: try nonEmpty(stack, .stack, t), route: try required(route, .route, t))
        case .popToRoot:
            return .popToRoot(scene: try nonEmpty(scene, .scene, t), stack: try nonEmpty(stack, .stack, t))
        case .setPath:
            return .setPath(scene: try nonEmpty(scene, .scene, t), stack: try nonEmpty(stack, .stack, t),
                            path: try required(path, .path, t), cause: try enumeration(cause, .cause, t))
        case .sheetPresent:
            return .sheetPresent(scene: try nonEmpty(scene, .scene, t), sheet: try nonEmpty(sheet, .sheet, t),
                                 route: try required(route, .route, t), style: try optionalEnumeration(style, .style, t))
        case .sheetDismiss:
            let sheet = try optional(self.sheet, .sheet)
            if sheet?.isEmpty == true { throw fail(.invalidMember, "'sheet' must not be empty") }
            return .sheetDismiss(scene: try nonEmpty(scene, .scene, t), sheet: sheet)
        case .sessionStart:
            return .sessionStart(app: try optional(app, .app), launch: try enumeration(launch, .launch, t), meta: try optional(meta, .meta))
        case .sessionEnd:
            return .sessionEnd(reason: try optional(reason, .reason))
        case .sceneOpen:
            return .sceneOpen(scene: try nonEmpty(scene, .scene, t), kind: try optional(kind, .kind))
        case .sceneClose:
            return .sceneClose(scene: try nonEmpty(scene, .scene, t), kind: try optional(kind, .kind))
        case .sceneActivate:
            return .sceneActivate(scene: try nonEmpty(scene, .scene, t))
        case .deeplink:
            let stack = try optional(self.stack, .stack)
            if stack?.isEmpty == true { throw fail(.invalidMember, "'stack' must not be empty") }
            let tab = try optional(self.tab, .tab)
            if tab?.isEmpty == true { throw fail(.invalidMember, "'tab' must not be empty") }
            return .deeplink(scene: try nonEmpty(scene, .scene, t), url: try required(url, .url, t),
                             outcome: try enumeration(outcome, .outcome, t), tab: tab, stack: stack,
                             path: try optional(path, .path))
        case .splitSelect:
            if !shapeErrors.isEmpty, let error = shapeError(.route) { throw error }
            guard route != nil || routeIsNull else { throw fail(.missingMember, "'split.select' event has no 'route' (use null to clear)") }
            return .splitSelect(scene: try nonEmpty(scene, .scene, t), column: try enumeration(column, .column, t), route: route)
        case .splitVisibility:
            return .splitVisibility(scene: try nonEmpty(scene, .scene, t), visibility: try enumeration(visibility, .visibility, t))
        case .snapshot:
            return .snapshot(state: try NavigationState(json: try required(state, .state, t)))
        case .restore:
            let from = try required(self.from, .from, t)
            guard from >= 1, from <= LineDecoder.maximumSeq else { throw fail(.invalidMember, "'from' is \(from), expecting a seq") }
            return .restore(state: try NavigationState(json: try required(state, .state, t)), from: Int(from),
                            dropped: try required(dropped, .dropped, t))
        }
    }

    /// For an unknown type: every member but the common ones, in their original order.
    static func otherMembers(_ s: JSONScanner) throws(LineError) -> [JSONMember] {
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: s.base, count: s.end))
        guard case .object(let members) = try scanner.readValue() else { return [] }
        let common: Set<String> = ["v", "seq", "ts", "session", "type", "crc"]
        return members.filter { !common.contains($0.key) }
    }
}

/// The types of event format v1, matched from a line's bytes without making a `String`.
enum KnownType: String, CaseIterable {
    case sessionStart = "session.start", sessionEnd = "session.end", sceneOpen = "scene.open"
    case sceneClose = "scene.close", sceneActivate = "scene.activate", tabSelect = "tab.select"
    case push, pop, popToRoot, replace, setPath, deeplink
    case sheetPresent = "sheet.present", sheetDismiss = "sheet.dismiss"
    case splitSelect = "split.select", splitVisibility = "split.visibility", snapshot, restore

    /// Compares with literals rather than a table of names: decoding threads that retained and
    /// released a shared table's storage for every line would contend for its reference count.
    static func match(_ p: UnsafePointer<UInt8>, _ count: Int) -> KnownType? {
        @inline(__always) func eq(_ literal: StaticString) -> Bool {
            count == literal.utf8CodeUnitCount && memcmpEqual(p, literal.utf8Start, count)
        }
        switch count {
        case 3: return eq("pop") ? .pop : nil
        case 4: return eq("push") ? .push : nil
        case 7: return eq("replace") ? .replace : eq("setPath") ? .setPath : eq("restore") ? .restore : nil
        case 8: return eq("deeplink") ? .deeplink : eq("snapshot") ? .snapshot : nil
        case 9: return eq("popToRoot") ? .popToRoot : nil
        case 10: return eq("tab.select") ? .tabSelect : eq("scene.open") ? .sceneOpen : nil
        case 11: return eq("session.end") ? .sessionEnd : eq("scene.close") ? .sceneClose : nil
        case 12: return eq("split.select") ? .splitSelect : nil
        case 13: return eq("session.start") ? .sessionStart : eq("sheet.present") ? .sheetPresent : eq("sheet.dismiss") ? .sheetDismiss : nil
        case 14: return eq("scene.activate") ? .sceneActivate : nil
        case 16: return eq("split.visibility") ? .splitVisibility : nil
        default: return nil
        }
    }
}
