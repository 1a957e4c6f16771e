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

    private static func members(of action: NavigationAction, to w: inout JSONWriter) {
        func scene(_ id: String) { w.key("scene"); w.string(id) }
        func stack(_ id: String) { w.key("stack"); w.string(id) }
        func optionalString(_ name: StaticString, _ value: String?) {
            if let value { w.key(name); w.string(value) }
        }
        switch action {
        case .sessionStart(let app, let launch, let meta):
            optionalString("app", app)
            w.key("launch"); w.string(launch.rawValue)
            if let meta { w.key("meta"); w.stringMap(meta) }
        case .sessionEnd(let reason):
            optionalString("reason", reason)
        case .sceneOpen(let id, let kind), .sceneClose(let id, let kind):
            scene(id)
            optionalString("kind", kind)
        case .sceneActivate(let id):
            scene(id)
        case .tabSelect(let id, let tab):
            scene(id)
            w.key("tab"); w.string(tab)
        case .push(let id, let stackID, let route), .replace(let id, let stackID, let route):
            scene(id); stack(stackID)
            w.key("route"); w.route(route)
        case .pop(let id, let stackID, let count):
            scene(id); stack(stackID)
            w.key("count"); w.integer(count)
        case .popToRoot(let id, let stackID):
            scene(id); stack(stackID)
        case .setPath(let id, let stackID, let path, let cause):
            scene(id); stack(stackID)
            w.key("path"); w.routes(path)
            w.key("cause"); w.string(cause.rawValue)
        case .deeplink(let id, let url, let outcome, let tab, let stackID, let path):
            scene(id)
            if let stackID { stack(stackID) }
            w.key("url"); w.string(url)
            w.key("outcome"); w.string(outcome.rawValue)
            optionalString("tab", tab)
            if let path { w.key("path"); w.routes(path) }
        case .sheetPresent(let id, let sheet, let route, let style):
            scene(id)
            w.key("sheet"); w.string(sheet)
            w.key("route"); w.route(route)
            optionalString("style", style?.rawValue)
        case .sheetDismiss(let id, let sheet):
            scene(id)
            optionalString("sheet", sheet)
        case .splitSelect(let id, let column, let route):
            scene(id)
            w.key("column"); w.string(column.rawValue)
            w.key("route"); w.optionalRoute(route)
        case .splitVisibility(let id, let visibility):
            scene(id)
            w.key("visibility"); w.string(visibility.rawValue)
        case .snapshot(let state):
            w.key("state"); w.state(state)
        case .restore(let state, let from, let dropped):
            w.key("state"); w.state(state)
            w.key("from"); w.integer(from)
            w.key("dropped"); w.routes(dropped)
        case .unknown(_, let others):
            for member in others {
                w.key(named: member.key)
                w.value(member.value)
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
