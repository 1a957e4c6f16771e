import CNavigationHistory

/// SHA-256 (FIPS 180-4), for the digest of a shipped segment and the salted hashes that redact
/// ids: the toolchain has no cryptographic hash on Linux, and the package takes no dependency.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(Array("abc".utf8))
/// hash.finalize().hex   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
package struct SHA256: Sendable {
    /// A digest: 32 bytes.
    package struct Digest: Sendable, Hashable {
        package var bytes: [UInt8]
        /// The digest in lowercase hexadecimal, as `sha256sum` prints it.
        package var hex: String { hex(ofFirst: bytes.count) }

        /// The first `count` bytes of the digest in lowercase hexadecimal: a salted hash keeps 8.
        package func hex(ofFirst count: Int) -> String {
            let digits: StaticString = "0123456789abcdef"
            return String(unsafeUninitializedCapacity: 2 * count) { text in
                for (k, byte) in bytes.prefix(count).enumerated() {
                    text[2 * k] = digits.utf8Start[Int(byte >> 4)]
                    text[2 * k + 1] = digits.utf8Start[Int(byte & 15)]
                }
                return 2 * count
            }
        }
    }

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    /// The bytes of a block not yet complete.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// Whether blocks are folded by the portable Swift code, not the CPU's SHA instructions.
    private let portable: Bool

    /// Whether this CPU has SHA-256 instructions (`sha256_hardware.c`), checked once.
    package static let hardwareAvailable = navigation_history_sha256_hardware_available() == 1

    /// A hash with nothing hashed yet, folding blocks with the CPU's instructions where there are
    /// some unless `portable`, which the tests compare them with.
    package init(portable: Bool = !SHA256.hardwareAvailable) {
        self.portable = portable
    }

    /// Hashes `bytes` after what was hashed before.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = rest.prefix(64 - pending.count)
            pending.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            guard pending.count == 64 else { return }
            let block = pending
            pending.removeAll(keepingCapacity: true)
            block.withUnsafeBytes { compress($0) }
        }
        let whole = rest.count / 64 * 64
        let blocks = rest.prefix(whole)
        if blocks.withContiguousStorageIfAvailable({ compressBlocks(UnsafeRawBufferPointer($0)) }) == nil {
            Array(blocks).withUnsafeBytes { compressBlocks($0) }
        }
        pending.append(contentsOf: rest.dropFirst(whole))
    }

    /// The digest of everything hashed.
    package mutating func finalize() -> Digest {
        let bits = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBytes { compressBlocks($0) }
        pending.removeAll()
        // Each word big-endian, without an array a word: a salted hash of a short value is mostly
        // this call (`NavlogBench redact`).
        let state = state
        return Digest(bytes: [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
            for (k, word) in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7].enumerated() {
                for b in 0..<4 { digest[4 * k + b] = UInt8(truncatingIfNeeded: word >> (24 - 8 * b)) }
            }
            count = 32
        })
    }

    /// The digest of `bytes`.
    package static func digest(_ bytes: some Collection<UInt8>) -> Digest {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Folds `raw`, whole 64-byte blocks, into the state.
    private mutating func compressBlocks(_ raw: UnsafeRawBufferPointer) {
        if !portable, let base = raw.baseAddress {
            withUnsafeMutableBytes(of: &state) { words in
                navigation_history_sha256_hardware_blocks(words.baseAddress!.assumingMemoryBound(to: UInt32.self), base, raw.count / 64)
            }
            return
        }
        var offset = 0
        while offset < raw.count {
            compress(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + 64)]))
            offset += 64
        }
    }

    /// Folds one 64-byte block into the state.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ majority
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }
}
