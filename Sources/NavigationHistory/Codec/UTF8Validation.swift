/// Strict UTF-8 validation (no overlong forms, no surrogates, nothing above U+10FFFF).
package enum UTF8Validation {
    /// The offset of the first byte that is not part of valid UTF-8, or nil when all of it is.
    ///
    /// ASCII runs are checked eight bytes at a time.
    package static func firstInvalidOffset(_ buffer: UnsafeRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        let count = buffer.count
        var i = 0
        while i < count {
            if i + 8 <= count, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & ByteLanes.highBits == 0 {
                i += 8
                continue
            }
            let b0 = base.load(fromByteOffset: i, as: UInt8.self)
            if b0 < 0x80 { i += 1; continue }
            func continuation(_ k: Int) -> UInt8? {
                guard i + k < count else { return nil }
                let b = base.load(fromByteOffset: i + k, as: UInt8.self)
                return b & 0xC0 == 0x80 ? b : nil
            }
            switch b0 {
            case 0xC2...0xDF:
                guard continuation(1) != nil else { return i }
                i += 2
            case 0xE0...0xEF:
                guard let b1 = continuation(1), continuation(2) != nil else { return i }
                if b0 == 0xE0 && b1 < 0xA0 { return i }   // overlong
                if b0 == 0xED && b1 > 0x9F { return i }   // UTF-16 surrogate
                i += 3
            case 0xF0...0xF4:
                guard let b1 = continuation(1), continuation(2) != nil, continuation(3) != nil else { return i }
                if b0 == 0xF0 && b1 < 0x90 { return i }   // overlong
                if b0 == 0xF4 && b1 > 0x8F { return i }   // above U+10FFFF
                i += 4
            default:
                return i
            }
        }
        return nil
    }
}

extension UTF8Validation {
    /// Whether all of `bytes` is valid UTF-8, as ``firstInvalidOffset(_:)`` checks it.
    package static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { firstInvalidOffset($0) } == nil
    }
}
