import Testing
@testable import NavigationHistory
import NavigationSimulation

/// The fast path for lines in the encoder's own form must return exactly what the general decoder
/// returns, or give up.
@Suite struct CanonicalLineDecoderTests {
    /// Strings of every kind the format allows: mostly plain ones, as apps write; some empty or
    /// non-ASCII; and a few the encoder escapes, which the fast path leaves to the general decoder.
    static let plain = ["main", "home", "recipe", "r104", "a", "cookbook://promo/winter?ref=mail", "x y", "", "crème brûlée", "日本", "🍰"]
    static let escaped = ["say \"hi\"", "back\\slash", "line\nbreak", "tab\there", "\u{1}"]

    static func randomText(_ random: inout SeededRandom, nonEmpty: Bool = false) -> String {
        let texts = random.chance(0.03) ? escaped : plain
        let text = texts[Int(random.next() % UInt64(texts.count))]
        return nonEmpty && text.isEmpty ? "s" : text
    }

    static func randomRoute(_ random: inout SeededRandom) -> Route {
        var params: [String: String]?
        if random.chance(0.3) {
            params = [:]
            for _ in 0..<Int(random.next() % 3) { params![randomText(&random)] = randomText(&random) }
        }
        return Route(screen: randomText(&random, nonEmpty: true), id: random.chance(0.7) ? randomText(&random) : nil, params: params)
    }

    static func randomAction(_ random: inout SeededRandom) -> NavigationAction {
        func text() -> String { randomText(&random, nonEmpty: true) }
        func maybe(_ make: () -> String) -> String? { random.chance(0.5) ? make() : nil }
        func route() -> Route { randomRoute(&random) }
        func routes() -> [Route] { (0..<Int(random.next() % 3)).map { _ in route() } }
        func pick<E: CaseIterable>(_: E.Type) -> E { Array(E.allCases)[Int(random.next() % UInt64(E.allCases.count))] }
        switch random.next() % 19 {
        case 0: return .sessionStart(app: maybe { randomText(&random) }, launch: pick(LaunchKind.self),
                                     meta: random.chance(0.5) ? [text(): randomText(&random)] : nil)
        case 1: return .sessionEnd(reason: maybe { randomText(&random) })
        case 2: return .sceneOpen(scene: text(), kind: maybe { randomText(&random) })
        case 3: return .sceneClose(scene: text(), kind: maybe { randomText(&random) })
        case 4: return .sceneActivate(scene: text())
        case 18: return .scenePhase(scene: text(), phase: pick(ScenePhase.self))
        case 5: return .tabSelect(scene: text(), tab: text())
        case 6: return .push(scene: text(), stack: text(), route: route())
        case 7: return .pop(scene: text(), stack: text(), count: 1 + Int(random.next() % 20))
        case 8: return .popToRoot(scene: text(), stack: text())
        case 9: return .replace(scene: text(), stack: text(), route: route())
        case 10: return .setPath(scene: text(), stack: text(), path: routes(), cause: pick(PathCause.self))
        case 11: return .deeplink(scene: text(), url: randomText(&random), outcome: pick(DeepLinkOutcome.self),
                                  tab: maybe(text), stack: maybe(text), path: random.chance(0.5) ? routes() : nil)
        case 12: return .sheetPresent(scene: text(), sheet: text(), route: route(), style: random.chance(0.5) ? pick(SheetStyle.self) : nil)
        case 13: return .sheetDismiss(scene: text(), sheet: maybe(text))
        case 14: return .splitSelect(scene: text(), column: pick(SplitColumn.self), route: random.chance(0.5) ? route() : nil)
        case 15: return .splitVisibility(scene: text(), visibility: pick(SplitVisibility.self))
        case 16: return .snapshot(state: NavigationState(active: "main", scenes: ["main": SceneState(tab: text(), stacks: [text(): routes()])]))
        default: return .restore(state: NavigationState(), from: 1 + Int(random.next() % 99), dropped: routes())
        }
    }

    static func randomEvent(_ random: inout SeededRandom) -> NavigationEvent {
        let seq = random.chance(0.1) ? LineDecoder.maximumSeq - Int(random.next() % 3) : 1 + Int(random.next() % 1_000_000)
        let ms = Int64(random.next() % 4_000_000_000_000)
        return NavigationEvent(seq: seq, timestamp: Timestamp(millisecondsSince1970: ms),
                               session: randomText(&random, nonEmpty: true), action: randomAction(&random))
    }

