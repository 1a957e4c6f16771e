// libFuzzer target for the log line decoder.
//
// Built together with every file of Sources/NavigationHistory as ONE module (module name
// NavigationHistory), so `package` and `internal` declarations are visible here. See Tools/fuzz/run.
//
// Per input it checks:
//   1. The general decoder (`LineDecoder.decodeAnyLayout`) never crashes, whatever the bytes
//      (errors are fine).
//   2. `JSONScanner.parse` never crashes, whatever the bytes (errors are fine).
//   3. Round trip: when decode succeeds, `LineEncoder.encode(event)` ends in exactly one newline,
//      the line without it decodes again, with a crc, to an equal event, and encoding that event
//      gives the same bytes.
//   4. The fast path for the encoder's own form (`CanonicalLineDecoder`) returns nothing or what
//      the general decoder returns, for the input and for its re-encoded line; and the same with
//      a decoding cache kept across inputs (strings, dates, maps), as a reader keeps one across lines.
//   5. The general decoder with that cache (which also keeps the bytes between members' values
//      from input to input) decodes to the same event, or fails with the same error, as without it.
// Any violation traps with a message naming the step.

/// One cache for the whole run (libFuzzer calls the target on one thread).
nonisolated(unsafe) private let cache = DecodingCache()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)

    _ = try? JSONScanner.parse(input)

    let fast = CanonicalLineDecoder.decode(input)
    if CanonicalLineDecoder.decode(input, cache: cache) != fast {
        fatalError("fast path: the decoding cache changed the event decoded")
    }
    let decoded: DecodedLine
    do {
        decoded = try LineDecoder.decodeAnyLayout(input)
    } catch {
        if let fast { fatalError("fast path: decoded a line the general decoder rejects (\(error.kind)): \(fast)") }
        switch Result(catching: { () throws(LineError) in try LineDecoder.decodeAnyLayout(input, cache: cache) }) {
        case .success: fatalError("general decoder: with the decoding cache it accepts a line it rejects without (\(error))")
        case .failure(let cached) where cached != error as? LineError:
            fatalError("general decoder: the decoding cache changed the error\n  with:    \(cached)\n  without: \(error)")
        default: break
        }
        return 0
    }
    switch Result(catching: { () throws(LineError) in try LineDecoder.decodeAnyLayout(input, cache: cache) }) {
    case .success(let cached) where cached.event != decoded.event || cached.hasCRC != decoded.hasCRC:
        fatalError("general decoder: the decoding cache changed the event decoded\n  with:    \(cached.event)\n  without: \(decoded.event)")
    case .failure(let error):
        fatalError("general decoder: with the decoding cache it rejects a line it decodes without (\(error))")
    default: break
    }
    if let fast, fast != decoded.event {
        fatalError("fast path: decoded another event\n  fast:    \(fast)\n  general: \(decoded.event)")
    }
    checkRoundTrip(decoded.event)
    return 0
}

private func checkRoundTrip(_ event: NavigationEvent) {
    let encoded = LineEncoder.encode(event)
    guard encoded.last == 0x0A else {
        fatalError("round trip: encoded line does not end in a newline: \(escaped(encoded[...]))")
    }
    let line = encoded.dropLast()
    if line.contains(0x0A) {
        fatalError("round trip: encoded line contains a raw newline: \(escaped(line))")
    }
    let result = line.withUnsafeBytes { bytes in
        Result { () throws(LineError) -> DecodedLine in try LineDecoder.decode(bytes) }
    }
    let again: DecodedLine
    switch result {
    case .success(let value):
        again = value
    case .failure(let error):
        fatalError("round trip: re-decoding the encoded line failed: \(error.kind) at \(error.offset): \(error.detail)\n  event: \(event)\n  line: \(escaped(line))")
    }
    guard again.hasCRC else {
        fatalError("round trip: encoded line has no crc: \(escaped(line))")
    }
    guard again.event == event else {
        fatalError("round trip: event changed\n  before: \(event)\n  after:  \(again.event)\n  line: \(escaped(line))")
    }
    if let fast = line.withUnsafeBytes({ CanonicalLineDecoder.decode($0) }), fast != event {
        fatalError("fast path: the encoded line decoded to another event\n  before: \(event)\n  after:  \(fast)")
    }
    let reencoded = LineEncoder.encode(again.event)
    guard reencoded == encoded else {
        fatalError("round trip: encoding is not stable\n  first:  \(escaped(encoded[...]))\n  second: \(escaped(reencoded[...]))")
    }
}

/// The bytes as ASCII with everything else (and `\`) escaped as \xNN, for trap messages.
private func escaped(_ bytes: ArraySlice<UInt8>) -> String {
    var out = ""
    for byte in bytes {
        if byte >= 0x20, byte < 0x7F, byte != 0x5C {
            out.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            let hex = String(byte, radix: 16)
            out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
    return out
}
