import Foundation
import Testing
@testable import NavigationHistory

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func theDigestsOfTheStandardsTestVectors(text: String, hex: String) {
        #expect(SHA256.digest(Array(text.utf8)).hex == hex)
        var portable = SHA256(portable: true)
        portable.update(Array(text.utf8))
        #expect(portable.finalize().hex == hex)
    }

    @Test func theCPUsInstructionsAndThePortableCodeAgreeOnEveryLength() {
        #expect(SHA256.hardwareAvailable || !FileManager.default.contents(atPath: "/proc/cpuinfo").map {
            String(decoding: $0, as: UTF8.self).contains(" sha_ni")
        }!, "a CPU with the SHA extensions uses them")
        var random = SystemRandomNumberGenerator()
        for length in Array(0...300) + [4095, 4096, 65_537, 1 << 20] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            var hardware = SHA256(), portable = SHA256(portable: true)
            hardware.update(bytes)
            portable.update(bytes)
            #expect(hardware.finalize() == portable.finalize(), "\(length) bytes")
        }
    }

    @Test func aMillionAsHashedInPiecesOfEveryAlignment() {
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.digest(million).hex == expected)
        for piece in [1, 63, 64, 65, 4096, 99_999] {
            var hash = SHA256()
            var offset = 0
            while offset < million.count {
                hash.update(million[offset..<min(offset + piece, million.count)])
                offset += piece
            }
            #expect(hash.finalize().hex == expected, "pieces of \(piece)")
        }
    }
}
