extension JSONValue {
    /// Parses a line that ends in its checksum, `,"crc":"xxxxxxxx"}`, as
    /// ``JSONWriter/closeLineWithChecksum(from:)`` writes it (without the newline); nil when it
    /// does not end so, the checksum does not match the bytes before it, or it is not JSON.
    package init?(checksummedLine line: ArraySlice<UInt8>) {
        let parsed = line.withUnsafeBytes { bytes -> Result<JSONValue, LineError>? in
            guard let (stored, start) = LineDecoder.trailingChecksum(bytes),
                  CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<start])) == stored else { return nil }
            return Result { () throws(LineError) in try JSONScanner.parse(bytes) }
        }
        guard case .success(let value)? = parsed else { return nil }
        self = value
    }
}

extension JSONValue {
    /// Parses `bytes` as one JSON value; nil when they are not one.
    package init?(parsing bytes: ArraySlice<UInt8>) {
        let parsed = bytes.withUnsafeBytes { buffer in Result { () throws(LineError) in try JSONScanner.parse(buffer) } }
        guard case .success(let value) = parsed else { return nil }
        self = value
    }
}
