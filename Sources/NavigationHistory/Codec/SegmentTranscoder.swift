/// Writes a segment anew in the store's form, each event changed on the way: what a redacted
/// shipment is made of (`NavlogBench redact`). Every line is decoded as the reader decodes it, so
/// a damaged segment is refused at its first bad line, and encoded with its own `crc`.
package enum SegmentTranscoder {
    /// Why a segment could not be written anew: its `line` (1-based) failed to decode, or came
    /// out longer than a reader takes.
    package struct Failure: Error {
        /// The line of the source.
        package var line: Int
        /// Its defect, when it failed to decode.
        package var defect: LineError?
        /// Its new length, when it came out too long.
        package var length: Int?
    }

    /// The lines of `bytes`, a whole segment ending on a newline, each spliced when it can be
    /// (``RedactingSplicer``, the `values` found replaced by `replace`), else decoded, its event
    /// passed through `transform` and encoded again; a line whose event `transform` leaves (nil)
    /// is kept as it is. With `splicing` false, every line is decoded.
    package static func transcode(_ bytes: [UInt8], splicing: Bool = true, values: RedactingSplicer.Values,
                                  replace: (RedactingSplicer.Value, String) -> String?,
                                  _ transform: (NavigationEvent) -> NavigationEvent?) throws(Failure) -> [UInt8] {
        let cache = DecodingCache()
        defer { cache.deallocate() }
        // Redacted values are about as long as the ones they replace (a hash is 18 bytes).
        var writer = JSONWriter(capacity: bytes.count + bytes.count / 8 + 256)
        var line = 0
        var edits: [RedactingSplicer.Edit] = []
        let result: Result<Void, Failure> = bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                line += 1
                guard let newline = memchrIndex(buffer, 0x0A, from: start, to: buffer.count) else {
                    return .failure(Failure(line: line, defect: LineError(.tornLine, at: buffer.count - start, "no newline")))
                }
                defer { start = newline + 1 }
                let source = UnsafeRawBufferPointer(rebasing: buffer[start..<newline])
                let lineStart = writer.bytes.count
                if !splicing || !RedactingSplicer.splice(source, values: values, to: &writer, edits: &edits, replace: replace) {
                    let decoded: DecodedLine
                    do throws(LineError) {
                        decoded = try LineDecoder.decode(source, cache: cache)
                    } catch {
                        return .failure(Failure(line: line, defect: error))
                    }
                    if let event = transform(decoded.event) {
                        LineEncoder.append(event, to: &writer)
                    } else {
                        writer.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...newline]))
                    }
                }
                let length = writer.bytes.count - lineStart - 1
                if length > LineDecoder.maximumLineLength { return .failure(Failure(line: line, length: length)) }
            }
            return .success(())
        }
        try result.get()
        return writer.bytes
    }
}
