/// The two words a `String` is made of on 64-bit platforms, as a value to compare: while the
/// string it was taken from is alive, equal identities are equal strings (a short string's words
/// are its bytes; a longer one's, its count and the address of its storage, which no other string
/// can take while this one holds it). Unequal identities say nothing: equal strings made apart
/// have different storage.
///
/// For caches keyed by strings that a reader makes once and hands on (`navlog paths` and `funnel`
/// look a screen name up for every view: by identity it is two compares, by its bytes a hash).
/// A cache that keeps an identity must keep its string too.
package struct StringIdentity: Equatable, Sendable {
    @usableFromInline var first: UInt64, second: UInt64

    /// No identity: what 32-bit platforms get, where a string is not two words.
    package static let none = StringIdentity(first: 0, second: 0)

    @usableFromInline init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// The identity of `string`. Inlinable, as it is asked for every view a query counts.
    @inlinable
    package init(_ string: String) {
        #if _pointerBitWidth(_64)
        (first, second) = unsafeBitCast(string, to: (UInt64, UInt64).self)
        #else
        self = .none
        #endif
    }

    /// Whether this is an identity at all (not ``none``).
    @inlinable package var isSome: Bool { first != 0 || second != 0 }

    /// A hash of the identity, for a cache's slot.
    @inlinable package var hash: Int { Int(truncatingIfNeeded: ((first ^ second &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 40) }
}

extension String {
    /// A multiplicative (FNV-1a) hash of the string's UTF-8 bytes, read in place: for tables of
    /// names that are not worth SipHash's resistance to chosen keys (a log's own screen names).
    package var utf8Hash: UInt64 {
        var string = self
        return string.withUTF8 { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash &* 0x9E37_79B9_7F4A_7C15
        }
    }
}
