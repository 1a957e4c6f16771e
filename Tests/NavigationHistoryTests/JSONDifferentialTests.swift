import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation

/// The byte-level scanner against Foundation's `JSONSerialization` on generated and mutated lines.
@Suite struct JSONDifferentialTests {
    /// How the two parsers may legitimately differ. Anything else fails the test.
    enum KnownDifference: Equatable {
        /// Foundation accepts `[1,]` and `{"a":1,}`; RFC 8259 does not.
        case foundationAcceptsTrailingComma
        /// Foundation skips a byte order mark; the event format forbids one.
        case foundationSkipsByteOrderMark
        /// Foundation refuses numbers beyond Double's range; JSON has no such limit.
        case foundationRefusesHugeNumber
    }

    /// Where the scanner and Foundation disagree on a line: one accepts it, the other does not.
    enum Disagreement {
        case onlyFoundationAccepted(LineError)
        case onlyScannerAccepted(JSONValue, any Error)
    }

    /// Reads `line` with the scanner and with Foundation: when both accept it, expects the same
    /// value and counts it in `valid`; when both refuse it, counts it in `invalid`; else returns how
    /// they disagree.
    static func compare(_ line: [UInt8], valid: inout Int, invalid: inout Int) -> Disagreement? {
        let ours = line.withUnsafeBytes { bytes in Result { () throws(LineError) in try JSONScanner.parse(bytes) } }
        let theirs = Result { try JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed]) }
        switch (ours, theirs) {
        case (.success(let value), .success(let object)):
            #expect(equal(value, object), "decoded differently: \(String(decoding: line, as: UTF8.self))")
            valid += 1
        case (.failure, .failure):
            invalid += 1
        case (.failure(let error), .success):
            return .onlyFoundationAccepted(error)
        case (.success(let value), .failure(let error)):
            return .onlyScannerAccepted(value, error)
        }
        return nil
    }

    @Test func scannerAgreesWithJSONSerializationOnGeneratedAndMutatedLines() throws {
        var random = SeededRandom(seed: 2026)
        var agreedValid = 0, agreedInvalid = 0
        var known = [KnownDifference: Int]()
        for round in 0..<9000 {
            var line = Array(Self.serialize(Self.randomObject(&random, depth: 0), &random).utf8)
            if round % 3 != 0 { Self.mutate(&line, &random) }
            let text = String(decoding: line, as: UTF8.self)
            switch Self.compare(line, valid: &agreedValid, invalid: &agreedInvalid) {
            case nil:
                break
            case .onlyFoundationAccepted(let error):
                let difference = Self.classify(line, ourError: error)
                #expect(difference != nil, "only Foundation accepted: \(text) — ours: \(error.detail)")
                if let difference { known[difference, default: 0] += 1 }
            case .onlyScannerAccepted(let value, let error):
                let huge = Self.containsHugeNumber(value)
                #expect(huge, "only the scanner accepted: \(text) — Foundation: \(error)")
                if huge { known[.foundationRefusesHugeNumber, default: 0] += 1 }
            }
        }
        // The generator must exercise both sides, or the test proves nothing.
        #expect(agreedValid > 2500)
        #expect(agreedInvalid > 2500)
    }

    /// Strings are scanned sixteen bytes at a time, then eight, then byte by byte near the line's
    /// end: a quote, a backslash (a valid escape or not), a control byte or a character of several
    /// bytes at each offset of a long string, on a line cut at each byte after the string begins,
    /// scans as Foundation reads it.
    @Test func aStringLongerThanSixteenBytesWithAStopAtEachOffsetScansAsFoundationDoes() {
        let stops: [[UInt8]] = [[0x22], [0x5C], Array(#"\""#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
                                Array(#"\x"#.utf8), [0x00], [0x0A], [0x1F], [0x20], [0x7F], [0xC3, 0xA9]]
        var agreedValid = 0, agreedInvalid = 0
        for stop in stops {
            for offset in 0...40 {
                var value = [UInt8](repeating: 0x61, count: 41)
                value.replaceSubrange(offset..<(offset + 1), with: stop)
                let line = Array(#"{"a":""#.utf8) + value + Array(#"","b":1}"#.utf8)
                for count in 6...line.count {
                    let cut = Array(line.prefix(count))
                    if let disagreement = Self.compare(cut, valid: &agreedValid, invalid: &agreedInvalid) {
                        Issue.record("\(String(decoding: cut, as: UTF8.self)): \(disagreement)")
                    }
                }
            }
        }
        #expect(agreedValid > 200)
        #expect(agreedInvalid > 10_000)
    }

    @Test(arguments: [
        #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":1e}"#, #"{"a":-}"#,
        #"{"a":tru}"#, #"{"a":1}x"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":'b'}"#, #"{"a":"\x"}"#, "{\"a\":\"\u{01}\"}", #"{"a":[1 2]}"#,
        #"{"a":1,,"b":2}"#, #"{"a":1,}"#, #"[1,]"#, #"{"#, #""#, #"{"a":"\u12"}"#, "{\"a\":\u{0B}1}", #"{"a":+1}"#,
    ])
    func invalidJSONIsRejected(text: String) {
        let result = Array(text.utf8).withUnsafeBytes { bytes in Result { () throws(LineError) in try JSONScanner.parse(bytes) } }
        guard case .failure(let error) = result else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.kind == .invalidJSON)
    }

    @Test func invalidUTF8IsRejectedBeforeParsing() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let line = Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8)
            let result = line.withUnsafeBytes { bytes in Result { () throws(LineError) in try JSONScanner.parse(bytes) } }
            guard case .failure(let error) = result else {
                Issue.record("accepted invalid UTF-8 \(bad)")
                continue
            }
            #expect(error.kind == .invalidUTF8)
        }
    }

    // MARK: Generation

    static let keyPool = ["a", "seq", "route", "é", "k\"q", "x\\y", "tab\there", "😀", "", "line\nbreak", "screen"]
    static let stringPool = ["", "plain", "ünïcödé", "emoji 😀🎉", "quote \" and backslash \\", "slash /", "ctl \u{01}\u{1F}",
                             "tab\t newline\n return\r", "\u{7F}del", "日本語", "\u{FEFF}bom", "surrogates 𝄞"]

    static func randomObject(_ r: inout SeededRandom, depth: Int) -> JSONValue {
        let count = Int(r.next() % (depth == 0 ? 7 : 4))
        return .object((0..<count).map { _ in
            JSONMember(keyPool[Int(r.next() % UInt64(keyPool.count))], randomValue(&r, depth: depth + 1))
        })
    }

    static func randomValue(_ r: inout SeededRandom, depth: Int) -> JSONValue {
        switch r.next() % (depth > 4 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(r.chance(0.5))
        case 2: return .string(stringPool[Int(r.next() % UInt64(stringPool.count))])
        case 3, 4:
            let forms = ["0", "-0", "7", "-12", "1.5", "1e3", "2E-2", "-3.25e+2", "1.0", "123456789", "9007199254740991", "0.001"]
            return .number(forms[Int(r.next() % UInt64(forms.count))])
        case 5: return .array((0..<Int(r.next() % 4)).map { _ in randomValue(&r, depth: depth + 1) })
        default: return randomObject(&r, depth: depth)
        }
    }

    /// Compact JSON with random insignificant whitespace and random escaping choices.
    static func serialize(_ value: JSONValue, _ r: inout SeededRandom) -> String {
        func ws() -> String { r.chance(0.2) ? [" ", "\t", "  ", "\r", " \n "][Int(r.next() % 5)] : "" }
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return quote(s, &r)
        case .array(let elements): return "[" + ws() + elements.map { serialize($0, &r) + ws() }.joined(separator: "," + ws()) + "]"
        case .object(let members):
            return "{" + ws() + members.map { quote($0.key, &r) + ws() + ":" + ws() + serialize($0.value, &r) + ws() }
                .joined(separator: "," + ws()) + "}"
        }
    }

    static func quote(_ s: String, _ r: inout SeededRandom) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += r.chance(0.5) ? "\\t" : "\\u0009"
            case "\r": out += "\\r"
            case "/": out += r.chance(0.5) ? "\\/" : "/"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            case _ where scalar.value > 0xFFFF && r.chance(0.5):
                let v = scalar.value - 0x10000
                out += String(format: "\\ud%03x\\u%04X", 0x800 + (v >> 10), 0xDC00 + (v & 0x3FF))
            case _ where scalar.value > 0x7F && r.chance(0.3): out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func mutate(_ line: inout [UInt8], _ r: inout SeededRandom) {
        let interesting: [UInt8] = Array("\"\\,:{}[]0123456789eE+-. tfn".utf8) + [0x01, 0x0B, 0x7F, 0xC3, 0xFF, 0xED, 0x80]
        for _ in 0..<(1 + Int(r.next() % 2)) {
            guard !line.isEmpty else { line = [interesting[Int(r.next() % UInt64(interesting.count))]]; return }
            let at = Int(r.next() % UInt64(line.count))
            switch r.next() % 6 {
            case 0: line.remove(at: at)
            case 1: line.insert(interesting[Int(r.next() % UInt64(interesting.count))], at: at)
            case 2: line[at] = interesting[Int(r.next() % UInt64(interesting.count))]
            case 3: line.removeSubrange(at...)
            case 4: line[at] ^= UInt8(1) << UInt8(r.next() % 8)
            default: line.insert(contentsOf: line[at..<min(line.count, at + 4)], at: at)
            }
        }
    }

    // MARK: Comparison

    static func equal(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let b): return (theirs as? NSNumber)?.boolValue == b
        case .number(let text):
            guard let number = theirs as? NSNumber, let value = Double(text) else { return false }
            // Beyond 2^53 Foundation may keep a Decimal; allow the last bits of a Double to differ.
            return number.doubleValue == value || abs(number.doubleValue - value) <= abs(value) * 1e-15
        case .string(let s):
            // Known difference: Foundation drops a U+FEFF at the start of a string value.
            return (theirs as? String) == s || (s.hasPrefix("\u{FEFF}") && (theirs as? String) == String(s.dropFirst()))
        case .array(let elements):
            guard let array = theirs as? [Any], array.count == elements.count else { return false }
            return zip(elements, array).allSatisfy { equal($0, $1) }
        case .object(let members):
            guard let dictionary = theirs as? [String: Any] else { return false }
            var lastWins = [String: JSONValue]()
            for member in members { lastWins[member.key] = member.value }
            guard lastWins.count == dictionary.count else { return false }
            return lastWins.allSatisfy { key, value in dictionary[key].map { equal(value, $0) } ?? false }
        }
    }

    static func classify(_ line: [UInt8], ourError: LineError) -> KnownDifference? {
        if ourError.detail == JSONScanner.trailingCommaMessage { return .foundationAcceptsTrailingComma }
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { return .foundationSkipsByteOrderMark }
        return nil
    }

    static func containsHugeNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let text): return Double(text).map { !$0.isFinite } ?? true
        case .array(let elements): return elements.contains(where: containsHugeNumber)
        case .object(let members): return members.contains { containsHugeNumber($0.value) }
        default: return false
        }
    }
}
