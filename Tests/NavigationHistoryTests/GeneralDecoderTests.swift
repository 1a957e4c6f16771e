import Testing
@testable import NavigationHistory
import NavigationSimulation

/// The general decoder on lines of any layout: against the fast one on the same events in the
/// store's layout, and against the decoder it replaced (``ReferenceLineDecoder``), error for error.
@Suite struct GeneralDecoderTests {
    /// A line of `event` as another writer might lay it out: every object's members shuffled,
    /// random insignificant whitespace between tokens, and, when `crc`, a `crc` member last.
    static func relaid(_ event: NavigationEvent, crc: Bool, spaced: Bool, _ random: inout SeededRandom) -> [UInt8] {
        let canonical = Array(LineEncoder.encode(event).dropLast())
        guard case .object(let members) = try! canonical.withUnsafeBytes({ bytes in
            try Result { () throws(LineError) in try JSONScanner.parse(bytes) }.get()
        }) else { fatalError("not an object") }
        var out = [UInt8]()
        func space() {
            guard spaced, random.chance(0.3) else { return }
            for _ in 0..<(1 + Int(random.next() % 2)) { out.append([0x20, 0x09, 0x0A, 0x0D][Int(random.next() % 4)]) }
        }
        func write(_ value: JSONValue) {
            switch value {
            case .object(let members):
                out.append(0x7B)
                for (i, member) in shuffled(members, &random).enumerated() {
                    if i > 0 { space(); out.append(0x2C) }
                    space()
                    var key = JSONWriter()
                    key.string(member.key)
                    out += key.bytes
                    space(); out.append(0x3A); space()
                    write(member.value)
                }
                space(); out.append(0x7D)
            case .array(let elements):
                out.append(0x5B)
                for (i, element) in elements.enumerated() {
                    if i > 0 { space(); out.append(0x2C) }
                    space(); write(element)
                }
                space(); out.append(0x5D)
            default:
                var writer = JSONWriter()
                writer.value(value)
                out += writer.bytes
            }
        }
        space()
        write(.object(members.filter { $0.key != "crc" }))
        guard crc else { space(); return out }
        // The object's closing brace gives way to `,"crc":"…"}`, the checksum of what comes before the comma.
        out.removeLast()
        space()
        let sum = out.withUnsafeBytes { CRC32C.checksum($0) }
        out += Array(#","crc":""#.utf8) + Array(LineDecoder.hex8(sum).utf8) + Array(#""}"#.utf8)
        space()
        return out
    }

    static func shuffled<T>(_ items: [T], _ random: inout SeededRandom) -> [T] {
        var items = items
        for i in stride(from: items.count - 1, to: 0, by: -1) { items.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        return items
    }

    static func general(_ line: [UInt8], cache: DecodingCache? = nil) -> Result<DecodedLine, LineError> {
        line.withUnsafeBytes { bytes in Result { () throws(LineError) in try LineDecoder.decodeAnyLayout(bytes, cache: cache) } }
    }

    /// Whether two decodings agree: the same event and crc, or the same error.
    static func same(_ a: Result<DecodedLine, LineError>, _ b: Result<DecodedLine, LineError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x.event == y.event && x.hasCRC == y.hasCRC
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }

    static func reference(_ line: [UInt8]) -> Result<DecodedLine, LineError> {
        line.withUnsafeBytes { bytes in Result { () throws(LineError) in try ReferenceLineDecoder.decode(bytes) } }
    }

    /// Generated events, each line relaid in shuffled member order with random whitespace, with and
    /// without crc, decode by the general decoder (with a cache kept across the lines, as a reader
    /// keeps one) to the events the fast decoder makes of the store's lines.
    @Test(arguments: [false, true])
    func relaidLinesDecodeToTheFastDecodersEvents(spaced: Bool) throws {
        var random = SeededRandom(seed: spaced ? 77 : 76)
        let cache = DecodingCache()
        defer { cache.deallocate() }
        var compared = 0
        for round in 0..<4000 {
            let event = CanonicalLineDecoderTests.randomEvent(&random)
            let canonical = Array(LineEncoder.encode(event).dropLast())
            let expected = canonical.withUnsafeBytes { CanonicalLineDecoder.decode($0) } ?? (try? Self.general(canonical).get().event)
            let withCRC = round % 2 == 0
            let line = Self.relaid(event, crc: withCRC, spaced: spaced, &random)
            let text = String(decoding: line, as: UTF8.self)
            guard case .success(let decoded) = Self.general(line, cache: cache) else {
                Issue.record("refused: \(text) — \(Self.general(line))")
                continue
            }
            #expect(decoded.event == expected, "\(text)")
            #expect(decoded.hasCRC == withCRC, "\(text)")
            if canonical.withUnsafeBytes({ CanonicalLineDecoder.decode($0) }) != nil { compared += 1 }
        }
        #expect(compared > 3000, "the fast decoder took too few lines to compare with")
    }

    /// Relaid lines, a third of them damaged a byte or a few at a time, decode exactly as the
    /// decoder this one replaced decodes them: the same event, or the same error (kind, offset and
    /// detail), with or without a cache kept across the lines.
    @Test func relaidAndDamagedLinesDecodeAsTheReferenceDecoderDoes() {
        var random = SeededRandom(seed: 2027)
        let cache = DecodingCache()
        defer { cache.deallocate() }
        var refused = 0
        let alphabet = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn/\#u{7F}"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xA9, 0xED, 0xF4, 0xFF]
        for round in 0..<12_000 {
            let event = CanonicalLineDecoderTests.randomEvent(&random)
            var line = Self.relaid(event, crc: random.chance(0.5), spaced: random.chance(0.5), &random)
            if round % 3 == 0, !line.isEmpty {
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    let at = Int(random.next() % UInt64(line.count))
                    switch random.next() % 3 {
                    case 0: line[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    case 1: line.remove(at: at)
                    default: line.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                    }
                    if line.isEmpty { break }
                }
            }
            let expected = Self.reference(line)
            let text = String(decoding: line, as: UTF8.self)
            for result in [Self.general(line), Self.general(line, cache: cache)] {
                switch (result, expected) {
                case (.success(let ours), .success(let theirs)):
                    #expect(ours.event == theirs.event && ours.hasCRC == theirs.hasCRC, "\(text)")
                case (.failure(let ours), .failure(let theirs)):
                    #expect(ours == theirs, "\(text)\n  ours:      \(ours)\n  reference: \(theirs)")
                default:
                    Issue.record("\(text)\n  ours:      \(result)\n  reference: \(expected)")
                }
            }
            if case .failure = expected { refused += 1 }
        }
        #expect(refused > 2000, "too few damaged lines to prove anything")
    }

    /// Lines of one type in a fixed layout, then the same events in another, through one cache:
    /// the boundaries kept from the lines before never change what a line decodes to.
    @Test func boundariesKeptFromLinesBeforeChangeNothing() {
        var random = SeededRandom(seed: 5)
        let cache = DecodingCache()
        defer { cache.deallocate() }
        for _ in 0..<300 {
            let event = CanonicalLineDecoderTests.randomEvent(&random)
            let layout = random.next()
            for _ in 0..<4 {
                var fixed = SeededRandom(seed: layout)
                let line = Self.relaid(event, crc: false, spaced: true, &fixed)
                let ours = Self.general(line, cache: cache)
                let theirs = Self.reference(line)
                #expect(Self.same(ours, theirs), "\(String(decoding: line, as: UTF8.self))")
            }
            // The same members, the first key's bytes changed: a boundary that no longer matches.
            var other = SeededRandom(seed: layout)
            var line = Self.relaid(event, crc: false, spaced: false, &other)
            if let quote = line.firstIndex(of: 0x22) { line.insert(0x20, at: quote) }
            #expect(Self.same(Self.general(line, cache: cache), Self.reference(line)), "\(String(decoding: line, as: UTF8.self))")
        }
    }

    /// A line's last boundary is matched from the boundaries kept however few bytes are left,
    /// and never read beyond them: lines that end with `v`, as other writers' lines may, then the
    /// same lines cut within or just after that boundary, decode as the reference decoder
    /// decodes them.
    @Test func aBoundaryKeptNearTheLinesEndIsNeverReadPastIt() {
        var random = SeededRandom(seed: 31)
        let cache = DecodingCache()
        defer { cache.deallocate() }
        for _ in 0..<300 {
            let event = CanonicalLineDecoderTests.randomEvent(&random)
            guard case .object(let members) = try! Array(LineEncoder.encode(event).dropLast()).withUnsafeBytes({ bytes in
                try Result { () throws(LineError) in try JSONScanner.parse(bytes) }.get()
            }) else { fatalError("not an object") }
            var writer = JSONWriter()
            writer.value(.object(members.filter { $0.key != "crc" }.reversed()))
            let line = writer.bytes
            #expect(Self.same(Self.general(line, cache: cache), .success(DecodedLine(event: event, hasCRC: false))),
                    "\(String(decoding: line, as: UTF8.self))")
            // `,"v":1}`: cut before its last byte, its digit, its colon, its key's last byte.
            for cut in 1...5 {
                let short = Array(line.dropLast(cut))
                #expect(Self.same(Self.general(short, cache: cache), Self.reference(short)), "\(String(decoding: short, as: UTF8.self))")
            }
        }
    }

    /// A string is scanned sixteen bytes at a time, then eight, then byte by byte near the line's
    /// end: a quote, a backslash (a valid escape or not), a control byte or a byte above 0x7F at
    /// each offset of a long value, first or last on its line, and the line cut at each byte
    /// after the value begins, decode as the reference decoder decodes them, with and without a
    /// cache.
    @Test func aStringLongerThanSixteenBytesWithAStopAtEachOffsetDecodesAsTheReferenceDoes() {
        let cache = DecodingCache()
        defer { cache.deallocate() }
        let stops: [[UInt8]] = [[0x22], [0x5C], Array(#"\""#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
                                [0x00], [0x0A], [0x1F], [0x20], [0x7F], [0xC3, 0xA9], [0xC3], [0xFF], [0x80]]
        let common = Array(#""outcome":"unmatched","type":"deeplink","scene":"main","session":"s1","ts":"2026-11-01T08:00:00.000Z","seq":1,"v":1"#.utf8)
        for stop in stops {
            for offset in 0...40 {
                var value = [UInt8](repeating: 0x61, count: 41)
                value.replaceSubrange(offset..<(offset + 1), with: stop)
                let member = Array(#""url":""#.utf8) + value + [0x22]
                for (line, valueStart) in [([0x7B] + member + [0x2C] + common + [0x7D], 8),
                                           ([0x7B] + common + [0x2C] + member + [0x7D], common.count + 9)] {
                    for count in valueStart...line.count {
                        let cut = Array(line.prefix(count))
                        let expected = Self.reference(cut)
                        #expect(Self.same(Self.general(cut), expected), "\(String(decoding: cut, as: UTF8.self))")
                        #expect(Self.same(Self.general(cut, cache: cache), expected), "\(String(decoding: cut, as: UTF8.self))")
                    }
                }
            }
        }
    }

    /// A route's keys written as the encoder writes them are matched as words, any others are
    /// scanned: each key however spelled, spaced or repeated, and keys that only begin like one,
    /// read as their names say, with the errors the scan gives, with and without a cache.
    @Test func routeKeysReadAsTheirNamesSayHoweverWritten() {
        typealias Expected = Result<Route, LineError>
        let cases: [(String, Expected)] = [
            (#"{"screen":"a","id":"b","params":{"k":"v"}}"#, .success(Route(screen: "a", id: "b", params: ["k": "v"]))),
            (#"{"params":{},"id":"b","screen":"a"}"#, .success(Route(screen: "a", id: "b", params: [:]))),
            (#"{ "id" : "b" ,"screen" :"a", "params":{ } }"#, .success(Route(screen: "a", id: "b", params: [:]))),
            (#"{"id":  "b","screen":\#t"a"}"#, .success(Route(screen: "a", id: "b"))),
            (#"{"\u0069d":"b","scr\u0065en":"a","param\u0073":{}}"#, .success(Route(screen: "a", id: "b", params: [:]))),
            (#"{"idx":"b","screens":"c","paramsx":1,"i":2,"screen":"a"}"#, .success(Route(screen: "a"))),
            (#"{"screen":"a","screen":"b"}"#, .failure(LineError(.invalidMember, at: 14, "duplicate member 'route.screen'"))),
            (#"{"id":"b","screen":"a","id":"c"}"#, .failure(LineError(.invalidMember, at: 23, "duplicate member 'route.id'"))),
            (#"{"params":{},"screen":"a","params":{}}"#, .failure(LineError(.invalidMember, at: 26, "duplicate member 'route.params'"))),
            (#"{"id":"b"}"#, .failure(LineError(.invalidMember, at: 0, "'route' has no 'screen'"))),
            (#"{"id":1,"screen":"a"}"#, .failure(LineError(.invalidMember, at: 6, "'route.id' must be a string"))),
            (#"{"screen":"","id":"b"}"#, .failure(LineError(.invalidMember, at: 0, "'route.screen' must not be empty"))),
            (#"{"screen""a"}"#, .failure(LineError(.invalidJSON, at: 9, "unexpected '\"', expecting ':'"))),
            (#"{"id":"#, .failure(LineError(.invalidMember, at: 6, "'route.id' must be a string"))),
        ]
        let cache = DecodingCache()
        defer { cache.deallocate() }
        for (text, expected) in cases {
            for cache in [nil, cache] {
                let result = Array(text.utf8).withUnsafeBytes { bytes in
                    Result { () throws(LineError) in
                        var scanner = JSONScanner(bytes)
                        return try RouteDecoding.route(&scanner, "route", cache: cache)
                    }
                }
                #expect(result == expected, "\(text)")
            }
        }
    }

    /// The member-name switch names exactly the members ``EventMember/named(_:_:)`` names, and
    /// nothing else, whatever the bytes around the name.
    @Test func theMemberNameSwitchAgreesWithTheNameTable() {
        var random = SeededRandom(seed: 9)
        var names = EventMember.allCases.map { Array($0.name.utf8) }
        for name in names { names += [Array(name.dropLast()), name + [0x73], [0x78] + name.dropFirst()] }
        for _ in 0..<2000 { names.append((0..<Int(random.next() % 11)).map { _ in UInt8(0x61 + random.next() % 26) }) }
        for name in names {
            for trailing in [[UInt8](), Array(#"":"x","#.utf8), Array(#"":1234567890123456}"#.utf8)] {
                let bytes = name + trailing
                bytes.withUnsafeBufferPointer { p in
                    let base = p.baseAddress ?? UnsafePointer(bitPattern: 1)!
                    #expect(EventMember.matching(base, name.count, readable: bytes.count) == EventMember.named(base, name.count),
                            "\(String(decoding: name, as: UTF8.self))")
                }
            }
        }
    }
}