    static func fast(_ line: [UInt8]) -> NavigationEvent? {
        line.withUnsafeBytes { CanonicalLineDecoder.decode($0) }
    }

    static func general(_ line: [UInt8]) -> Result<NavigationEvent, LineError> {
        line.withUnsafeBytes { bytes in Result { () throws(LineError) in try LineDecoder.decodeAnyLayout(bytes).event } }
    }

    /// Whether the encoder wrote any string of the line with an escape.
    static func hasEscapes(_ line: [UInt8]) -> Bool { line.contains(0x5C) }

    @Test func theFastPathDecodesEveryEncodedLineWithoutEscapesAsTheGeneralDecoderDoes() throws {
        var random = SeededRandom(seed: 41)
        var taken = 0
        let cache = DecodingCache()
        defer { cache.deallocate() }
        for _ in 0..<20_000 {
            let event = Self.randomEvent(&random)
            let line = Array(LineEncoder.encode(event).dropLast())
            #expect(try Self.general(line).get() == event)
            let fast = Self.fast(line)
            // A cache shared by every line, as a reader's is: its hits and evictions change nothing.
            #expect(line.withUnsafeBytes { CanonicalLineDecoder.decode($0, cache: cache) } == fast)
            if event.isSnapshot || event.type == "restore" || Self.hasEscapes(line) {
                #expect(fast == nil, "\(String(decoding: line, as: UTF8.self))")
            } else {
                #expect(fast == event, "\(String(decoding: line, as: UTF8.self))")
                taken += 1
            }
        }
        #expect(taken > 10_000)
    }

    @Test func aLineChangedAndCheckedAgainIsEitherDecodedAlikeOrLeftToTheGeneralDecoder() {
        // Each line's body is changed at a random byte and closed with a fresh crc, so the change
        // reaches the fast path's parsing instead of failing the checksum.
        let changes: [UInt8] = Array(" ,:\"\\{}[]0123456789.eE-+ntfaluxX".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xB5, 0xC3, 0xA9, 0xFF]
        var random = SeededRandom(seed: 42)
        var agreed = 0, leftOver = 0
        let cache = DecodingCache()
        defer { cache.deallocate() }
        for _ in 0..<40_000 {
            let event = Self.randomEvent(&random)
            var writer = JSONWriter(capacity: 256)
            LineEncoder.append(event, to: &writer)
            var body = Array(writer.bytes.dropLast(19))  // without `,"crc":"xxxxxxxx"}\n`
            let at = Int(random.next() % UInt64(body.count))
            let byte = changes[Int(random.next() % UInt64(changes.count))]
            switch random.next() % 3 {
            case 0: body[at] = byte
            case 1: body.remove(at: at)
            default: body.insert(byte, at: at)
            }
            var closed = JSONWriter(capacity: body.count + 24)
            closed.bytes = body
            closed.closeLineWithChecksum(from: 0)
            let line = Array(closed.bytes.dropLast())
            // A cache shared by every line, changed or not, changes nothing either.
            #expect(line.withUnsafeBytes { CanonicalLineDecoder.decode($0, cache: cache) } == Self.fast(line))
            if let fast = Self.fast(line) {
                #expect((try? Self.general(line).get()) == fast, "\(String(decoding: line, as: UTF8.self))")
                agreed += 1
            } else {
                leftOver += 1
            }
        }
        // Both outcomes happen, so both are tested: most changes break the line, some only change a
        // value.
        #expect(agreed > 2_000)
        #expect(leftOver > 10_000)
    }

