/// Writes compact JSON into a byte buffer: the store's line format and every tool's JSON output.
///
/// Strings are escaped minimally (quote, backslash, control characters); everything else is
/// written as UTF-8, so the output is the shortest valid form.
package struct JSONWriter {
    package var bytes: [UInt8] = []

    package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    @inline(__always) package mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }


    package mutating func string(_ text: String) {
        // Most strings need no escape: their bytes checked, then appended at once.
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) else { return false }
            bytes.append(0x22)
            bytes.append(contentsOf: utf8)
            bytes.append(0x22)
            return true
        }
        if !plain { escaped(text) }
    }

    private mutating func escaped(_ text: String) {
        bytes.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes.append(0x5C); bytes.append(0x22)
            case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
            case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
            case 0x0D: bytes.append(0x5C); bytes.append(0x72)
            case 0x09: bytes.append(0x5C); bytes.append(0x74)
            case 0x08: bytes.append(0x5C); bytes.append(0x62)
            case 0x0C: bytes.append(0x5C); bytes.append(0x66)
            case 0..<0x20:
                raw("\\u00")
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    private func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }

    package mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[k]) }
        }
    }

    package mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    /// A timestamp as its RFC 3339 string, written without making the string.
    package mutating func timestamp(_ value: Timestamp) {
        bytes.append(0x22)
        value.append(to: &bytes)
        bytes.append(0x22)
    }

    /// Writes `,"key":` (or `"key":` for the first member when `first` is true).
    @inline(__always) package mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(0x2C) }
        bytes.append(0x22)
        raw(name)
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// Writes `,"name":` for a name known only at run time, escaped as a string. (A literal name
    /// goes to the `StaticString` version: with both named alike, Swift picks `String` for a
    /// literal.)
    package mutating func key(named name: String, first: Bool = false) {
        if !first { bytes.append(0x2C) }
        string(name)
        bytes.append(0x3A)
    }

    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .number(let text): raw(text)
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(0x5B)
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(0x2C) }
                self.value(element)
            }
            bytes.append(0x5D)
        case .object(let members):
            bytes.append(0x7B)
            for (i, member) in members.enumerated() {
                key(named: member.key, first: i == 0)
                self.value(member.value)
            }
            bytes.append(0x7D)
        }
    }

    /// A string map with its keys sorted, so output is deterministic.
    package mutating func stringMap(_ map: [String: String]) {
        bytes.append(0x7B)
        for (i, key) in map.keys.sorted().enumerated() {
            self.key(named: key, first: i == 0)
            string(map[key]!)
        }
        bytes.append(0x7D)
    }

    package mutating func route(_ route: Route) {
        bytes.append(0x7B)
        key("screen", first: true)
        string(route.screen)
        if let id = route.id { key("id"); string(id) }
        if let params = route.params { key("params"); stringMap(params) }
        bytes.append(0x7D)
    }

    package mutating func optionalRoute(_ route: Route?) {
        if let route { self.route(route) } else { raw("null") }
    }

    package mutating func routes(_ routes: [Route]) {
        array(routes) { $0.route($1) }
    }

    /// A JSON array of `elements`, each written by `element`.
    package mutating func array<Elements: Sequence>(_ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void) {
        bytes.append(0x5B)
        var first = true
        for item in elements {
            if !first { bytes.append(0x2C) }
            first = false
            element(&self, item)
        }
        bytes.append(0x5D)
    }

    /// The State shape of event format v1, scenes and stacks in key order.
    package mutating func state(_ state: NavigationState) {
        bytes.append(0x7B)
        key("active", first: true)
        if let active = state.active { string(active) } else { raw("null") }
        key("scenes")
        scenes(state)
        bytes.append(0x7D)
    }

    /// The `scenes` member of the State shape: an object of the scenes in key order.
    package mutating func scenes(_ state: NavigationState) {
        bytes.append(0x7B)
        for (i, id) in state.scenes.keys.sorted().enumerated() {
            key(named: id, first: i == 0)
            scene(state.scenes[id]!)
        }
        bytes.append(0x7D)
    }

    private mutating func scene(_ scene: SceneState) {
        bytes.append(0x7B)
        key("tab", first: true)
        if let tab = scene.tab { string(tab) } else { raw("null") }
        key("stacks")
        bytes.append(0x7B)
        for (i, id) in scene.stacks.keys.sorted().enumerated() {
            key(named: id, first: i == 0)
            routes(scene.stacks[id]!)
        }
        bytes.append(0x7D)
        key("sheets")
        bytes.append(0x5B)
        for (i, sheet) in scene.sheets.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            bytes.append(0x7B)
            key("id", first: true)
            string(sheet.id)
            key("style"); string(sheet.style.rawValue)
            key("root"); route(sheet.root)
            key("stack"); routes(sheet.stack)
            bytes.append(0x7D)
        }
        bytes.append(0x5D)
        if let split = scene.split {
            key("split")
            bytes.append(0x7B)
            key("sidebar", first: true); optionalRoute(split.sidebar)
            key("content"); optionalRoute(split.content)
            key("visibility"); string(split.visibility.rawValue)
            bytes.append(0x7D)
        }
        // Left out when active, so that a state without phases is written as before them.
        if scene.phase != .active { key("phase"); string(scene.phase.rawValue) }
        bytes.append(0x7D)
    }
}
