/// Writes events as log lines in the store's fixed compact form: `v`, `seq`, `ts`, `session`,
/// `type`, `scene`, `stack`, the type's own members, and `crc` last.
///
/// ```swift
/// let line = LineEncoder.encode(event) // {"v":1,"seq":7,...,"crc":"1c2b3a4d"}\n
/// ```
public enum LineEncoder {
    /// The line for `event`, with its `crc` and a trailing newline.
    public static func encode(_ event: NavigationEvent) -> [UInt8] {
        var writer = JSONWriter(capacity: 192)
        append(event, to: &writer)
        return writer.bytes
    }

    /// Appends the line for `event`, with its `crc` and a trailing newline, to `writer`.
    package static func append(_ event: NavigationEvent, to w: inout JSONWriter) {
        let lineStart = w.bytes.count
        w.raw("{\"v\":1,\"seq\":")
        w.integer(event.seq)
        w.raw(",\"ts\":\"")
        event.timestamp.append(to: &w.bytes)
        w.raw("\",\"session\":")
        w.string(event.session)
        w.key("type")
        w.string(event.action.type)
        members(of: event.action, to: &w)
        w.closeLineWithChecksum(from: lineStart)
    }

    /// The action's own members, in the order of its type's descriptor; an unknown type's as it
    /// was read.
    private static func members(of action: NavigationAction, to w: inout JSONWriter) {
        if case .unknown(_, let others) = action {
            for member in others {
                w.key(named: member.key)
                w.value(member.value)
            }
            return
        }
        action.writeMembers(to: &w)
    }
}

/// The encoder's writing of each member: its key, then its value; an optional member that is nil
/// is left out.
extension JSONWriter: EventMemberWriter {
    @inline(__always) package mutating func string(_ member: EventMember, _ value: String) {
        raw(member.key)
        string(value)
    }

    @inline(__always) package mutating func optionalString(_ member: EventMember, _ value: String?) {
        if let value { string(member, value) }
    }

    @inline(__always) package mutating func enumeration<E: FormatEnumeration>(_ member: EventMember, _ value: E) {
        string(member, value.rawValue)
    }

    @inline(__always) package mutating func optionalEnumeration<E: FormatEnumeration>(_ member: EventMember, _ value: E?) {
        if let value { enumeration(member, value) }
    }

    @inline(__always) package mutating func integer(_ member: EventMember, _ value: Int) {
        raw(member.key)
        integer(value)
    }

    @inline(__always) package mutating func optionalStringMap(_ member: EventMember, _ value: [String: String]?) {
        guard let value else { return }
        raw(member.key)
        stringMap(value)
    }

    @inline(__always) package mutating func route(_ member: EventMember, _ value: Route) {
        raw(member.key)
        route(value)
    }

    @inline(__always) package mutating func nullableRoute(_ member: EventMember, _ value: Route?) {
        raw(member.key)
        optionalRoute(value)
    }

    @inline(__always) package mutating func routes(_ member: EventMember, _ value: [Route]) {
        raw(member.key)
        routes(value)
    }

    @inline(__always) package mutating func optionalRoutes(_ member: EventMember, _ value: [Route]?) {
        if let value { routes(member, value) }
    }

    @inline(__always) package mutating func state(_ member: EventMember, _ value: NavigationState) {
        raw(member.key)
        state(value)
    }
}

extension JSONWriter {
    /// Ends the line begun at `lineStart` with its checksum, `,"crc":"xxxxxxxx"}` and a newline:
    /// the CRC-32C of the line's bytes so far, as the log's lines and the index file's carry it.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    @inline(__always) package mutating func closeLineWithChecksum(from lineStart: Int) {
        let crc = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[lineStart...])) }
        raw(",\"crc\":\"")
        // The digits written straight: `String(_:radix:)` was a twentieth of splicing a redacted
        // line (`NavlogBench redact`).
        for shift in stride(from: 28, through: 0, by: -4) { bytes.append(Self.hexDigits[Int(crc >> UInt32(shift)) & 15]) }
        raw("\"}\n")
    }
}
