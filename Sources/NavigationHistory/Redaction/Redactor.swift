/// The values a redacted export or shipment replaces, and what replaces them.
///
/// A redacted value becomes a stable salted hash, `h:` and the first 16 hex digits of SHA-256 of
/// the salt, a zero byte and the value, so that equal values stay equal (and join across exports
/// with the same salt) while the value itself is gone. Without a salt a value is dropped instead:
/// a route id becomes null, a part of a URL `*`.
///
/// A deep link's URL keeps its scheme, and for `http` and `https` its host (with the port): a
/// domain says where links go, not who followed them. In an app's own scheme
/// (`recipes://recipe/42`, `recipes://42`) the host is the link's first word, which may be an id,
/// so it is redacted as a path segment. Everything else that can name a person or an item is
/// replaced: the userinfo (`user:password@`) is dropped, each path segment is hashed on its own,
/// and the query and fragment are hashed as one (`?h:…`). Its pattern — the analytics key of
/// `navlog deeplinks`, with each segment holding a digit written `:id` — is redacted the same way,
/// `:id` kept, so links group by pattern exactly as before: `recipes://recipe/:id/reviews` becomes
/// `recipes://h:9a1e…/:id/h:5f0c…`.
package struct Redactor: Sendable {
    /// The salt, or nil to drop values instead of hashing them.
    package var salt: String?

    /// A redactor hashing with `salt`, or dropping values without one.
    package init(salt: String?) { self.salt = salt }

    /// `value`'s salted hash, or nil without a salt.
    package func value(_ value: String) -> String? {
        guard let salt else { return nil }
        return "h:" + Self.digest(salt, value).hex(ofFirst: 8)
    }

    /// SHA-256 of `salt`, a zero byte and `text`, hashed where they are.
    private static func digest(_ salt: String, _ text: some StringProtocol) -> SHA256.Digest {
        var hash = SHA256()
        hash.update(salt.utf8)
        hash.update(CollectionOfOne(0))
        hash.update(text.utf8)
        return hash.finalize()
    }

    /// A URL with its userinfo dropped, each path segment and the query and fragment redacted.
    package func url(_ url: String) -> String { redacted(url, segment: segment, query: value) }

    /// ``url(_:)``, each segment's replacement keeping the shape of the link's pattern, which is
    /// made from the URL when the log is read: a segment holding a digit (an `:id` of the
    /// pattern) becomes a hash holding one too, or `:id` without a salt; any other a hash of
    /// letters only, or `*`. The links of a redacted log then group by pattern as the raw ones do.
    package func urlKeepingPattern(_ url: String) -> String { redacted(url, segment: patternKeepingSegment, query: value) }

    /// A path segment as ``urlKeepingPattern(_:)`` redacts it.
    package func patternKeepingSegment(_ text: Substring) -> String {
        guard !text.isEmpty else { return "" }
        let holdsDigit = text.contains(where: \.isNumber)
        guard let salt else { return holdsDigit ? ":id" : "*" }
        let digest = Self.digest(salt, text)
        guard !holdsDigit else {
            let hex = digest.hex(ofFirst: 8)
            // Sixteen hex digits are all letters once in 6.6 million: then one digit more,
            // which no other hash, of sixteen, can be.
            return "h:" + hex + (hex.contains(where: \.isNumber) ? "" : "0")
        }
        let letters = Array("abcdefghijklmnop".utf8)
        return "h:" + String(decoding: digest.bytes.prefix(8).flatMap { [letters[Int($0 >> 4)], letters[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// `url` with its userinfo dropped, each path segment replaced by `segment`, and the query and
    /// fragment, as one, by `query` (left out when it gives nil).
    package func redacted(_ url: String, segment: (Substring) -> String, query: (String) -> String?) -> String {
        let parts = URLParts(url)
        var result = (parts.origin ?? "") + parts.segments.map(segment).joined(separator: "/")
        if let rest = parts.rest, let hashed = query(String(rest)) { result += "?" + hashed }
        return result
    }

    /// A deep link's pattern (as `navlog deeplinks` groups links by) with its userinfo dropped and
    /// each path segment but `:id` redacted.
    package func pattern(_ pattern: String) -> String {
        let parts = URLParts(pattern)
        return (parts.origin ?? "") + parts.segments.map { $0 == ":id" ? ":id" : segment($0) }.joined(separator: "/")
    }

    /// A path segment redacted: an empty one stays empty.
    private func segment(_ text: Substring) -> String {
        text.isEmpty ? "" : value(String(text)) ?? "*"
    }
}

/// A URL cut as redaction needs it. With a scheme (a letter, then letters, digits, `+`, `-` and
/// `.`) and `://`, the origin is the scheme and, for `http` and `https`, the host with its port,
/// the userinfo left out; another scheme's host is the path's first segment. Without a scheme,
/// everything before the query is path. The path's segments are split at `/`, empty ones
/// included; `rest` is the query and fragment, from the first `?` or `#` on.
package struct URLParts {
    /// `scheme://host[:port]`, or nil when the URL has no scheme and authority.
    package var origin: String?
    /// The path's segments: after the origin's `/`, or the whole path when there is no origin.
    package var segments: [Substring]
    /// From the first `?` or `#` on, or nil.
    package var rest: Substring?

    package init(_ url: String) {
        var base = Substring(url)
        if let cut = base.firstIndex(ofASCII: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            rest = base[cut...]
            base = base[..<cut]
        }
        guard let separator = base.schemeSeparatorRange(), Self.isScheme(base[..<separator.lowerBound]) else {
            segments = base.split(atASCII: UInt8(ascii: "/"))
            return
        }
        let afterScheme = base[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex(ofASCII: { $0 == UInt8(ascii: "/") }) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let host = authority.utf8.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.utf8.index(after: $0)...] } ?? authority
        let path = afterScheme[authorityEnd...]
        let pathSegments = path.isEmpty ? [] : path[path.utf8.index(after: path.startIndex)...].split(atASCII: UInt8(ascii: "/"))
        let scheme = base[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            origin = String(base[..<separator.upperBound])
            segments = [host] + pathSegments
            return
        }
        origin = String(base[..<separator.upperBound]) + host + (path.isEmpty ? "" : "/")
        segments = pathSegments
    }

    /// Whether `text` is a URL scheme (RFC 3986): a letter, then letters, digits, `+`, `-`, `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        guard let first = text.utf8.first, isLetter(first) else { return false }
        return text.utf8.allSatisfy {
            isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
    }
}
