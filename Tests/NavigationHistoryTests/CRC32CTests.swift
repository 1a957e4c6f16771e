import Testing
@testable import NavigationHistory
import NavigationSimulation

@Suite struct CRC32CTests {
    @Test(arguments: [
        ("123456789", UInt32(0xE306_9283)),
        ("", UInt32(0)),
        ("a", UInt32(0xC1D0_4330)),
        ("The quick brown fox jumps over the lazy dog", UInt32(0x2262_0404)),
    ])
    func checksumMatchesPublishedVectors(text: String, expected: UInt32) {
        #expect(CRC32C.checksum(Array(text.utf8)) == expected)
    }

    @Test func checksumMatchesRFC3720Vectors() {
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    }

    @Test func hardwareAndTableChecksumsEqualBytewiseChecksumAtEveryLengthAndAlignment() {
        var random = SeededRandom(seed: 9)
        let bytes = (0..<300).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for start in 0..<8 {
            for end in start...bytes.count {
                var reference: UInt32 = 0xFFFF_FFFF
                for byte in bytes[start..<end] {
                    reference ^= UInt32(byte)
                    for _ in 0..<8 { reference = reference & 1 == 1 ? (reference >> 1) ^ 0x82F6_3B78 : reference >> 1 }
                }
                bytes.withUnsafeBytes { all in
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<end])
                    #expect(CRC32C.checksum(slice) == ~reference, "bytes \(start)..<\(end)")
                    #expect(CRC32C.tableChecksum(slice) == ~reference, "table, bytes \(start)..<\(end)")
                }
            }
        }
    }
}