    @Test func membersThatRepeatOrNearlyRepeatTheLineBeforeAreDecodedAsWithoutACache() {
        // Sessions, scenes and stacks from a few values that share their first bytes, differ in
        // their last, are 7 to 17 bytes long, end where a word does, or are not ASCII: what the
        // cache compares with the member's value on the line before. Some lines are changed at a
        // byte near the member and closed with a fresh crc.
        let values = ["main", "mai", "mainx", "maio", "a", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmno",
                      "abcdefghijklmnp", "abcdefghijklmnop", "abcdefghijklmnopq", "mañ", "mañana", "日本"]
        var random = SeededRandom(seed: 44)
        let cache = DecodingCache()
        defer { cache.deallocate() }
        var decoded = 0, changed = 0
        for seq in 1...30_000 {
            func value() -> String { values[Int(random.next() % UInt64(values.count))] }
            // Mostly the value of the line before, as in a log.
            let session = random.chance(0.7) ? "abcdefghi" : value(), scene = random.chance(0.7) ? "main" : value()
            let action: NavigationAction = random.chance(0.5)
                ? .push(scene: scene, stack: value(), route: Route(screen: value()))
                : .pop(scene: scene, stack: value(), count: 1)
            let event = NavigationEvent(seq: seq, timestamp: Timestamp(millisecondsSince1970: 1_800_000_000_000), session: session, action: action)
            var line = Array(LineEncoder.encode(event).dropLast())
            if random.chance(0.3) {
                var body = Array(line.dropLast(18))
                let at = 40 + Int(random.next() % UInt64(body.count - 40))   // in the session or after it
                body[at] = Array("\"\\ ax\u{0}".utf8)[Int(random.next() % 6)]
                var closed = JSONWriter(capacity: body.count + 24)
                closed.bytes = body
                closed.closeLineWithChecksum(from: 0)
                line = Array(closed.bytes.dropLast())
                changed += 1
            }
            let fast = Self.fast(line)
            #expect(line.withUnsafeBytes { CanonicalLineDecoder.decode($0, cache: cache) } == fast, "\(String(decoding: line, as: UTF8.self))")
            if let fast {
                #expect((try? Self.general(line).get()) == fast)
                decoded += 1
            }
        }
        #expect(decoded > 20_000)
        #expect(changed > 5_000)
    }

    @Test func aRepeatedMemberWithInvalidUTF8IsRefusedOnEveryLine() {
        // "mañ" with its second byte of "ñ" made ASCII: invalid UTF-8, on two lines in a row, so
        // that the second finds the bytes the first left in the cache.
        let cache = DecodingCache()
        defer { cache.deallocate() }
        for seq in 1...2 {
            let event = NavigationEvent(seq: seq, timestamp: Timestamp(millisecondsSince1970: 0), session: "s1",
                                        action: .sceneActivate(scene: "mañ"))
            var body = Array(LineEncoder.encode(event).dropLast(19))
            body[body.firstIndex(of: 0xB1)!] = 0x41
            var closed = JSONWriter(capacity: body.count + 24)
            closed.bytes = body
            closed.closeLineWithChecksum(from: 0)
            let line = Array(closed.bytes.dropLast())
            #expect(line.withUnsafeBytes { CanonicalLineDecoder.decode($0, cache: cache) } == nil, "line \(seq)")
            #expect(throws: LineError.self) { try decodeLine(line) }
        }
    }

    @Test func aLineWhoseChecksumDoesNotMatchIsLeftToTheGeneralDecoder() throws {
        let event = NavigationEvent(seq: 9, timestamp: Timestamp("2026-11-29T12:00:00.123Z")!, session: "s1",
                                    action: .push(scene: "main", stack: "home", route: Route(screen: "recipe", id: "r1")))
        var line = Array(LineEncoder.encode(event).dropLast())
        #expect(Self.fast(line) == event)
        line[line.count - 3] = line[line.count - 3] == 0x30 ? 0x31 : 0x30
        #expect(Self.fast(line) == nil)
        #expect(throws: LineError.self) { try decodeLine(line) }
    }
}

@Suite struct EventTypeNameTests {
    @Test func everyTypeNameIsMatchedFromItsBytesAndNothingElseIs() {
        for type in EventType.allCases {
            let bytes = Array(type.rawValue.utf8)
            #expect(bytes.withUnsafeBufferPointer { EventType.named($0.baseAddress!, $0.count) } == type)
            for changed in [bytes.dropLast(), bytes + [0x73], [0x78] + bytes.dropFirst()] {
                let other = Array(changed)
                #expect(other.withUnsafeBufferPointer { EventType.named($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) } == nil)
            }
        }
    }
}

