import Dispatch
import Foundation

/// The lines of a range and who decodes them, cut into parts as they are claimed: the delivering
/// thread claims parts from the range's start, and workers from its end, until the two meet.
///
/// Each thread finds the line ends of the parts it claims, so that it is the first to read, and
/// to fault in, the pages it decodes: the delivering thread, whose work bounds the reading's time,
/// no longer cuts the whole range first (`NavlogBench read`, all cores).
final class PartBoard: @unchecked Sendable {
    /// A part a worker claimed: its lines, and their events once decoded.
    final class WorkerPart: @unchecked Sendable {
        let start: Int
        let end: Int
        private var decoded: DecodedPart?
        private let done = DispatchSemaphore(value: 0)

        fileprivate init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        /// Leaves the part's decoded lines for the delivering thread.
        func finish(_ part: DecodedPart) {
            decoded = part
            done.signal()
        }

        /// Waits for the part to be decoded, and takes its lines.
        func take() -> DecodedPart {
            done.wait()
            defer { decoded = nil }
            return decoded!
        }
    }

    nonisolated(unsafe) private let bytes: UnsafeRawBufferPointer
    private let partBytes: Int
    private let lock = NSLock()
    /// Where the first unclaimed line begins.
    private var front: Int
    /// Where the lines the workers claimed begin.
    private var back: Int
    /// The workers' parts, from the range's end.
    private var claimed: [WorkerPart] = []

    /// Cuts the lines in `[start, end)` of `bytes` into parts of about `partBytes` bytes.
    init(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int, partBytes: Int) {
        self.bytes = bytes
        self.partBytes = partBytes
        front = start
        back = end
    }

    /// The delivering thread's next part, from the first unclaimed line; nil once it reaches the
    /// workers' parts.
    func claimFirst() -> Range<Int>? {
        let (from, limit) = lock.withLock { (front, back) }
        guard from < limit else { return nil }
        var to = limit
        if from + partBytes < limit, let newline = memchrIndex(bytes, 0x0A, from: from + partBytes, to: limit) { to = newline + 1 }
        return lock.withLock {
            guard from < back else { return nil }
            // A worker may have claimed lines before `to` meanwhile: the part ends where they begin.
            front = min(to, back)
            return from..<front
        }
    }

    /// A worker's next part, the last unclaimed lines; nil when none are left.
    func claimLast() -> WorkerPart? {
        while true {
            let (limit, to) = lock.withLock { (front, back) }
            guard limit < to else { return nil }
            var from = limit
            if to - partBytes > limit, let newline = lastNewline(bytes, from: limit, to: to - partBytes) { from = newline + 1 }
            lock.lock()
            defer { lock.unlock() }
            // Another worker claimed the lines before `to` meanwhile: look again.
            guard back == to else { continue }
            guard front < back else { return nil }
            // The delivering thread may have claimed past `from` meanwhile.
            back = max(from, front)
            let part = WorkerPart(start: back, end: to)
            claimed.append(part)
            return part
        }
    }

    /// Leaves nothing to claim: the workers stop after the parts they hold.
    func cancel() { lock.withLock { back = front } }

    /// The workers' parts in the order of their lines: all of them once ``claimFirst()`` returned nil.
    func workerParts() -> [WorkerPart] { lock.withLock { claimed.reversed() } }
}
