import Testing
@testable import NavigationHistory
import NavigationSimulation

/// The vector newline search a jump uses to find where its fold may begin: the count of a range's
/// newlines and the last of them, against a byte-by-byte look, on random bytes of many lengths and
/// offsets (the vector steps are 16 bytes, and a count runs 255 steps before it sums its lanes).
@Suite struct NewlineSearchTests {
    @Test func theCountAndTheLastNewlineOfAnyRangeAreAByteByByteLooksFindings() {
        var random = SeededRandom(seed: 41)
        for round in 0..<400 {
            let length = round < 300 ? Int.random(in: 0...700, using: &random) : Int.random(in: 4000...9000, using: &random)
            // Mostly newlines in some rounds, none in others, a few in most.
            let share = [0, 1, 5, 50, 100][round % 5]
            let bytes = (0..<length).map { _ in Int.random(in: 0..<100, using: &random) < share ? UInt8(0x0A) : UInt8.random(in: 0x0B...0xFF, using: &random) }
            bytes.withUnsafeBytes { buffer in
                let from = length == 0 ? 0 : Int.random(in: 0...length, using: &random)
                let to = Int.random(in: from...length, using: &random)
                let range = bytes[from..<to]
                #expect(newlineCount(buffer, from: from, to: to) == range.filter { $0 == 0x0A }.count, "round \(round)")
                #expect(lastNewline(buffer, from: from, to: to) == range.lastIndex(of: 0x0A), "round \(round)")
            }
        }
    }
}
