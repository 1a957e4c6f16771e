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

    /// The action's own members, by the rules of its type's descriptor; an unknown type's as it
    /// was read.
    private static func members(of action: NavigationAction, to w: inout JSONWriter) {
        guard let type = action.eventType else {
            if case .unknown(_, let others) = action {
                for member in others {
                    w.key(named: member.key)
                    w.value(member.value)
                }
            }
            return
        }
        let values = action.memberValues
        for rule in MemberRules.all.members(of: type) {
            let member = rule.member
            switch member.shape {
            case .identifier, .text:
                guard let text = values[string: member] else { continue }
                w.raw(MemberKeys.all.key(of: member))
                w.string(text)
            case .enumeration:
                guard let name = values[caseName: member] else { continue }
                w.raw(MemberKeys.all.key(of: member))
                w.string(name)
            case .count, .seq:
                guard let value = values[integer: member] else { continue }
                w.raw(MemberKeys.all.key(of: member))
                w.integer(value)
            case .stringMap:
                guard let map = values.meta else { continue }
                w.raw(MemberKeys.all.key(of: member))
                w.stringMap(map)
            case .route:
                guard values.route != nil || rule.presence == .nullable else { continue }
                w.raw(MemberKeys.all.key(of: member))
                w.optionalRoute(values.route)
            case .routes:
                guard let routes = values[routes: member] else { continue }
                w.raw(MemberKeys.all.key(of: member))
                w.routes(routes)
            case .state:
                guard let state = values.state else { continue }
                w.raw(MemberKeys.all.key(of: member))
                w.state(state)
            case .common:
                continue
            }
        }
    }
}

extension JSONWriter {
    /// Ends the line begun at `lineStart` with its checksum, `,"crc":"xxxxxxxx"}` and a newline:
    /// the CRC-32C of the line's bytes so far, as the log's lines and the index file's carry it.
    @inline(__always) package mutating func closeLineWithChecksum(from lineStart: Int) {
        let crc = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[lineStart...])) }
        raw(",\"crc\":\"")
        raw(LineDecoder.hex8(crc))
        raw("\"}\n")
    }
}
