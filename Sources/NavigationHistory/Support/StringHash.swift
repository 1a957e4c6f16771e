extension String {
    /// A multiplicative (FNV-1a) hash of the string's UTF-8 bytes, read in place: for tables of
    /// names that need no resistance to chosen keys (a log's own screen names), where SipHash took
    /// 4% of `navlog paths`' instructions.
    package var utf8Hash: UInt64 {
        var string = self
        return string.withUTF8 { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash &* 0x9E37_79B9_7F4A_7C15
        }
    }
}
