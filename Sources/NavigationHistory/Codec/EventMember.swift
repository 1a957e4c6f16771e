/// The members of an event line that event format v1 gives a meaning to.
package enum EventMember: Int, CaseIterable, Sendable {
    case v, seq, ts, session, type, scene, stack, crc
    case app, launch, meta, reason, kind, tab, route, count, path, cause
    case url, outcome, sheet, style, column, visibility, state, from, dropped

    package var name: String { String(describing: self) }

    @inline(__always) package var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The member a key names, from its raw bytes (keys with escapes are decoded first).
    @inline(__always)
    package static func named(_ p: UnsafePointer<UInt8>, _ count: Int) -> EventMember? {
        @inline(__always) func eq(_ literal: StaticString) -> Bool {
            count == literal.utf8CodeUnitCount && memcmpEqual(p, literal.utf8Start, count)
        }
        guard count > 0 else { return nil }
        switch p[0] {
        case 0x76: return count == 1 ? .v : eq("visibility") ? .visibility : nil
        case 0x73:
            if eq("seq") { return .seq }
            if eq("session") { return .session }
            if eq("scene") { return .scene }
            if eq("stack") { return .stack }
            if eq("sheet") { return .sheet }
            if eq("style") { return .style }
            if eq("state") { return .state }
            return nil
        case 0x74:
            if eq("ts") { return .ts }
            if eq("type") { return .type }
            if eq("tab") { return .tab }
            return nil
        case 0x63:
            if eq("crc") { return .crc }
            if eq("count") { return .count }
            if eq("cause") { return .cause }
            if eq("column") { return .column }
            return nil
        case 0x61: return eq("app") ? .app : nil
        case 0x6C: return eq("launch") ? .launch : nil
        case 0x6D: return eq("meta") ? .meta : nil
        case 0x72:
            if eq("reason") { return .reason }
            if eq("route") { return .route }
            return nil
        case 0x6B: return eq("kind") ? .kind : nil
        case 0x70: return eq("path") ? .path : nil
        case 0x75: return eq("url") ? .url : nil
        case 0x6F: return eq("outcome") ? .outcome : nil
        case 0x66: return eq("from") ? .from : nil
        case 0x64: return eq("dropped") ? .dropped : nil
        default: return nil
        }
    }
}
