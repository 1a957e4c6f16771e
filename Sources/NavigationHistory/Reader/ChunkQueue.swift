import CNavigationHistory
import Foundation

/// A chunk of a reading: where it begins and where the next chunk begins (nil for the last), what
/// it made of its events and what its reading found.
///
/// Its reading thread alone touches it while it reads, but for its ``request`` and what the queue's
/// lock guards; the thread that began the reading reads it once every thread is done.
final class Chunk<Part>: @unchecked Sendable {
    /// What it made of its events; nil until its reading thread makes it.
    var part: Part?
    let start: EventPosition
    /// Where it begins, in log offsets.
    let from: Int
    /// Where the next chunk begins, in log offsets. Changed under the queue's lock, when the
    /// chunk's reader gives the rest of its range away.
    var end: Int?
    var report: ReadReport?
    var error: (any Error)?
    /// Where the next chunk's first event was, when this chunk got to it.
    var endedAtNext: EventPosition?
    /// Whether a thread left without a chunk asks this chunk's reader for part of its range.
    let request = SplitRequest()
    // Under the queue's lock:
    fileprivate var state = State.waiting
    fileprivate var answer: Answer?

    fileprivate enum State { case waiting, reading, done, unsplittable }
    fileprivate enum Answer { case declined, split(Chunk) }

    init(start: EventPosition, from: Int, end: Int?) {
        self.start = start
        self.from = from
        self.end = end
    }
}

/// Whether a thread asks a chunk's reader for part of its range: set and cleared under the queue's
/// lock, and read by the reader after every event. A class of its own, not generic: read in a
/// chunk's generic code, a member of `Chunk` was looked up through its type's metadata each time.
final class SplitRequest: @unchecked Sendable {
    private let word = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init() { word.initialize(to: 0) }

    deinit { word.deallocate() }

    /// Whether a thread asks.
    var isAsked: Bool { navigation_history_load_acquire(word) != 0 }

    fileprivate func set(_ asked: Bool) { navigation_history_store_release(word, asked ? 1 : 0) }
}

/// The chunks of a reading, handed to its threads: first those the log's ranges began, then, to a
/// thread left without one while others still read, the later half of a chunk being read, which its
/// reader splits off at a `session.start` when asked. So no thread idles while much is left to
/// read — when one chunk turns out longer to read than another, or a core is taken from under it.
final class ChunkQueue<Part>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Every chunk, in the order made.
    private var made: [Chunk<Part>]
    /// Where the log ends, in log offsets.
    private let total: Int

    init(_ chunks: [Chunk<Part>], total: Int) {
        made = chunks
        self.total = total
    }

    /// The chunks, in the order they lie in the log. Call once every thread is done.
    var chunks: [Chunk<Part>] { made.sorted { $0.from < $1.from } }

    /// The next chunk for a thread to read: one not yet taken, or else the later part of a chunk
    /// being read, split off by its reader at this thread's request; nil when none is left worth
    /// splitting.
    func take() -> Chunk<Part>? {
        condition.lock()
        defer { condition.unlock() }
        if let waiting = made.first(where: { $0.state == .waiting }) {
            waiting.state = .reading
            return waiting
        }
        // The chunk with the longest range, likely the one with the most left to read.
        let length = { (chunk: Chunk<Part>) in (chunk.end ?? self.total) - chunk.from }
        while let asked = made.filter({ $0.state == .reading && !$0.request.isAsked }).max(by: { length($0) < length($1) }) {
            asked.request.set(true)
            while asked.answer == nil { condition.wait() }
            defer { asked.answer = nil }
            if case .split(let chunk) = asked.answer { return chunk }
        }
        return nil
    }

    /// Gives `split` — the rest of `chunk`'s range, from the `session.start` where `chunk` now ends —
    /// to the thread that asked for it; nil declines, and `chunk` is not asked again.
    func answer(_ chunk: Chunk<Part>, with split: Chunk<Part>?) {
        condition.lock()
        defer { condition.unlock() }
        if let split {
            split.state = .reading
            made.append(split)
            chunk.end = split.from
            chunk.answer = .split(split)
        } else {
            chunk.state = .unsplittable
            chunk.answer = .declined
        }
        chunk.request.set(false)
        condition.broadcast()
    }

    /// Marks `chunk` read, declining the thread that asks for part of it, if one does.
    func finish(_ chunk: Chunk<Part>) {
        condition.lock()
        defer { condition.unlock() }
        chunk.state = .done
        if chunk.request.isAsked {
            chunk.answer = .declined
            chunk.request.set(false)
            condition.broadcast()
        }
    }
}
