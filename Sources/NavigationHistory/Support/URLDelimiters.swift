/// Finding a URL's delimiters, all ASCII, in its UTF-8 bytes: RFC 3986 splits a URL at bytes, not
/// at grapheme clusters, so a `/` followed by a combining mark still ends a segment, and no
/// Unicode segmentation is paid for a search (`NavlogBench redact`).
extension Substring {
    /// The index of the first byte for which `matches` holds, or nil.
    package func firstIndex(ofASCII matches: (UInt8) -> Bool) -> Index? {
        utf8.firstIndex(where: matches)
    }

    /// The range of the first `://`, or nil.
    package func schemeSeparatorRange() -> Range<Index>? {
        var bytes = utf8[...]
        while let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let after = bytes[bytes.index(after: colon)...]
            if after.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
                return colon..<utf8.index(colon, offsetBy: 3)
            }
            bytes = after
        }
        return nil
    }

    /// The parts between each `separator` byte, empty ones included.
    package func split(atASCII separator: UInt8) -> [Substring] {
        var parts: [Substring] = []
        var start = startIndex
        var k = utf8.startIndex
        while k < utf8.endIndex {
            if utf8[k] == separator {
                parts.append(self[start..<k])
                start = utf8.index(after: k)
            }
            k = utf8.index(after: k)
        }
        parts.append(self[start...])
        return parts
    }
}
