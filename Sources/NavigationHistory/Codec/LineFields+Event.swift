/// Building the event of a scanned line: the common members checked in their order, then the
/// type's own members read straight from the line by ``NavigationAction/init(_:reading:)``. When
/// that reading fails, the descriptor's rules are walked in their order to say why, as they
/// always were: the reader refuses exactly what they refuse, and only then are they walked.
extension LineFields {
    func fail(_ kind: DefectKind, _ detail: String) -> LineError { LineError(kind, at: 0, detail) }

    /// Why a member the type has cannot be taken, if it cannot: a value of the wrong shape.
    ///
    /// Mutating though it changes nothing, as are the other helpers ``makeEvent()`` calls: a
    /// method that borrows the fields was handed a copy of all of them (304 bytes), four times a
    /// line (`NavlogBench read --other-layout`).
    mutating func shapeError(_ member: EventMember) -> LineError? {
        if decoded.rare != nil { for (failed, error) in decoded.rare!.shapeErrors where failed == member { return error } }
        guard seen & member.bit != 0 else { return nil }
        switch member.shape {
        case .identifier, .text, .enumeration, .common: break
        default: return nil
        }
        if member == .v || member == .seq || member == .crc { return nil }
        let at = valueStart(member)
        guard let token = token(member) else { return LineError(.invalidMember, at: at, "'\(member.name)' must be a string") }
        switch member.shape {
        case .identifier:
            guard token.end > token.start else { return LineError(.invalidMember, at: at, "'\(member.name)' must not be empty") }
        case .enumeration:
            let text = scanner.string(token)
            guard member.caseNames.contains(text) else {
                let allowed = member.caseNames.map { "'\($0)'" }.joined(separator: ", ")
                return LineError(.invalidMember, at: at, "'\(member.name)' is '\(text)', expecting one of \(allowed)")
            }
        default: break
        }
        return nil
    }

    /// A scanner over the line, for making strings of tokens.
    @inline(__always) var scanner: JSONScanner { JSONScanner(UnsafeRawBufferPointer(start: base, count: lineLength)) }

    /// A common member's value. One that is there was of its shape: each member is read once.
    @inline(__always) mutating func required<T>(_ value: T?, _ member: EventMember) throws(LineError) -> T {
        if let value { return value }
        if let error = shapeError(member) { throw error }
        guard let value else { throw fail(.missingMember, "line has no '\(member.name)'") }
        return value
    }

    mutating func makeEvent() throws(LineError) -> NavigationEvent {
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
        let tsToken = try required(seen & EventMember.ts.bit != 0 ? token(.ts) : nil, .ts)
        guard let ts = timestamp(tsToken) else {
            throw fail(.invalidMember, "'ts' is '\(scanner.string(tsToken))', expecting RFC 3339 UTC with milliseconds such as 2026-11-29T12:00:00.123Z")
        }
        let sessionToken = try required(seen & EventMember.session.bit != 0 ? token(.session) : nil, .session)
        guard sessionToken.end > sessionToken.start else { throw fail(.invalidMember, "'session' must not be empty") }
        let session = string(sessionToken, recent: .session)
        let typeToken = try required(seen & EventMember.type.bit != 0 ? token(.type) : nil, .type)
        let action: NavigationAction
        if !typeToken.hasEscapes, let known = Self.type(base + typeToken.start, typeToken.end - typeToken.start) {
            action = try makeAction(known)
        } else {
            let name = scanner.string(typeToken)
            if let known = EventType(rawValue: name) {
                action = try makeAction(known)
            } else {
                guard !name.isEmpty else { throw fail(.invalidMember, "'type' must not be empty") }
                action = .unknown(type: name, members: try Self.otherMembers(scanner))
            }
        }
        return NavigationEvent(seq: Int(seq), timestamp: ts, session: session, action: action)
    }

