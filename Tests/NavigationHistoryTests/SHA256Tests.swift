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
