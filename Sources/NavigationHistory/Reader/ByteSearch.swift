import CNavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The offset in `base` of the first `byte` in `[from, to)`; nil when there is none.
@inline(__always) func memchrIndex(_ base: UnsafeRawBufferPointer, _ byte: UInt8, from: Int, to: Int) -> Int? {
    guard from < to, let pointer = memchr(base.baseAddress! + from, Int32(byte), to - from) else { return nil }
    return UnsafeRawPointer(pointer) - base.baseAddress!
}

/// The offset in `base` of the last newline in `[from, to)`; nil when there is none. 16 bytes at a
/// time: a jump looks many lines back for where its fold may begin.
@inline(__always) func lastNewline(_ base: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
    guard from < to else { return nil }
    let found = navigation_history_last_newline(base.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, to - from)
    return found < 0 ? nil : from + found
}

/// How many newlines `[from, to)` of `base` holds.
@inline(__always) func newlineCount(_ base: UnsafeRawBufferPointer, from: Int, to: Int) -> Int {
    guard from < to else { return 0 }
    return navigation_history_count_newlines(base.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, to - from)
}

/// Asks the CPU to fetch the bytes a page after the line at `start` (as many as a line has),
/// before the newline scan reaches them: its own prefetching stops at each 4 KiB page, and the scan
/// is the first to read a window's bytes, waiting on memory at each page start otherwise.
@inline(__always) func prefetchAhead(_ base: UnsafeRawBufferPointer, of start: Int, end: Int) {
    let ahead = start + 4096
    guard ahead + 192 <= end else { return }
    navigation_history_prefetch(base.baseAddress! + ahead)
    navigation_history_prefetch(base.baseAddress! + ahead + 64)
    navigation_history_prefetch(base.baseAddress! + ahead + 128)
}
