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