@Suite struct ChecksumDigitsTests {
    @Test func eightLowercaseHexDigitsAreReadAsTheirValueAndAnythingElseIsRefused() {
        // Bytes at and around the edges of 0-9 and a-f, uppercase, and bytes above 0x7F.
        let alphabet: [UInt8] = Array("0123456789abcdef/:`gAF".utf8) + [0x00, 0x80, 0xB0, 0xE1, 0xFF]
        var random = SeededRandom(seed: 8)
        var valid = 0
        for round in 0..<50_000 {
            let bytes: [UInt8] = (0..<8).map { _ in
                round % 2 == 0 ? alphabet[Int(random.next() % 16)] : alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let expected = bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) ? UInt32(text, radix: 16) : nil
            #expect(bytes.withUnsafeBufferPointer { LineDecoder.checksum(hexDigitsAt: $0.baseAddress!) } == expected, "\(bytes)")
            if expected != nil { valid += 1 }
        }
        #expect(valid > 20_000)
    }
}

@Suite struct DecodingCacheTests {
    @Test func aTimestampReadThroughTheCacheIsTheOneParsedAnew() {
        let cache = DecodingCache()
        defer { cache.deallocate() }
        var random = SeededRandom(seed: 9)
        // A few days, so that the date repeats as in a log, among them the cache's first entry;
        // some timestamps changed at a random byte, valid or not.
        let days: [Int64] = [0, 1, 20_000, 20_001, 20_788, -1]
        let changes = Array("0123456789-T:.Z x".utf8) + [0x00, 0xFF]
        var valid = 0
        for _ in 0..<60_000 {
            let ms = days[Int(random.next() % UInt64(days.count))] * 86_400_000 + Int64(random.next() % 86_400_000)
            var bytes = Array(Timestamp(millisecondsSince1970: ms).description.utf8)
            if random.chance(0.3) { bytes[Int(random.next() % 24)] = changes[Int(random.next() % UInt64(changes.count))] }
            let expected = bytes.withUnsafeBytes { Timestamp.parse($0) }
            #expect(bytes.withUnsafeBytes { cache.timestamp($0) } == expected, "\(String(decoding: bytes, as: UTF8.self))")
            if expected != nil { valid += 1 }
        }
        #expect(valid > 40_000)
    }

    @Test func aKeptMapIsFoundOnlyByItsOwnBytes() {
        let cache = DecodingCache()
        defer { cache.deallocate() }
        // Families of objects of one length that differ in one word only — the first, a middle
        // one, the last — so that many share a slot with another.
        let families: [(Int) -> String] = [
            { "{\"a\(1_000 + $0)\":\"x\"}" }, { "{\"xyzw\":\"\(100_000 + $0)\"}" }, { "{\"key\":\"value-\(1_000 + $0)\"}" },
        ]
        for family in families {
            var kept: [(bytes: [UInt8], map: [String: String])] = []
            for k in 0..<600 {
                let text = family(k)
                let bytes = Array(text.utf8) + Array(repeating: 0x20, count: 8)   // readable past the object
                let map = [String(text.dropFirst(2).prefix { $0 != "\"" }): String(k)]
                bytes.withUnsafeBufferPointer { cache.keep(map, madeOf: $0.baseAddress!, text.utf8.count) }
                kept.append((bytes, map))
                #expect(bytes.withUnsafeBufferPointer { cache.map($0.baseAddress!, text.utf8.count) } == map)   // found right after
                if k % 50 == 49 {
                    for (bytes, map) in kept {
                        let found = bytes.withUnsafeBufferPointer { cache.map($0.baseAddress!, bytes.count - 8) }
                        #expect(found == nil || found == map, "\(String(decoding: bytes, as: UTF8.self))")
                    }
                }
            }
        }
    }
}


@Suite struct ByteComparisonTests {
    @Test func bytesCompareEqualExactlyWhenNoByteDiffersWhateverTheirCount() {
        var random = SeededRandom(seed: 10)
        for count in 0...40 {
            let a: [UInt8] = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let copy = a.map { $0 }   // equal bytes in storage of their own
            #expect(a.withUnsafeBufferPointer { p in copy.withUnsafeBufferPointer { memcmpEqual(p.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count) } })
            for position in 0..<count {
                var b = a
                b[position] ^= 1 << UInt8(random.next() % 8)
                #expect(!a.withUnsafeBufferPointer { p in b.withUnsafeBufferPointer { memcmpEqual(p.baseAddress!, $0.baseAddress!, count) } },
                        "count \(count), byte \(position)")
            }
        }
    }
}
