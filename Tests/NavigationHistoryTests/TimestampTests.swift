import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation

@Suite struct TimestampTests {
    @Test func theTextOfAnyTimestampIsFoundationsRFC3339Text() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var random = SeededRandom(seed: 13)
        // Years 1583 to 9999 (before, Foundation's calendar is Julian; RFC 3339's stays Gregorian),
        // the epoch's neighbours.
        let first: Int64 = -12_212_553_600_000, last: Int64 = 253_402_300_799_999
        for round in 0..<20_000 {
            let ms = round < 4 ? [0, -1, first, last][round] : first + Int64(random.next() % UInt64(last - first + 1))
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
            // Foundation rounds the milliseconds from a Double: compared up to them, then they alone.
            let text = Timestamp(millisecondsSince1970: ms).description
            #expect(text.prefix(19) == expected.prefix(19), "\(ms)")
            #expect(text.suffix(5) == String(format: ".%03dZ", Int((ms % 1000 + 1000) % 1000)), "\(ms)")
        }
    }

    @Test(arguments: ["2026-11-29T12:00:00.123Z", "1970-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z",
                      "2000-02-29T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z", "0001-01-01T00:00:00.000Z"])
    func validTimestampsRoundTripByteForByte(text: String) throws {
        let timestamp = try #require(Timestamp(text))
        #expect(timestamp.description == text)
    }

    @Test func parsedMillisecondsMatchFoundation() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var random = SeededRandom(seed: 4)
        for _ in 0..<2000 {
            let ms = Int64(random.next() % 4_000_000_000_000)
            let text = Timestamp(millisecondsSince1970: ms).description
            let date = try #require(formatter.date(from: text))
            #expect(Int64((date.timeIntervalSince1970 * 1000).rounded()) == ms, "\(text)")
            #expect(Timestamp(text)?.millisecondsSince1970 == ms)
        }
    }

    @Test(arguments: ["2026-11-29T12:00:00Z", "2026-11-29T12:00:00.12Z", "2026-11-29 12:00:00.123Z",
                      "2026-11-29T12:00:00.123+00:00", "2026-02-29T12:00:00.123Z", "2026-13-01T12:00:00.123Z",
                      "2026-04-31T12:00:00.123Z", "2026-11-29T24:00:00.000Z", "2026-11-29T12:60:00.000Z",
                      "2026-11-29T12:00:60.000Z", "2026-11-29t12:00:00.123z", "1900-02-29T00:00:00.000Z", "", "2026-11-29T12:00:00.1234Z"])
    func malformedOrImpossibleTimestampsAreRejected(text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test func anyNonDigitWhereADigitBelongsIsRejected() {
        let valid = Array("2026-11-29T12:34:56.789Z".utf8)
        let digitPositions = valid.indices.filter { (0x30...0x39).contains(valid[$0]) }
        #expect(digitPositions.count == 17)
        for position in digitPositions {
            for byte in [0x00, 0x20, 0x2F, 0x3A, 0x41, 0x61, 0x7F, 0xC3, 0xFF] as [UInt8] {
                var bytes = valid
                bytes[position] = byte
                let parsed = bytes.withUnsafeBytes { Timestamp.parse($0) }
                #expect(parsed == nil, "byte \(byte) at \(position)")
            }
        }
    }

    @Test func aTimestampInTheMinuteOrTheDayOfTheLastIsReadAsWithoutACache() {
        let cache = DecodingCache()
        defer { cache.deallocate() }
        func read(_ bytes: [UInt8]) -> Timestamp? { bytes.withUnsafeBytes { cache.timestamp($0) } }
        let valid = Array("2026-11-29T12:34:56.789Z".utf8)
        // Every byte value at every position, each read after the valid timestamp (so that its
        // minute and day are the last ones) and after a timestamp of another day.
        for position in valid.indices {
            for byte in UInt8.min...UInt8.max {
                var bytes = valid
                bytes[position] = byte
                let expected = bytes.withUnsafeBytes { Timestamp.parse($0) }
                _ = read(valid)
                #expect(read(bytes) == expected, "byte \(byte) at \(position) after the same minute")
                _ = read(Array("2025-01-02T03:04:05.006Z".utf8))
                #expect(read(bytes) == expected, "byte \(byte) at \(position) after another day")
            }
        }
        // Instants of one day in order, as a log has them: minutes repeat, then change.
        var random = SeededRandom(seed: 17)
        var ms: Int64 = 1_764_000_000_000
        for _ in 0..<20_000 {
            ms += Int64(random.next() % 90_000)
            let text = Timestamp(millisecondsSince1970: ms).description
            #expect(read(Array(text.utf8))?.millisecondsSince1970 == ms, "\(text)")
        }
    }
}
