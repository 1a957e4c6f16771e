import Dispatch

extension LogReader {
    /// Decodes the complete lines in `[start, end)` of `bytes` and hands them to the merger in order.
    ///
    /// Large ranges are cut at line ends into parts as they are claimed (``PartBoard``). This
    /// thread claims them from the first, decoding each and delivering its events as they come;
    /// `threads − 1` workers claim them from the last, decoding each into a ``DecodedPart``, until
    /// the two meet. This thread then delivers the workers' parts, waiting at most for the one a
    /// worker still decodes. Only the workers' share of the events is held in parts, and the
    /// merger's and `body`'s work on this thread overlaps the workers' decoding (`NavlogBench
    /// read`, all cores: 0.108 s against 0.089 s when both took parts from the first and this
    /// thread decoded ahead into parts while it waited). `body` and the merger only ever run on
    /// the calling thread. Each thread decodes with its own cache of `caches`. The workers first
    /// do the `chores` left since the last window, and the parts delivered are left to them.
    func decodeLines(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int, fileOffset: Int, finalLine: Bool,
                     chores: Chores, caches: DecoderCaches, merger: inout Merger, _ body: PositionedBody) throws {
        let cache = caches.delivering
        guard threads > 1, end - start >= parallelBytes else {
            return try deliverPart(bytes, start: start, end: end, fileOffset: fileOffset, finalLine: finalLine, cache: cache,
                                   merger: &merger, body)
        }
        // About sixteen parts per thread: this thread waits for at most the part a worker decodes
        // when the two meet.
        let partBytes = min(max((end - start) / (threads * 16), 16 << 10), 256 << 10)
        let board = PartBoard(bytes, start: start, end: end, partBytes: partBytes)
        let group = DispatchGroup()
        nonisolated(unsafe) let shared = bytes
        let discarded = self.discarded
        for worker in 0..<threads - 1 {
            nonisolated(unsafe) let cache = caches.worker(worker)
            DispatchQueue.global().async(group: group) {
                chores.run()
                while let part = board.claimLast() {
                    part.finish(Self.decodePart(shared, start: part.start, end: part.end, cache: cache))
                }
                discarded?.withLock { $0 = nil }
            }
        }
        // The workers' parts, once delivered, are freed by a worker (``Chores``). Freeing them here
        // would also cost a seek's thread a tenth of its time (`NavlogBench timeline --seek-log`).
        var delivered: [DecodedPart] = []
        // The workers read the bytes: wait for them whatever happens on this thread.
        defer {
            board.cancel()
            group.wait()
            if !delivered.isEmpty { chores.free(delivered) }
        }
        while let part = board.claimFirst() {
            try deliverPart(bytes, start: part.lowerBound, end: part.upperBound, fileOffset: fileOffset,
                            finalLine: finalLine && part.upperBound == end, cache: cache, merger: &merger, body)
            if merger.stopped { return }
        }
        for part in board.workerParts() {
            let decoded = part.take()
            try decoded.deliver(fileOffset: fileOffset, finalLine: finalLine && part.end == end, merger: &merger, body)
            delivered.append(decoded)
            if merger.stopped { return }
        }
    }

    /// Decodes the lines in `[start, end)` on this thread, handing each to the merger as it goes.
    private func deliverPart(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int, fileOffset: Int,
                             finalLine: Bool, cache: DecodingCache, merger: inout Merger, _ body: PositionedBody) throws {
        try Self.forEachLine(in: bytes, from: start, to: end) { line, lineStart, isLast in
            let decoded: DecodedLine
            do throws(LineError) {
                decoded = try LineDecoder.decode(line, cache: cache)
            } catch {
                merger.defect(error, offset: fileOffset + lineStart, isLastLine: finalLine && isLast)
                return !merger.stopped
            }
            try merger.event(decoded.event, hasCRC: decoded.hasCRC, offset: fileOffset + lineStart, isLastLine: finalLine && isLast, body)
            return !merger.stopped
        }
    }

    /// Decodes the lines in `[start, end)` into a ``DecodedPart``, on a worker thread.
    private static func decodePart(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int, cache: DecodingCache) -> DecodedPart {
        let part = DecodedPart(capacity: (end - start) / 128 + 1)
        forEachLine(in: bytes, from: start, to: end) { line, lineStart, _ in
            do throws(LineError) {
                part.append(try LineDecoder.decode(line, cache: cache), lineStart: lineStart)
            } catch {
                part.append(error, lineStart: lineStart)
            }
            return true
        }
        return part
    }

    /// Hands the lines in `[start, end)` of `bytes` to `body` in order, each without its newline
    /// (the last one up to `end`), with the offset it starts at and whether it is the range's last,
    /// until `body` returns false: the one loop over a window's lines, whether its bytes are mapped
    /// or copied, and whether its lines are delivered at once or decoded on a worker for later.
    ///
    /// Each caller decodes the line itself, so that the decoded event is moved where it goes: a
    /// decoded line handed through a closure is copied, every string retained and released again
    /// (`NavlogBench read`).
    @inline(__always)
    private static func forEachLine(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int,
                                    _ body: (_ line: UnsafeRawBufferPointer, _ lineStart: Int, _ isLast: Bool) throws -> Bool) rethrows {
        var lineStart = start
        while lineStart < end {
            prefetchAhead(bytes, of: lineStart, end: end)
            let newline = memchrIndex(bytes, 0x0A, from: lineStart, to: end) ?? end
            guard try body(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<newline]), lineStart, newline + 1 >= end) else { return }
            lineStart = newline + 1
        }
    }
}
