extension EventMember {
    /// The member's key as the encoder writes it after the member before: `,"name":`. Literals,
    /// so that where the member is a constant the encoder appends them and the fast decoder
    /// compares them as a word or two; read from a table, they cost each a tenth more
    /// instructions (callgrind: `navlog generate`, `navlog paths`). A test holds them to
    /// ``name``.
    @inline(__always) package var key: StaticString {
        switch self {
        case .v: ",\"v\":"
        case .seq: ",\"seq\":"
        case .ts: ",\"ts\":"
        case .session: ",\"session\":"
        case .type: ",\"type\":"
        case .scene: ",\"scene\":"
        case .stack: ",\"stack\":"
        case .crc: ",\"crc\":"
        case .app: ",\"app\":"
        case .launch: ",\"launch\":"
        case .meta: ",\"meta\":"
        case .reason: ",\"reason\":"
        case .kind: ",\"kind\":"
        case .tab: ",\"tab\":"
        case .route: ",\"route\":"
        case .count: ",\"count\":"
        case .path: ",\"path\":"
        case .cause: ",\"cause\":"
        case .url: ",\"url\":"
        case .outcome: ",\"outcome\":"
        case .sheet: ",\"sheet\":"
        case .style: ",\"style\":"
        case .column: ",\"column\":"
        case .visibility: ",\"visibility\":"
        case .state: ",\"state\":"
        case .from: ",\"from\":"
        case .dropped: ",\"dropped\":"
        case .phase: ",\"phase\":"
        }
    }
}

extension EventMember {
    /// The member the `count` bytes at `p` name, of which `readable` bytes may be read: a switch
    /// on the name's bytes as one word, masked to its length, when eight may be read; else
    /// ``named(_:_:)``. The general decoder looks up the keys of a line so that it has not seen
    /// on the line before; a test holds it to ``named(_:_:)`` for every name.
    @inline(__always)
    static func matching(_ p: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> EventMember? {
        guard readable >= 8, count <= 8 else {
            guard count == 10, readable >= 10 else { return named(p, count) }
            // The only name longer than eight bytes.
            let raw = UnsafeRawPointer(p)
            return UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) == 0x696C_6962_6973_6976   // visibili
                && UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)) == 0x7974 ? .visibility : nil   // ty
        }
        // No name holds a zero byte, so the masked word tells names of different lengths apart.
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) & ((1 << UInt64(count * 8)) &- 1)
        switch word {
        case 0x76: return .v
        case 0x716573: return .seq
        case 0x7374: return .ts
        case 0x6E6F6973736573: return .session
        case 0x65707974: return .type
        case 0x656E656373: return .scene
        case 0x6B63617473: return .stack
        case 0x637263: return .crc
        case 0x707061: return .app
        case 0x68636E75616C: return .launch
        case 0x6174656D: return .meta
        case 0x6E6F73616572: return .reason
        case 0x646E696B: return .kind
        case 0x626174: return .tab
        case 0x6574756F72: return .route
        case 0x746E756F63: return .count
        case 0x68746170: return .path
        case 0x6573756163: return .cause
        case 0x6C7275: return .url
        case 0x656D6F6374756F: return .outcome
        case 0x7465656873: return .sheet
        case 0x656C797473: return .style
        case 0x6E6D756C6F63: return .column
        case 0x6574617473: return .state
        case 0x6D6F7266: return .from
        case 0x646570706F7264: return .dropped
        case 0x6573616870: return .phase
        default: return nil
        }
    }
}
