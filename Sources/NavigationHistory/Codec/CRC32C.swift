import CNavigationHistory

/// CRC-32C (Castagnoli), the checksum of every line the store writes.
///
/// Uses the CPU's CRC-32C instruction where there is one (SSE 4.2 on x86-64, the CRC extension on
/// ARMv8), and otherwise slicing-by-8 over a table computed once, which runs on every platform.
///
/// ```swift
/// CRC32C.checksum(Array("123456789".utf8)) // 0xE3069283
/// ```
package enum CRC32C {
    /// The CRC-32C of `bytes`.
    ///
    /// - Complexity: O(n).
    package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { checksum($0) }
    }

    /// The CRC-32C of the bytes in `buffer`.
    ///
    /// - Complexity: O(n).
    package static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        guard hardwareAvailable, let base = buffer.baseAddress else { return tableChecksum(buffer) }
        return ~navigation_history_crc32c_hardware_update(0xFFFF_FFFF, base, buffer.count)
    }

    /// Whether ``checksum(_:)-(UnsafeRawBufferPointer)`` uses the CPU's instruction.
    package static let hardwareAvailable = navigation_history_crc32c_hardware_available() == 1

    /// The portable version, for platforms without the instruction and for tests that compare the two.
    package static func tableChecksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        let t = table
        var crc: UInt32 = 0xFFFF_FFFF
        guard var p = buffer.baseAddress else { return 0 }
        var n = buffer.count
        while n >= 8 {
            let low = p.loadUnaligned(as: UInt32.self).littleEndian ^ crc
            let high = p.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian
            crc = t.lookup(7, low & 0xFF) ^ t.lookup(6, (low >> 8) & 0xFF)
                ^ t.lookup(5, (low >> 16) & 0xFF) ^ t.lookup(4, low >> 24)
                ^ t.lookup(3, high & 0xFF) ^ t.lookup(2, (high >> 8) & 0xFF)
                ^ t.lookup(1, (high >> 16) & 0xFF) ^ t.lookup(0, high >> 24)
            p += 8
            n -= 8
        }
        while n > 0 {
            crc = t.lookup(0, (crc ^ UInt32(p.load(as: UInt8.self))) & 0xFF) ^ (crc >> 8)
            p += 1
            n -= 1
        }
        return ~crc
    }

    private static let table = Table()

    /// Eight 256-entry tables for slicing-by-8, allocated once and never freed.
    private struct Table: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt32>

        init() {
            base = .allocate(capacity: 8 * 256)
            for i in 0..<256 {
                var crc = UInt32(i)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
                base[i] = crc
            }
            for i in 0..<256 {
                for k in 1..<8 {
                    let previous = base[(k - 1) * 256 + i]
                    base[k * 256 + i] = (previous >> 8) ^ base[Int(previous & 0xFF)]
                }
            }
        }

        @inline(__always)
        func lookup(_ slice: Int, _ index: UInt32) -> UInt32 {
            base[slice &* 256 &+ Int(index)]
        }
    }
}
