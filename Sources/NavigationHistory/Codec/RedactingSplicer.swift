import CNavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Redacts a line the store wrote without decoding and encoding its event: its `crc` is checked,
/// the values to replace are found by where they sit in the event format's shape, every other
/// byte is copied, and the line gets its new `crc`. Decoding and encoding the event cost six
/// times the reader's own time on the same segment (`NavlogBench redact`).
///
/// Where a value to replace sits: the `id` and the `params` values of a route, and a route is the
/// top-level `route`, each of `path` and `dropped`, and in a `state`, each route of a stack, each
/// sheet's `root` and `stack`, and a split view's `sidebar` and `content`; a deep link's `url`.
/// A line it cannot splice exactly as decoding and encoding would write it — its `crc` not the
/// last member or not matching, a type it does not know, a value to replace holding an escape, a
/// replacement that drops the member, anything out of shape — is left to that slower way, which
/// also says what is wrong with a damaged one. A test holds the two ways to the same bytes.
package enum RedactingSplicer {
    /// A value the splicer replaces.
    package enum Value {
        /// A route's id.
        case id
        /// A route param's value.
        case param
        /// A deep link's URL.
        case url
    }

    private struct Unspliceable: Error {}

    /// The values a splice replaces.
    package struct Values: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Routes' ids.
        package static let ids = Values(rawValue: 1)
        /// Route params' values.
        package static let params = Values(rawValue: 2)
        /// Deep links' URLs.
        package static let urls = Values(rawValue: 4)
    }

    /// A value found to replace: where its string is in the line, quotes included.
    package struct Edit {
        var range: Range<Int>
        var value: Value
    }

    /// Appends `line` (without its newline) redacted, with its newline, to `out`; false (nothing
    /// appended) when it is left to decoding and encoding. Only the `values` asked for are found;
    /// `replace` gives each one's replacement, or nil to leave the line to that slower way.
    /// `edits` is scratch space, kept across lines.
    package static func splice(_ line: UnsafeRawBufferPointer, values: Values, to out: inout JSONWriter, edits: inout [Edit],
                               replace: (Value, String) -> String?) -> Bool {
        // `,"crc":"xxxxxxxx"}`: the store writes it last.
        let tail = 18
        guard line.count > tail + 2, let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let crc = checksum(in: UnsafeRawBufferPointer(rebasing: line[(line.count - tail)...])),
              CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[..<(line.count - tail)])) == crc else { return false }
        edits.removeAll(keepingCapacity: true)
        var cursor = Cursor(base: base, end: line.count - tail, values: values)
        do {
            guard try cursor.topLevel(&edits) else {
                // Its checksum holds, and its type names no route and no URL: the line as it is.
                out.bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: line.count))
                out.bytes.append(0x0A)
                return true
            }
        } catch {
            return false
        }
        let lineStart = out.bytes.count
        var copied = 0
        for edit in edits {
            let text = UnsafeBufferPointer(start: base + edit.range.lowerBound + 1, count: edit.range.count - 2)
            guard let replaced = replace(edit.value, String(decoding: text, as: UTF8.self)) else {
                out.bytes.removeSubrange(lineStart...)
                return false
            }
            out.bytes.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: edit.range.lowerBound - copied))
            out.string(replaced)
            copied = edit.range.upperBound
        }
        out.bytes.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: line.count - tail - copied))
        out.closeLineWithChecksum(from: lineStart)
        return true
    }

    /// The checksum `,"crc":"xxxxxxxx"}` holds, or nil when `tail` is not that.
    private static func checksum(in tail: UnsafeRawBufferPointer) -> UInt32? {
        let prefix: StaticString = ",\"crc\":\""
        guard tail.count == 18, tail[17] == UInt8(ascii: "}"), tail[16] == UInt8(ascii: "\"") else { return nil }
        for k in 0..<8 where tail[k] != prefix.utf8Start[k] { return nil }
        var value: UInt32 = 0
        for k in 8..<16 {
            guard let digit = hexDigit(tail[k]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    @inline(__always) private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }

    /// What a value is, by where it sits.
    private enum Role {
        case other, route, routes, state, scenes, scene, stacks, sheets, sheet, split, id, params, param, url
    }

    private struct Cursor {
        let base: UnsafePointer<UInt8>
        let end: Int
        let values: Values
        var index = 0

        init(base: UnsafePointer<UInt8>, end: Int, values: Values) {
            (self.base, self.end, self.values) = (base, end, values)
        }

        /// Finds the values to replace in the line's object, up to its `crc`; false, as soon as
        /// its `type` is read, when that type holds no route and no URL (a pop, a tab, a phase:
        /// most of a log), so the line stays as it is (`NavlogBench redact`).
        mutating func topLevel(_ edits: inout [Edit]) throws(Unspliceable) -> Bool {
            try expect(UInt8(ascii: "{"))
            var knownType = false
            while true {
                let key = try keyRange()
                try expect(UInt8(ascii: ":"))
                if equals(key, "type") {
                    guard let holdsValues = holdsRoutesOrURLs(type: try stringRange()) else { throw Unspliceable() }
                    guard holdsValues else { return false }
                    knownType = true
                } else {
                    try value(role(ofTopLevel: key), depth: 1, &edits)
                }
                if index == end { break }
                try expect(UInt8(ascii: ","))
            }
            guard knownType else { throw Unspliceable() }
            return true
        }

        /// Whether a type of event format v1 holds a route or a URL, nil for a type it does not
        /// define. The same types as ``EventRedactor`` redacts; a test holds both ways to the
        /// same bytes.
        private func holdsRoutesOrURLs(type: Range<Int>) -> Bool? {
            // By length first: a line is a compare or two from its answer.
            func named(_ name: StaticString) -> Bool { equals(type, name) }
            let routes: Bool, none: Bool
            switch type.count {
            case 3: (routes, none) = (false, named("pop"))
            case 4: (routes, none) = (named("push"), false)
            case 7: (routes, none) = (named("replace") || named("setPath") || named("restore"), false)
            case 8: (routes, none) = (named("deeplink") || named("snapshot"), false)
            case 9: (routes, none) = (false, named("popToRoot"))
            case 10: (routes, none) = (false, named("scene.open") || named("tab.select"))
            case 11: (routes, none) = (false, named("session.end") || named("scene.close") || named("scene.phase"))
            case 12: (routes, none) = (named("split.select"), false)
            case 13: (routes, none) = (named("sheet.present"), named("session.start") || named("sheet.dismiss"))
            case 14: (routes, none) = (false, named("scene.activate"))
            case 16: (routes, none) = (false, named("split.visibility"))
            default: (routes, none) = (false, false)
            }
            return routes ? true : none ? false : nil
        }

        private func role(ofTopLevel key: Range<Int>) -> Role {
            if equals(key, "route") { return .route }
            if equals(key, "path") || equals(key, "dropped") { return .routes }
            if equals(key, "state") { return .state }
            if equals(key, "url") { return .url }
            return .other
        }

        private func role(of key: Range<Int>, in parent: Role) -> Role {
            switch parent {
            case .state: equals(key, "scenes") ? .scenes : .other
            case .scenes: .scene
            case .scene: equals(key, "stacks") ? .stacks : equals(key, "sheets") ? .sheets : equals(key, "split") ? .split : .other
            case .stacks: .routes
            case .sheet: equals(key, "root") ? .route : equals(key, "stack") ? .routes : .other
            case .split: equals(key, "sidebar") || equals(key, "content") ? .route : .other
            case .route: equals(key, "id") ? .id : equals(key, "params") ? .params : .other
            case .params: .param
            case .other, .routes, .sheets, .id, .param, .url: .other
            }
        }

        private mutating func value(_ here: Role, depth: Int, _ edits: inout [Edit]) throws(Unspliceable) {
            guard depth < JSONScanner.maximumDepth, index < end else { throw Unspliceable() }
            switch base[index] {
            case UInt8(ascii: "{"):
                index += 1
                if try closes(UInt8(ascii: "}")) { return }
                while true {
                    let key = try keyRange()
                    try expect(UInt8(ascii: ":"))
                    try value(role(of: key, in: here), depth: depth + 1, &edits)
                    if try closes(UInt8(ascii: "}")) { return }
                    try expect(UInt8(ascii: ","))
                }
            case UInt8(ascii: "["):
                index += 1
                if try closes(UInt8(ascii: "]")) { return }
                let element: Role = here == .routes ? .route : here == .sheets ? .sheet : .other
                while true {
                    try value(element, depth: depth + 1, &edits)
                    if try closes(UInt8(ascii: "]")) { return }
                    try expect(UInt8(ascii: ","))
                }
            case UInt8(ascii: "\""):
                let start = index
                let text = try stringRange()
                let kind: Value? = switch here {
                case .id where values.contains(.ids): .id
                case .param where values.contains(.params): .param
                case .url where values.contains(.urls): .url
                default: nil
                }
                guard let kind else { return }
                if UnsafeBufferPointer(start: base + text.lowerBound, count: text.count).contains(UInt8(ascii: "\\")) { throw Unspliceable() }
                edits.append(Edit(range: start..<index, value: kind))
            default:
                // A number, true, false or null: up to the next delimiter.
                while index < end, base[index] != UInt8(ascii: ","), base[index] != UInt8(ascii: "}"), base[index] != UInt8(ascii: "]") {
                    index += 1
                }
            }
        }

        /// The bytes of a string's value, its closing quote passed.
        private mutating func stringRange() throws(Unspliceable) -> Range<Int> {
            guard index < end, base[index] == UInt8(ascii: "\"") else { throw Unspliceable() }
            index += 1
            let start = index
            // Sixteen bytes a step while sixteen are left: most strings end in the first.
            while index + 16 <= end {
                let stops = navigation_history_string_stops16(base + index) & 0xFFFF
                guard stops != 0 else { index += 16; continue }
                index += stops.trailingZeroBitCount
                guard base[index] == UInt8(ascii: "\\") else { break }
                index += 2
            }
            while index < end {
                switch base[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<(index - 1)
                case UInt8(ascii: "\\"): index += 2
                default: index += 1
                }
            }
            throw Unspliceable()
        }

        private mutating func keyRange() throws(Unspliceable) -> Range<Int> { try stringRange() }

        private mutating func expect(_ byte: UInt8) throws(Unspliceable) {
            guard index < end, base[index] == byte else { throw Unspliceable() }
            index += 1
        }

        /// Whether the object or array closes here, passing its closing byte.
        private mutating func closes(_ byte: UInt8) throws(Unspliceable) -> Bool {
            guard index < end else { throw Unspliceable() }
            guard base[index] == byte else { return false }
            index += 1
            return true
        }

        private func equals(_ range: Range<Int>, _ name: [UInt8]) -> Bool {
            range.count == name.count && name.withUnsafeBufferPointer { memcmp(base + range.lowerBound, $0.baseAddress!, range.count) == 0 }
        }

        private func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
            guard range.count == text.utf8CodeUnitCount else { return false }
            let expected = text.utf8Start
            for k in 0..<range.count where base[range.lowerBound + k] != expected[k] { return false }
            return true
        }
    }
}