    /// The type the `count` bytes at `p`, a string without escapes, name: `push` and `pop`, the
    /// commonest, compared as a word, the others looked up ("read: other layout 1 core",
    /// `NavlogBench read --other-layout`).
    @inline(__always) static func type(_ p: UnsafePointer<UInt8>, _ count: Int) -> EventType? {
        let raw = UnsafeRawPointer(p)
        if count == 4, UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)) == 0x6873_7570 { return .push }   // push
        if count == 3, UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)) == 0x6F70, p[2] == 0x70 { return .pop }   // pop
        return EventType.named(p, count)
    }

    /// The timestamp a `ts` token holds: a 24-byte one from the cache, which reads it as
    /// ``Timestamp/parse(_:)`` does.
    @inline(__always) mutating func timestamp(_ token: JSONScanner.StringToken) -> Timestamp? {
        if token.hasEscapes { return Timestamp(scanner.string(token)) }
        let bytes = UnsafeRawBufferPointer(start: base + token.start, count: token.end - token.start)
        if let cache, bytes.count == 24 { return cache.timestamp(bytes) }
        return Timestamp.parse(bytes)
    }

    /// The action of a known type: read by the type's reader, or, when that fails, the rule of its
    /// descriptor that the line breaks.
    mutating func makeAction(_ type: EventType) throws(LineError) -> NavigationAction {
        if let action = NavigationAction(type, reading: &self) { return action }
        for rule in type.descriptor.members {
            if let error = shapeError(rule.member) { throw error }
            let given = seen & rule.member.bit != 0 && (nulls & rule.member.bit == 0 || rule.presence == .nullable)
            guard !given else { continue }
            switch rule.presence {
            case .optional: continue
            case .required: throw fail(.missingMember, "'\(type.rawValue)' event has no '\(rule.member.name)'")
            case .nullable: throw fail(.missingMember, "'\(type.rawValue)' event has no '\(rule.member.name)' (use null to clear)")
            }
        }
        throw fail(.invalidMember, "'\(type.rawValue)' event could not be made of its members")
    }

    /// For an unknown type: every member but the common ones, in their original order.
    static func otherMembers(_ s: JSONScanner) throws(LineError) -> [JSONMember] {
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: s.base, count: s.end))
        guard case .object(let members) = try scanner.readValue() else { return [] }
        let common: Set<String> = ["v", "seq", "ts", "session", "type", "crc"]
        return members.filter { !common.contains($0.key) }
    }

    // MARK: Strings

    /// The text of a string token: from the cache when it has no escapes, compared first with the
    /// string `recent` held on the line before when there is one.
    @inline(__always) mutating func string(_ token: JSONScanner.StringToken, recent: DecodingCache.Member? = nil) -> String {
        guard let cache, !token.hasEscapes else { return scanner.string(token) }
        let p = base + token.start, count = token.end - token.start, readable = lineLength - token.start
        guard let recent, readable >= 16 else { return cache.string(p, count, readable: readable) }
        if let (text, length, _) = cache.recentString(of: recent, at: p), length == count { return text }
        let text = cache.string(p, count, readable: readable)
        cache.keep(text, of: recent, madeOf: p, count)
        return text
    }

    /// The string a member holds, when it is one of its shape; nil when it is absent or not.
    @inline(__always) mutating func text(_ member: EventMember) -> String?? {
        guard seen & member.bit != 0 else { return .some(nil) }
        guard let token = token(member), member.shape != .identifier || token.end > token.start else { return nil }
        let recent: DecodingCache.Member? = member == .scene ? .scene : member == .stack ? .stack : nil
        return .some(string(token, recent: recent))
    }
}

/// The general decoder's reader: each value taken from the line as the type asks for it. Nil for
/// any member the descriptor's rules would refuse, which ``LineFields/makeAction(_:)`` then names.
extension LineFields: EventMemberReader {
    /// Inlined into each type's reader rather than called for each string member: 1.7% fewer
    /// instructions (callgrind, "read: other layout 1 core").
    @inline(__always) mutating func string(_ member: EventMember) -> String? { text(member) ?? nil }
    mutating func optionalString(_ member: EventMember) -> String?? { text(member) }

    mutating func enumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E? {
        guard seen & member.bit != 0, let token = token(member) else { return nil }
        if token.hasEscapes { return E(rawValue: scanner.string(token)) }
        return E.names.value(named: base + token.start, token.end - token.start)
    }

    mutating func optionalEnumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E?? {
        guard seen & member.bit != 0 else { return .some(nil) }
        return enumeration(member, type).map { .some($0) }
    }

    mutating func integer(_ member: EventMember) -> Int? { member == .count ? decoded.count : member == .from ? decoded.from : nil }

    mutating func optionalInteger(_ member: EventMember) -> Int?? {
        guard seen & member.bit != 0 else { return .some(nil) }
        return integer(member).map { .some($0) }
    }

    mutating func optionalStringMap(_ member: EventMember) -> [String: String]?? {
        guard seen & member.bit != 0 else { return .some(nil) }
        return (decoded.rare?.meta.take()).map { .some($0) }
    }

    mutating func route(_ member: EventMember) -> Route? { decoded.route.take() }

    mutating func nullableRoute(_ member: EventMember) -> Route?? { decoded.routeIsNull ? .some(nil) : decoded.route.take().map { .some($0) } }

    mutating func routes(_ member: EventMember) -> [Route]? { member == .path ? decoded.rare?.path.take() : decoded.rare?.dropped.take() }

    mutating func optionalRoutes(_ member: EventMember) -> [Route]?? {
        guard seen & member.bit != 0 else { return .some(nil) }
        return routes(member).map { .some($0) }
    }

    mutating func state(_ member: EventMember) -> NavigationState? { decoded.rare?.state.take() }
}
